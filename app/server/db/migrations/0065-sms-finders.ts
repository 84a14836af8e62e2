import type { Kysely } from "kysely";

/**
 * Finders who only have SMS (decision 055):
 * - `conversations.finderPhone`: the number a finder texted from (E.164), only on a
 *   conversation opened by SMS; personal data kept with its conversation and deleted with
 *   it. Never shown to the owner's side. `smsRef`: the short reference ("#4821") the
 *   owner's alert SMS carries, so an owner can answer by SMS.
 * - `elks_incoming`: 46elks' id of each incoming SMS handled, so a resent webhook is
 *   answered with the same reply and stores nothing twice; no number, no text (the reply
 *   kept is Hittad's own words). Deleted a week after (46elks resends for hours).
 * Expand-only. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("conversations").addColumn("finderPhone", "text").execute();
  await db.schema.alterTable("conversations").addColumn("smsRef", "text").execute();
  await db.schema
    .createIndex("conversations_finder_phone_idx")
    .on("conversations")
    .columns(["finderPhone", "lastMessageAt"])
    .execute();
  await db.schema
    .createTable("elks_incoming")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("receivedAt", "bigint", (c) => c.notNull())
    .addColumn("reply", "text")
    .execute();
  await db.schema.createIndex("elks_incoming_received_idx").on("elks_incoming").column("receivedAt").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("elks_incoming").execute();
  await db.schema.dropIndex("conversations_finder_phone_idx").execute();
  await db.schema.alterTable("conversations").dropColumn("smsRef").execute();
  await db.schema.alterTable("conversations").dropColumn("finderPhone").execute();
}
