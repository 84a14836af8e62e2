import type { Kysely } from "kysely";

/**
 * Hittelön and returns (docs/decisions/019-hittelon-and-lapsed-relay.md).
 * Frozen once landed.
 *
 * - products.approxValue: the owner's approximate value of the item (whole units of the
 *   item's currency; null = not given). Private to the owner: it only feeds the fee
 *   suggestion, never the finder page.
 * - conversations.returnedAt / returnedFee / returnedCurrency: the owner confirmed "I have
 *   my item back" in this conversation, with the finder's fee agreed at that moment
 *   (epoch ms, decision 004; null = not confirmed).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("products").addColumn("approxValue", "bigint").execute();
  await db.schema.alterTable("conversations").addColumn("returnedAt", "bigint").execute();
  await db.schema.alterTable("conversations").addColumn("returnedFee", "bigint").execute();
  await db.schema.alterTable("conversations").addColumn("returnedCurrency", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("conversations").dropColumn("returnedCurrency").execute();
  await db.schema.alterTable("conversations").dropColumn("returnedFee").execute();
  await db.schema.alterTable("conversations").dropColumn("returnedAt").execute();
  await db.schema.alterTable("products").dropColumn("approxValue").execute();
}
