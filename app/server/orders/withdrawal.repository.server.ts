/** SQL of the consumer's withdrawal (decision 041). One query per function. */
import type { DB } from "../db/db.server";
import { num, toOrder, type Order } from "./orders.repository.server";

/**
 * Claims the withdrawal: one conditional update, so a double submit, a second tab or two
 * app instances at once withdraw (and refund) once. False: already withdrawn, or no longer
 * a paid order inside its 14 days.
 */
export async function claimWithdrawal(db: DB, orderId: string, now: number, paidAfter: number): Promise<boolean> {
  const r = await db
    .updateTable("orders")
    .set({ withdrawnAt: now, updatedAt: now })
    .where("id", "=", orderId)
    .where("withdrawnAt", "is", null)
    .where("status", "=", "paid")
    .where("paidAt", ">", paidAfter)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The provider refused: the claim is given back (only this claim's), so the owner can try again. */
export async function releaseWithdrawal(db: DB, orderId: string, claimedAt: number): Promise<void> {
  await db
    .updateTable("orders")
    .set({ withdrawnAt: null })
    .where("id", "=", orderId)
    .where("withdrawnAt", "=", claimedAt)
    .where("refundedAt", "is", null)
    .execute();
}

/** The refund as the provider made it; the subscription ended now (items stop with it). */
export async function recordRefund(
  db: DB,
  orderId: string,
  /** refundId null: nothing was paid, nothing refunded (a Stripe order placed ahead, decision 036). */
  refund: { amount: number; refundId: string | null; now: number },
): Promise<void> {
  await db
    .updateTable("orders")
    .set({
      refundAmount: refund.amount,
      refundId: refund.refundId,
      refundedAt: refund.now,
      paidUntil: refund.now,
      endsAt: refund.now,
      renewing: 0,
      updatedAt: refund.now,
    })
    .where("id", "=", orderId)
    .execute();
}

/**
 * Items of an order placed ahead withdrawn before its start (decision 036) are still
 * prepaid until then: active, as before the order.
 */
export async function setItemsPrepaidUntil(db: DB, ids: string[], until: number, now: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("products").set({ payed: 1, paidUntil: until, updatedAt: now }).where("id", "in", ids).execute();
}

/** The order's sticker shipment: whether and when it was posted (null: none). */
export async function findShipmentOfOrder(
  db: DB,
  orderId: string,
): Promise<{ status: "pending" | "shipped"; shippedAt: number | null } | null> {
  const row = await db
    .selectFrom("sticker_shipments")
    .select(["status", "shippedAt"])
    .where("orderId", "=", orderId)
    .executeTakeFirst();
  if (!row) return null;
  return { status: row.status === "shipped" ? "shipped" : "pending", shippedAt: num(row.shippedAt) };
}

/**
 * A shipment not posted yet is not posted at all (staff's queue no longer lists it). True
 * when it was removed; false when there was none or staff had posted it already.
 */
export async function dropPendingShipment(db: DB, orderId: string): Promise<boolean> {
  const r = await db
    .deleteFrom("sticker_shipments")
    .where("orderId", "=", orderId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/**
 * The user's consumer orders still inside their 14 days (decision 051: the delete page
 * offers their withdrawal first): personal card orders, paid after `paidAfter`, not withdrawn.
 */
export async function listWithdrawableOrdersOfUser(db: DB, userId: string, paidAfter: number): Promise<Order[]> {
  const rows = await db
    .selectFrom("orders")
    .selectAll()
    .where("userId", "=", userId)
    .where("organisationId", "is", null)
    .where("method", "=", "card")
    .where("status", "=", "paid")
    .where("withdrawnAt", "is", null)
    .where("paidAt", ">", paidAfter)
    .orderBy("paidAt")
    .execute();
  return rows.map(toOrder);
}
