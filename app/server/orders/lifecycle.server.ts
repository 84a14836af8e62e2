/**
 * The effects of the subscription lifecycle that several services share (decision 016),
 * each inside the caller's transaction and applied once: a payment's receipt (numbered,
 * VAT computed) and an order's lapse (its items unpaid unless another order covers them,
 * the owner told). Callers forget the returned items' finder pages after the commit.
 */
import { randomUUID } from "node:crypto";
import type { DB } from "../db/db.server";
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import {
  claimLapse,
  insertReceiptOnce,
  listItemsCoveredElsewhere,
  setItemsUnpaid,
  type Receipt,
} from "./billing.repository.server";
import { enqueueLapsedMail } from "./billing.mail.server";
import { announcePaidYearEnding } from "./year-reminders.service.server";
import { upsertOrderDraft } from "../order-draft/order-draft.repository.server";
import { getBuyItemId } from "../order-draft/order-draft.service.server";
import { allAreClaimedStickers } from "../stickers/stickers.repository.server";
import { DAY_MS } from "~/lib/domain/dates";
import { insertShipment, listOrderItemIds, listItemsOfOrder, type Order } from "./orders.repository.server";

/**
 * How long items stay active after a renewal payment failed (decision 016): Stripe's Smart
 * Retries try for up to two weeks by default, then cancel the subscription
 * (customer.subscription.deleted lapses the order at once). Without that event the lapse
 * job ends it when this has passed.
 */
export const PAYMENT_RETRY_GRACE_MS = 14 * DAY_MS;

/** The receipt of one payment (`paymentKey` names it); null when it already has one. */
export async function recordReceipt(
  trx: DB,
  order: Order,
  payment: { paymentKey: string; paidAt: number; periodStart: number; periodEnd: number },
): Promise<Receipt | null> {
  const items = (await listItemsOfOrder(trx, order.id)).map((i) => ({ name: i.name }));
  return insertReceiptOnce(trx, {
    id: randomUUID(),
    orderId: order.id,
    userId: order.userId,
    paymentKey: payment.paymentKey,
    items,
    period: order.period,
    currency: order.currency,
    count: order.count,
    packageAmount: order.packageAmount,
    discountAmount: order.discountAmount,
    totalAmount: order.totalAmount,
    vatAmount: order.vatAmount,
    reverseCharge: order.reverseCharge,
    periodStart: payment.periodStart,
    periodEnd: payment.periodEnd,
    paidAt: payment.paidAt,
  });
}

/**
 * The subscription is over: the order's items stop being paid (unless another active order
 * covers them), and the owner gets one mail with a link to /order. Returns the items made
 * unpaid (forget their finder pages after the commit), or null when it had lapsed already.
 */
export async function lapseOrder(
  trx: DB,
  deps: Pick<Deps, "config" | "clock" | "events">,
  order: Order,
  endedAt: number,
  now: number,
  /** The lapse job: only while still due in the database (a payment may have come since it read the order). */
  onlyIfDue = false,
): Promise<string[] | null> {
  const ifDue = onlyIfDue ? { invoiceDueBy: now - PAYMENT_RETRY_GRACE_MS } : undefined;
  if (!(await claimLapse(trx, order.id, now, ifDue))) return null;
  const ids = await listOrderItemIds(trx, order.id);
  const covered = await listItemsCoveredElsewhere(trx, ids, order.id, now);
  const unpaid = ids.filter((id) => !covered.has(id));
  await setItemsUnpaid(trx, unpaid, Math.min(endedAt, now), now);
  // A year paid at once (decision 056): its own mail, and none once renewed (nothing ended).
  if (order.paymentKind === "subscription") await enqueueLapsedMail(trx, deps.config, order, now);
  else if (unpaid.length > 0) {
    // The owner's mail (orders' mailOfPaidYear), the payer's SMS and push as they chose for
    // "renewal" (alerts' alertOfPaidYear): both hear of it in this transaction.
    await announcePaidYearEnding(trx, deps, order, { kind: "ended", endsAt: endedAt, itemCount: unpaid.length, now });
  }
  logger.info({ order: order.id, items: unpaid.length }, "subscription lapsed: items unpaid, owner told");
  return unpaid;
}

/**
 * Whether a paid order whose paidUntil has passed is over (the lapse job): cancelled ones
 * at their end; a failed renewal after the retry grace; a test-provider order at once (no
 * one renews it but staff); a Stripe order that renews gets the same grace for a late
 * invoice.paid before it is given up.
 */
export function lapseDue(
  order: Pick<Order, "provider" | "renewing" | "paidUntil" | "endsAt" | "paymentFailedAt" | "status" | "dueAt">,
  now: number,
): boolean {
  // An unpaid invoice (decision 027): its stickers stop the grace after its due date.
  if (order.status === "invoiced") return order.dueAt != null && order.dueAt + PAYMENT_RETRY_GRACE_MS <= now;
  const paidUntil = order.paidUntil ?? 0;
  if (paidUntil > now) return false;
  if (order.paymentFailedAt != null) return order.paymentFailedAt + PAYMENT_RETRY_GRACE_MS <= now;
  if (!order.renewing) return Math.max(order.endsAt ?? 0, paidUntil) <= now;
  if (order.provider === "test") return true;
  return paidUntil + PAYMENT_RETRY_GRACE_MS <= now;
}

/**
 * An order's stickers go to the post once (decision 015): its first payment, or an invoice
 * when it is sent (decision 027), queues the order's one shipment to its address, and the
 * pay-now item of the orderer's draft is forgotten when the order covers it.
 */
/**
 * An invoiced order's stickers go to the post once its invoice is paid or staff release
 * them (decision 028). One conditional update claims the release, so a payment and a
 * release at once queue one shipment. True when this call queued it.
 */
export async function releaseInvoiceShipment(trx: DB, order: Pick<Order, "id" | "userId" | "address">, now: number) {
  const claimed = await trx
    .updateTable("orders")
    .set({ shipmentReleasedAt: now })
    .where("id", "=", order.id)
    .where("method", "=", "invoice")
    .where("shipmentReleasedAt", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  await queueFirstShipment(trx, order, await listOrderItemIds(trx, order.id), now);
  return true;
}

export async function queueFirstShipment(
  trx: DB,
  order: Pick<Order, "id" | "userId" | "address">,
  itemIds: readonly string[],
  now: number,
): Promise<void> {
  // Items claimed from printed stickers already wear theirs (decision 036): nothing to post.
  if (await allAreClaimedStickers(trx, itemIds)) return forgetPayNowItem(trx, order.userId, itemIds, now);
  await insertShipment(trx, {
    id: randomUUID(),
    orderId: order.id,
    userId: order.userId,
    address: order.address,
    createdAt: now,
  });
  await forgetPayNowItem(trx, order.userId, itemIds, now);
}

/** The orderer's remembered pay-now item is forgotten once an order covers it. */
export async function forgetPayNowItem(trx: DB, userId: string, itemIds: readonly string[], now: number) {
  const buy = await getBuyItemId({ db: trx }, userId);
  if (buy && itemIds.includes(buy)) await upsertOrderDraft(trx, userId, { buy: null }, now);
}
