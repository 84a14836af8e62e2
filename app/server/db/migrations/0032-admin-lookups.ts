import type { Kysely } from "kysely";

/**
 * docs/decisions/030-lawful-to-sell.md: the log of staff look-ups at
 * /admin/lookup. Each row says who looked (the staff account and its email at the time),
 * when, what was typed and which item it found (null: nothing). No foreign keys: the log
 * must outlive a deleted item or staff account until housekeeping deletes it
 * (RETENTION_MS.lookups in app/lib/domain/retention.ts). Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("admin_lookups")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("staffId", "text", (c) => c.notNull())
    .addColumn("staffEmail", "text", (c) => c.notNull())
    .addColumn("query", "text", (c) => c.notNull())
    .addColumn("productId", "text")
    .addColumn("lookedUpAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("admin_lookups_at_idx").on("admin_lookups").column("lookedUpAt").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("admin_lookups").execute();
}
