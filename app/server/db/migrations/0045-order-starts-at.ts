import type { Kysely } from "kysely";

/**
 * Decision 036 (ordering ahead): when an order's first period starts, for an order placed
 * ahead for items prepaid with their stickers (null: at payment). With Stripe the
 * subscription's trial ends then, and nothing is charged before it; a withdrawal before it
 * (decision 041) refunds everything paid. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("startsAt", "bigint").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("startsAt").execute();
}
