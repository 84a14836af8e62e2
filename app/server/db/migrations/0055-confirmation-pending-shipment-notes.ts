import type { Kysely } from "kysely";

/**
 * Decision 051, expand only:
 * - `orders.confirmationPendingAt`: a paid order whose receipt and order confirmation (with
 *   the withdrawal form) could not be mailed, the account's address not being verified yet;
 *   they go out when it is, and the column is emptied by the conditional update that sends them.
 * - `sticker_shipments.droppedAt` and `.note`: a shipment that will never be posted (the
 *   account was deleted), out of the "to ship" queue, with why.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("confirmationPendingAt", "bigint").execute();
  await db.schema.alterTable("sticker_shipments").addColumn("droppedAt", "bigint").execute();
  await db.schema.alterTable("sticker_shipments").addColumn("note", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sticker_shipments").dropColumn("note").execute();
  await db.schema.alterTable("sticker_shipments").dropColumn("droppedAt").execute();
  await db.schema.alterTable("orders").dropColumn("confirmationPendingAt").execute();
}
