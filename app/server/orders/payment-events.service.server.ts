/**
 * Payment events (decisions 012 and 016): applying a payment (the one function both the Stripe
 * webhook and the test checkout call) and the provider ending a subscription, each event
 * applied once (claimEvent). No HTTP here (decision 011).
 */
import { isItemPaid } from "~/lib/domain/paid";
import { minimumTermEnd, periodEnd } from "~/lib/domain/pricing";
import { aheadEnds, prepaidEnds } from "./order-ahead.server";
import type { DB } from "../db/db.server";
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import {
  findOrder,
  findOrderBySubscription,
  listOrderItemIds,
  listOrderItemsForPayment,
  recordPaymentEvent,
  setItemPaid,
  updateOrder,
  type Order,
} from "./orders.repository.server";
import { enqueueReceiptMail } from "./receipt.mail.server";
import { enqueueRenewalReceiptMail } from "./billing.mail.server";
import { lapseOrder, queueFirstShipment, recordReceipt, releaseInvoiceShipment } from "./lifecycle.server";

export type PaymentResult = "applied" | "duplicate" | "unknownOrder" | "ignored" | "alreadyCovered";

export interface PaymentInput {
  /** The provider event's id (Stripe: evt_…; test checkout: test:<orderId>): applied once. */
  eventId: string;
  eventType: string;
  orderId: string | null;
  subscriptionId?: string | null;
  customerId?: string | null;
  /** When the payment was made (epoch ms). */
  paidAt: number;
  /** End of the period this payment covers; default: one period after paidAt. */
  periodEnd?: number | null;
  /** What was paid, checked against the order (minor units, ISO currency). */
  amount?: { total: number; currency: string } | null;
  /**
   * Which payment this is, for its receipt (decision 016): `first` is the checkout's payment
   * (Stripe also sends it as the subscription's first invoice: one receipt for both);
   * otherwise a renewal, one receipt per `paymentId` (the invoice id; default the event id).
   */
  kind?: "first" | "renewal";
  paymentId?: string | null;
  /** Start of the period a renewal covers (default: the order's paidUntil before it). */
  periodStart?: number | null;
}

/**
 * Finds the event's order (by id, else by subscription) and records the event id; `fresh`
 * is false when that id was applied before (a replay), so each event counts once.
 */
export async function claimEvent(
  deps: Pick<Deps, "db">,
  input: { eventId: string; eventType: string; orderId?: string | null; subscriptionId?: string | null },
  now: number,
): Promise<{ order: Order | undefined; fresh: boolean }> {
  const { db: trx } = deps;
  let order = input.orderId ? await findOrder(trx, input.orderId) : undefined;
  if (!order && input.subscriptionId) order = await findOrderBySubscription(trx, input.subscriptionId);
  const fresh = await recordPaymentEvent(trx, {
    id: input.eventId,
    type: input.eventType,
    orderId: order?.id ?? null,
    receivedAt: now,
  });
  return { order, fresh };
}

/**
 * A payment arrived: the first makes the order paid (items payed, paidUntil = end of the
 * first period, a sticker shipment, a receipt, `orderPaid` for its mail); later ones (renewals) extend
 * paidUntil. Order does not matter: paidUntil only grows, the first-payment effects
 * happen once, and each event id is applied once (replays change nothing).
 *
 * A first payment for an order whose items are all already covered by another paid order
 * (two checkouts for one item) activates nothing: the order is marked `duplicate` and the
 * provider's subscription is cancelled (decision 012).
 */
export async function applyPayment(
  deps: Pick<Deps, "db" | "config" | "payments" | "clock" | "events">,
  input: PaymentInput,
): Promise<PaymentResult> {
  const touched: string[] = [];
  let duplicateOf: Order | null = null;
  const now = deps.clock();
  const result = await deps.db.transaction().execute(async (trx): Promise<PaymentResult> => {
    const { order, fresh } = await claimEvent({ db: trx }, input, now);
    if (!fresh) return "duplicate";
    if (!order) {
      logger.warn({ event: input.eventId, type: input.eventType }, "payment for an unknown order ignored");
      return "unknownOrder";
    }
    if (order.status === "duplicate") return "alreadyCovered";
    // A withdrawn order (decision 041) was refunded and its subscription ended: nothing revives it.
    if (order.withdrawnAt != null) {
      logger.error({ event: input.eventId, order: order.id }, "payment for a withdrawn order: not applied");
      return "ignored";
    }
    if (
      input.amount &&
      (input.amount.total !== order.totalAmount || input.amount.currency.toUpperCase() !== order.currency)
    ) {
      logger.error(
        {
          event: input.eventId,
          order: order.id,
          paid: input.amount,
          expected: { total: order.totalAmount, currency: order.currency },
        },
        "payment amount does not match the order: not applied",
      );
      return "ignored";
    }
    const first = order.status !== "paid";
    // An invoice order's items were activated and its stickers sent when the invoice was
    // (decision 027): its payment only settles it.
    // So was one voided or written off (uncollectible) and paid after all: it is settled the
    // same way (its items revived, no second shipment, the period from its issue).
    const invoiced =
      order.status === "invoiced" ||
      (order.method === "invoice" && order.status === "cancelled" && order.voidedAt != null);
    const itemIds = await listOrderItemIds(trx, order.id);
    const items = await listOrderItemsForPayment(trx, itemIds);
    // An item of an unpaid order was deleted since its checkout started (decision 017): the
    // payment covers an item that is gone, so nothing is activated and the subscription
    // is cancelled, as for a duplicate payment; staff decide on the refund.
    const itemsGone = first && itemIds.length < order.count;
    // Items prepaid with their sticker and ordered ahead (decision 036) are paid by no
    // order: not a duplicate, and the first period starts at their prepaid end.
    // So are the items of a renewal of a year paid at once (decision 056): its year starts at their end.
    const ahead = first && !invoiced ? await aheadEnds(trx, order, items, now) : new Map<string, number>();
    const coveredByOrders = items.every((p) => isItemPaid(p, now) && !ahead.has(p.id));
    if (!invoiced && (itemsGone || (first && items.length > 0 && coveredByOrders))) {
      duplicateOf = await markDuplicate(trx, order, input, now);
      logger.error(
        { event: input.eventId, order: order.id },
        itemsGone
          ? "payment for an order with deleted items: not applied"
          : "payment for items already paid: not applied",
      );
      return "alreadyCovered";
    }
    const period = order.period;
    const paidAt = order.paidAt ?? input.paidAt;
    const start = Math.max(input.paidAt, ...ahead.values());
    // An invoice covers the period from its issue, set then.
    const covers = invoiced
      ? (order.paidUntil ?? periodEnd(order.createdAt, period))
      : (input.periodEnd ?? periodEnd(start, period));
    const paidUntil = Math.max(order.paidUntil ?? 0, covers);
    // A payment that moves paidUntil on settles an earlier failed one (and revives a lapse);
    // so does paying an invoice (its items were deactivated when it was long overdue).
    const extends_ = paidUntil > (order.paidUntil ?? 0) || invoiced;
    const revived = extends_ && order.lapsedAt != null && paidUntil > now;
    await updateOrder(trx, order.id, {
      status: "paid",
      paidAt,
      paidUntil,
      minimumUntil: order.minimumUntil ?? minimumTermEnd(ahead.size > 0 ? start : paidAt),
      // A subscription that already ended (events out of order) does not renew; an invoice never does.
      // Neither does a year paid at once (decision 056): the owner renews it.
      renewing:
        order.method === "invoice" || order.paymentKind !== "subscription"
          ? false
          : first || revived
            ? order.endsAt == null
            : order.renewing,
      ...(extends_ ? { paymentFailedAt: null } : {}),
      ...(revived ? { lapsedAt: null } : {}),
      subscriptionId: order.subscriptionId ?? input.subscriptionId ?? null,
      customerId: order.customerId ?? input.customerId ?? null,
      updatedAt: now,
    });
    // A lapsed order's items stay unpaid unless this payment pays a period beyond it.
    const activates = order.lapsedAt == null || revived;
    for (const p of activates ? items : []) {
      await setItemPaid(trx, p.id, { paidUntil: laterEnd(p, paidUntil), payment: period, updatedAt: now });
      touched.push(p.id);
    }
    if (first && !invoiced) {
      await queueFirstShipment(trx, order, itemIds, now);
    }
    // An invoice's stickers ship once it is paid (decision 028), unless staff released them.
    if (first && invoiced) await releaseInvoiceShipment(trx, order, now);
    const firstPayment = first || input.kind === "first";
    const receipt = await recordReceipt(trx, order, {
      paymentKey: firstPayment ? `first:${order.id}` : `renewal:${input.paymentId ?? input.eventId}`,
      paidAt: input.paidAt,
      periodStart: invoiced
        ? order.createdAt
        : firstPayment
          ? ahead.size > 0
            ? start
            : paidAt
          : (input.periodStart ?? order.paidUntil ?? input.paidAt),
      periodEnd: covers,
    });
    if (!first && receipt) {
      const paidOrder: Order = { ...order, paidAt, paidUntil, status: "paid" };
      await enqueueRenewalReceiptMail(trx, deps.config, paidOrder, receipt, now);
    }
    // The one place an order becomes paid, whichever way it was paid (decision 053): its
    // receipt mail (the orders' receiptOfOrderPaid) and the organisation's webhooks hear it
    // in this transaction, so a retried event (a replay, above) queues neither again.
    if (first)
      await deps.events.emit(
        "orderPaid",
        { orderId: order.id, organisationId: order.organisationId, at: now, receiptNumber: receipt?.number ?? null },
        { ...deps, db: trx },
      );
    return "applied";
  });
  await afterPaymentCommit(deps, touched, duplicateOf);
  return result;
}

/**
 * Stripe's checkout for an order placed ahead completed without a payment (decision 036:
 * `no_payment_required`, the subscription on trial until `order.startsAt`). The order is
 * paid up to its start, so the abandoned-order job leaves it and no other order takes its
 * items; the items stay active (prepaid) until then; the owner's mail says when the first
 * charge is. Stripe's first real invoice at the trial end is then an ordinary renewal of
 * applyPayment: it extends paidUntil by the period. No receipt: nothing was paid.
 */
export async function startOrderAhead(
  deps: Pick<Deps, "db" | "config" | "payments" | "clock" | "events">,
  input: {
    eventId: string;
    eventType: string;
    orderId: string | null;
    subscriptionId: string | null;
    customerId: string | null;
  },
): Promise<PaymentResult> {
  const touched: string[] = [];
  let duplicateOf: Order | null = null;
  const now = deps.clock();
  const result = await deps.db.transaction().execute(async (trx): Promise<PaymentResult> => {
    const { order, fresh } = await claimEvent({ db: trx }, input, now);
    if (!fresh) return "duplicate";
    if (!order) return "unknownOrder";
    if (order.status !== "pending" || order.withdrawnAt != null) return "ignored";
    const startsAt = order.startsAt;
    if (startsAt == null) {
      logger.error(
        { event: input.eventId, order: order.id },
        "a checkout without payment for an order not placed ahead",
      );
      return "ignored";
    }
    const itemIds = await listOrderItemIds(trx, order.id);
    const items = await listOrderItemsForPayment(trx, itemIds);
    const subscriptionId = order.subscriptionId ?? input.subscriptionId;
    // Another order took these items meanwhile (two checkouts): as a duplicate payment, its
    // subscription is cancelled before its trial ends, so nothing is ever charged.
    const ahead = await prepaidEnds(trx, items, now, order.id);
    if (itemIds.length < order.count || ahead.size < items.length) {
      duplicateOf = await markDuplicate(trx, order, input, now);
      return "alreadyCovered";
    }
    const paidOrder: Order = {
      ...order,
      status: "paid",
      // The contract: the 14 days of withdrawal run from it (decision 041).
      paidAt: now,
      paidUntil: startsAt,
      subscriptionId,
      customerId: order.customerId ?? input.customerId,
    };
    await updateOrder(trx, order.id, {
      status: "paid",
      paidAt: now,
      paidUntil: startsAt,
      minimumUntil: minimumTermEnd(startsAt),
      renewing: order.endsAt == null,
      subscriptionId,
      customerId: paidOrder.customerId,
      updatedAt: now,
    });
    // Active until the first charge (at most two days past the prepaid end, stripeFirstChargeAt).
    for (const p of items) {
      await setItemPaid(trx, p.id, { paidUntil: laterEnd(p, startsAt), payment: order.period, updatedAt: now });
      touched.push(p.id);
    }
    await queueFirstShipment(trx, order, itemIds, now);
    await enqueueReceiptMail(trx, deps.config, paidOrder, null, now);
    return "applied";
  });
  await afterPaymentCommit(deps, touched, duplicateOf);
  return result;
}

/**
 * A payment for items another order already covers (or for items since deleted): the order
 * is recorded as a duplicate; returns it as the provider knows it, so that its subscription
 * is cancelled after the commit (afterPaymentCommit).
 */
async function markDuplicate(
  trx: DB,
  order: Order,
  input: { subscriptionId?: string | null; customerId?: string | null },
  now: number,
): Promise<Order> {
  const subscriptionId = order.subscriptionId ?? input.subscriptionId ?? null;
  await updateOrder(trx, order.id, {
    status: "duplicate",
    subscriptionId,
    customerId: order.customerId ?? input.customerId ?? null,
    updatedAt: now,
  });
  return { ...order, subscriptionId };
}

/**
 * After a payment's commit: the touched items' cached finder pages forgotten (forgotten
 * earlier, a finder's visit could store the old page again; docs/decisions/009-performance.md),
 * and a duplicate's subscription cancelled at the provider.
 */
async function afterPaymentCommit(
  deps: Pick<Deps, "db" | "clock" | "payments" | "events">,
  touched: string[],
  duplicate: Order | null,
): Promise<void> {
  await deps.events.emit("itemsChanged", { itemIds: touched }, deps);
  if (!duplicate) return;
  try {
    await deps.payments.cancelDuplicate(duplicate);
  } catch (err) {
    logger.error({ err, order: duplicate.id }, "cancelling the duplicate subscription failed: cancel it by hand");
  }
}

/** An item's new end: never earlier than it was; paid with no end (set by hand) stays without end. */
export function laterEnd(p: { payed: boolean; paidUntil: number | null }, until: number): number | null {
  if (p.payed && p.paidUntil == null) return null;
  return Math.max(p.payed ? (p.paidUntil ?? 0) : 0, until);
}

/**
 * The provider ended the subscription: no more renewals. Cancelled by the owner, the items
 * stay active until paidUntil (the lapse job tells the owner then); ended because renewal
 * payments kept failing (decision 016), the order lapses now: items unpaid everywhere, the
 * finder pages forgotten, the owner told.
 */
export async function endSubscription(
  deps: Pick<Deps, "db" | "config" | "clock" | "events">,
  input: { eventId: string; eventType: string; orderId: string | null; subscriptionId: string | null; endedAt: number },
): Promise<PaymentResult> {
  const now = deps.clock();
  let touched: string[] = [];
  const result = await deps.db.transaction().execute(async (trx) => {
    const { order, fresh } = await claimEvent({ db: trx }, input, now);
    if (!fresh) return "duplicate";
    if (!order) return "unknownOrder";
    const ended: Order = {
      ...order,
      renewing: false,
      endsAt: order.endsAt ?? input.endedAt,
      subscriptionId: order.subscriptionId ?? input.subscriptionId,
    };
    await updateOrder(trx, order.id, {
      renewing: false,
      endsAt: ended.endsAt,
      subscriptionId: ended.subscriptionId,
      updatedAt: now,
    });
    const unpaid = order.status === "paid" && order.paymentFailedAt != null;
    if (unpaid || (order.status === "paid" && (order.paidUntil ?? 0) <= now)) {
      touched = (await lapseOrder(trx, deps, ended, input.endedAt, now)) ?? [];
    }
    return "applied";
  });
  await deps.events.emit("itemsChanged", { itemIds: touched }, deps);
  return result;
}
