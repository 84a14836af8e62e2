import type { Kysely } from "kysely";

/**
 * The server-side stand-in for the spec's local-storage keys 'adress' and 'buy': per
 * user, the address kept for the next order and the item being bought (pay-now). The
 * /order page reads it. One row per user, replaced on each pay-now / address submit.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("order_drafts")
    .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    // JSON of the spec's Address entity, or null
    .addColumn("adress", "text")
    // products.id of the item being bought, or null
    .addColumn("buy", "text")
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("order_drafts").execute();
}
