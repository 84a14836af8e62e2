import { PostgresAdapter, type Kysely } from "kysely";

/**
 * docs/decisions/035-item-photos.md: item photos.
 * - item_photos: one row per photo of an item, in the owner's order (`position`), public
 *   or private (private: only the item's managers see it). Deleted with the item (cascade);
 *   `itemId` moves with a replacement sticker's new id (fulfil.repository moveItemToNewId).
 * - photo_variants: the WebP files of a photo (160/320/640/1280 px wide), each by the
 *   SHA-256 of its bytes; `size` counts towards the owner's storage bound.
 * - photo_blobs: the bytes by content hash, shared by identical variants. `data` is null
 *   when the bytes live in S3-compatible storage (the row then records that the object
 *   exists, so an orphan can be found and deleted there too).
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("item_photos")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("itemId", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("private", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("item_photos_item_idx").on("item_photos").columns(["itemId", "position"]).execute();
  await db.schema
    .createTable("photo_variants")
    .addColumn("photoId", "text", (c) => c.notNull().references("item_photos.id").onDelete("cascade"))
    .addColumn("nominal", "integer", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("photo_variants_pk", ["photoId", "nominal"])
    .execute();
  await db.schema.createIndex("photo_variants_hash_idx").on("photo_variants").column("hash").execute();
  await db.schema
    .createTable("photo_blobs")
    .addColumn("hash", "text", (c) => c.primaryKey())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("data", pg ? "bytea" : "blob")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("photo_blobs").execute();
  await db.schema.dropTable("photo_variants").execute();
  await db.schema.dropTable("item_photos").execute();
}
