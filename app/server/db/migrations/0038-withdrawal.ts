import type { Kysely } from "kysely";

/**
 * Decision 041 (right of withdrawal): on the order, when the consumer
 * asked for the service to start at once (the checkbox of the checkout; null: not asked,
 * or a business order), when they withdrew, and the refund that went back through the
 * payment provider (amount in minor units, when, the provider's refund id). Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const [column, type] of [
    ["immediateStartAt", "bigint"],
    ["withdrawnAt", "bigint"],
    ["refundAmount", "integer"],
    ["refundedAt", "bigint"],
    ["refundId", "text"],
  ] as const) {
    await db.schema.alterTable("orders").addColumn(column, type).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["refundId", "refundedAt", "refundAmount", "withdrawnAt", "immediateStartAt"]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
}
