import type { Kysely } from "kysely";

/**
 * docs/decisions/029-limits-and-relay-flood.md: while finder messages
 * flood an item, its owners get one digest mail per quarter hour instead of a mail per
 * message. One row per item in such a burst: the messages not mailed yet and when the
 * last digest went out. Holds no personal data (an item id, counts and times); deleted
 * with the item, and by the digest job a quarter hour after the burst's last digest.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("relay_digests")
    .addColumn("itemId", "text", (c) => c.primaryKey().references("products.id").onDelete("cascade"))
    // Finder messages stored since the last digest, not mailed one by one.
    .addColumn("pending", "integer", (c) => c.notNull().defaultTo(0))
    // When the last digest was mailed (null: none yet in this burst).
    .addColumn("lastSentAt", "bigint")
    // How many messages the last digest reported.
    .addColumn("lastCount", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("relay_digests_due_idx").on("relay_digests").columns(["pending", "lastSentAt"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("relay_digests").execute();
}
