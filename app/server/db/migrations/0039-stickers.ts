import type { Kysely } from "kysely";

/**
 * Claimable stickers (docs/decisions/036-claimable-stickers.md).
 * - sticker_batches: what staff printed at once: a label, how many, prepaid for 6 or 12
 *   months or not, who made it (set null with their account), voided or not.
 * - stickers: one printed sticker with no owner yet: its id (the QR's /{id}) and typeable
 *   code share one namespace with products and retired stickers; claimedAt/productId once
 *   it became an item (which then carries the same id and code); voidedAt for lost stock.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sticker_batches")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("prepaidMonths", "integer")
    .addColumn("createdBy", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("voidedAt", "bigint")
    .execute();
  await db.schema.createIndex("sticker_batches_created_idx").on("sticker_batches").column("createdAt").execute();

  await db.schema
    .createTable("stickers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("batchId", "text", (c) => c.notNull().references("sticker_batches.id"))
    .addColumn("voidedAt", "bigint")
    .addColumn("claimedAt", "bigint")
    .addColumn("productId", "text")
    .execute();
  await db.schema.createIndex("stickers_batch_idx").on("stickers").columns(["batchId", "id"]).execute();
  await db.schema.createIndex("stickers_product_idx").on("stickers").column("productId").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("stickers").execute();
  await db.schema.dropTable("sticker_batches").execute();
}
