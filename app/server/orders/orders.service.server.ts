/**
 * Order rules (issue #6): creating an order from the owner's selection (totals always
 * recomputed here), applying payments (the one function both the Stripe webhook and the
 * test checkout call), cancelling renewal with the 6-month minimum term, and the status
 * each item shows. No HTTP here.
 */
import { randomUUID } from "node:crypto";
import type { Lang } from "~/i18n/config";
import { parseStoredAddress, type Address } from "~/lib/address";
import type { OrderFormError } from "~/lib/order-form";
import { cancelledSubscriptionEnd, minimumTermEnd, orderTotals, periodEnd, type Period } from "~/lib/pricing";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { forgetItemPages } from "../items/item-page-cache.server";
import { isItemPaid } from "../items/items.service.server";
import { listProductsOfOwner } from "../items/items.repository.server";
import { logger } from "../logger.server";
import { getBuyProductId, getOrderAddress } from "../order-draft/order-draft.service.server";
import { upsertOrderDraft } from "../order-draft/order-draft.repository.server";
import {
  findOrder,
  findOrderBySubscription,
  findOrderOfUser,
  insertOrder,
  insertShipment,
  listOrderProductIds,
  listOrderProducts,
  listPaidOrderItemsOfUser,
  listProductsForPayment,
  recordPaymentEvent,
  setProductPaid,
  updateOrder,
  type OrderRow,
} from "./orders.repository.server";
import { enqueueReceiptMail } from "./receipt.mail.server";

export type Provider = "test" | "stripe";

export class OrderError extends Error {
  override name = "OrderError";
  constructor(
    readonly code: OrderFormError,
    readonly status: number,
  ) {
    super(code);
  }
}

/** An item as the order page shows it. */
export interface OrderPageItem {
  id: string;
  name: string;
  prodType: string;
  findFee: number;
  currency: "SEK" | "EUR";
  paid: boolean;
  /** Paid items: until when (null = no end recorded). */
  paidUntil: number | null;
}

export interface OrderPage {
  items: OrderPageItem[];
  /** Unpaid items start selected (the remembered 'buy' item is one of them). */
  preselected: string[];
  /** The remembered pay-now item, if it is still unpaid. */
  buy: string | null;
  address: Address | null;
}

export async function getOrderPage(db: DB, userId: string, now = Date.now()): Promise<OrderPage> {
  const [rows, buy, address] = await Promise.all([
    listProductsOfOwner(db, userId),
    getBuyProductId(db, userId),
    getOrderAddress(db, userId),
  ]);
  const items = rows.map((r) => {
    const paid = isItemPaid(r, now);
    return {
      id: r.id,
      name: r.name,
      prodType: r.prodType,
      findFee: Number(r.findFee),
      currency: r.currency === "SEK" ? ("SEK" as const) : ("EUR" as const),
      paid,
      paidUntil: paid ? r.paidUntil : null,
    };
  });
  const preselected = items.filter((i) => !i.paid).map((i) => i.id);
  return { items, preselected, buy: buy && preselected.includes(buy) ? buy : null, address };
}

/**
 * A pending order for the owner's selected, unpaid items. Every id must be the owner's
 * (otherwise nothing is created: the answer does not tell whose the others are).
 */
export async function createOrder(
  db: DB,
  input: { userId: string; productIds: string[]; period: Period; lang: Lang; provider: Provider },
): Promise<OrderRow> {
  const ids = [...new Set(input.productIds)];
  if (ids.length === 0) throw new OrderError("orders.errors.nothingSelected", 400);
  const rows = await listProductsForPayment(db, input.userId, ids);
  if (rows.length !== ids.length) throw new OrderError("orders.errors.unknownItems", 400);
  const now = Date.now();
  if (rows.some((r) => isItemPaid(r, now))) throw new OrderError("orders.errors.alreadyPaid", 400);
  const address = await getOrderAddress(db, input.userId);
  if (!address?.email.trim()) throw new OrderError("orders.errors.noAddress", 400);
  const totals = orderTotals({ lang: input.lang, period: input.period, count: ids.length });
  const row = {
    id: randomUUID(),
    userId: input.userId,
    provider: input.provider,
    status: "pending",
    period: input.period,
    lang: input.lang,
    currency: totals.currency,
    count: ids.length,
    unitAmount: totals.minor.unitPrice,
    packageAmount: totals.minor.packagePrice,
    discountAmount: totals.minor.discount,
    totalAmount: totals.minor.total,
    adress: JSON.stringify(address),
    checkoutId: null,
    subscriptionId: null,
    customerId: null,
    paidAt: null,
    paidUntil: null,
    minimumUntil: null,
    renewing: 0,
    endsAt: null,
    cancelledAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await insertOrder(db, row, ids);
  return row;
}

export async function getOwnOrder(db: DB, userId: string, orderId: string): Promise<OrderRow | null> {
  return (await findOrderOfUser(db, userId, orderId)) ?? null;
}

export function setCheckoutId(db: DB, orderId: string, checkoutId: string) {
  return updateOrder(db, orderId, { checkoutId, updatedAt: Date.now() });
}

export type PaymentResult = "applied" | "duplicate" | "unknownOrder" | "ignored";

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
}

/**
 * Finds the event's order (by id, else by subscription) and records the event id; `fresh`
 * is false when that id was applied before (a replay), so each event counts once.
 */
async function claimEvent(
  trx: DB,
  input: { eventId: string; eventType: string; orderId?: string | null; subscriptionId?: string | null },
): Promise<{ order: OrderRow | undefined; fresh: boolean }> {
  let order = input.orderId ? await findOrder(trx, input.orderId) : undefined;
  if (!order && input.subscriptionId) order = await findOrderBySubscription(trx, input.subscriptionId);
  const fresh = await recordPaymentEvent(trx, { id: input.eventId, type: input.eventType, orderId: order?.id ?? null });
  return { order, fresh };
}

/**
 * A payment arrived: the first makes the order paid (items payed, paidUntil = end of the
 * first period, a sticker shipment, a receipt mail); later ones (renewals) extend
 * paidUntil. Order does not matter: paidUntil only grows, the first-payment effects
 * happen once, and each event id is applied once (replays change nothing).
 */
export async function applyPayment(db: DB, config: Config, input: PaymentInput): Promise<PaymentResult> {
  const touched: string[] = [];
  const result = await db.transaction().execute(async (trx): Promise<PaymentResult> => {
    const { order, fresh } = await claimEvent(trx, input);
    if (!fresh) return "duplicate";
    if (!order) {
      logger.warn({ event: input.eventId, type: input.eventType }, "payment for an unknown order ignored");
      return "unknownOrder";
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
    const period: Period = order.period === "month" ? "month" : "year";
    const first = order.status !== "paid";
    const paidAt = order.paidAt ?? input.paidAt;
    const covers = input.periodEnd ?? periodEnd(input.paidAt, period);
    const paidUntil = Math.max(order.paidUntil ?? 0, covers);
    const now = Date.now();
    await updateOrder(trx, order.id, {
      status: "paid",
      paidAt,
      paidUntil,
      minimumUntil: order.minimumUntil ?? minimumTermEnd(paidAt),
      // A subscription that already ended (events out of order) does not renew.
      renewing: first ? (order.endsAt == null ? 1 : 0) : order.renewing,
      subscriptionId: order.subscriptionId ?? input.subscriptionId ?? null,
      customerId: order.customerId ?? input.customerId ?? null,
      updatedAt: now,
    });
    const productIds = await listOrderProductIds(trx, order.id);
    for (const p of await listProductsForPayment(trx, order.userId, productIds)) {
      const current = Number(p.payed) === 1 ? p.paidUntil : 0;
      // payed with no end (set by hand) stays without end.
      const until = Number(p.payed) === 1 && p.paidUntil == null ? null : Math.max(current ?? 0, paidUntil);
      await setProductPaid(trx, p.id, { paidUntil: until, payment: period });
      touched.push(p.id);
    }
    if (first) {
      await insertShipment(trx, {
        id: randomUUID(),
        orderId: order.id,
        userId: order.userId,
        adress: order.adress,
        status: "pending",
        createdAt: now,
        shippedAt: null,
      });
      const buy = await getBuyProductId(trx, order.userId);
      if (buy && productIds.includes(buy)) await upsertOrderDraft(trx, order.userId, { buy: null });
      await enqueueReceiptMail(trx, config, { ...order, paidAt, paidUntil, status: "paid" });
    }
    return "applied";
  });
  // After the commit: forgotten earlier, a finder's visit could store the old page again.
  for (const id of touched) forgetItemPages(id); // docs/decisions/009-performance.md
  return result;
}

/** The provider ended the subscription (cancelled, or unpaid): no more renewals. */
export async function endSubscription(
  db: DB,
  input: { eventId: string; eventType: string; orderId: string | null; subscriptionId: string | null; endedAt: number },
): Promise<PaymentResult> {
  return db.transaction().execute(async (trx) => {
    const { order, fresh } = await claimEvent(trx, input);
    if (!fresh) return "duplicate";
    if (!order) return "unknownOrder";
    await updateOrder(trx, order.id, {
      renewing: 0,
      endsAt: order.endsAt ?? input.endedAt,
      subscriptionId: order.subscriptionId ?? input.subscriptionId,
      updatedAt: Date.now(),
    });
    return "applied";
  });
}

/** What cancelling renewal of a paid order means: when it ends, and whether that is the period end. */
export function cancellationPlan(order: Pick<OrderRow, "paidUntil" | "minimumUntil" | "paidAt">) {
  const paidUntil = order.paidUntil ?? Date.now();
  const minimumUntil = order.minimumUntil ?? minimumTermEnd(order.paidAt ?? Date.now());
  const endsAt = cancelledSubscriptionEnd({ paidUntil, minimumUntil });
  return { endsAt, atPeriodEnd: endsAt === paidUntil };
}

/**
 * The owner cancels renewal. The provider is told first (Stripe: the subscription ends
 * at the 6-month mark or at the end of the paid period), then the order records it.
 */
export async function cancelRenewal(
  db: DB,
  input: { userId: string; orderId: string },
  provider: { cancelRenewal(order: OrderRow, plan: { endsAt: number; atPeriodEnd: boolean }): Promise<void> },
): Promise<{ endsAt: number }> {
  const order = await findOrderOfUser(db, input.userId, input.orderId);
  if (!order || order.status !== "paid") throw new OrderError("orders.errors.notFound", 404);
  if (Number(order.renewing) !== 1) throw new OrderError("orders.errors.notRenewing", 409);
  const plan = cancellationPlan(order);
  try {
    await provider.cancelRenewal(order, plan);
  } catch (err) {
    logger.error({ err, order: order.id }, "cancelling renewal at the payment provider failed");
    throw new OrderError("orders.errors.cancelFailed", 502);
  }
  const now = Date.now();
  const touched: string[] = [];
  await db.transaction().execute(async (trx) => {
    await updateOrder(trx, order.id, { renewing: 0, endsAt: plan.endsAt, cancelledAt: now, updatedAt: now });
    if (order.provider === "test") {
      // The test provider takes no renewals, so the committed months count as paid here;
      // with Stripe, invoice.paid extends paidUntil month by month until the end.
      await updateOrder(trx, order.id, { paidUntil: plan.endsAt });
      for (const id of await listOrderProductIds(trx, order.id)) {
        await setProductPaid(trx, id, { paidUntil: plan.endsAt, payment: order.period });
        touched.push(id);
      }
    }
  });
  for (const id of touched) forgetItemPages(id);
  return { endsAt: plan.endsAt };
}

/** What the dashboard shows about an item's subscription. */
export interface ItemSubscription {
  orderId: string;
  /** Renews at paidUntil (true) or ends at endsAt (false). */
  renewing: boolean;
  paidUntil: number | null;
  /** When a cancelled subscription ends (≥ paidUntil for a monthly one inside the minimum term). */
  endsAt: number | null;
}

/** Per item, the paid order that covers it longest. */
export async function listItemSubscriptions(db: DB, userId: string): Promise<Record<string, ItemSubscription>> {
  const out: Record<string, ItemSubscription> = {};
  for (const r of await listPaidOrderItemsOfUser(db, userId)) {
    const prev = out[r.productId];
    if (prev && (prev.paidUntil ?? 0) >= (r.paidUntil ?? 0)) continue;
    out[r.productId] = {
      orderId: r.orderId,
      renewing: Number(r.renewing) === 1,
      paidUntil: r.paidUntil,
      endsAt: r.endsAt,
    };
  }
  return out;
}

/** An order as its owner sees it on the test checkout and confirmation pages. */
export interface OrderView {
  id: string;
  provider: string;
  paid: boolean;
  period: Period;
  currency: "SEK" | "EUR";
  count: number;
  /** Major units (kronor, euro). */
  packagePrice: number;
  discount: number;
  total: number;
  paidUntil: number | null;
  email: string;
  address: Address | null;
  items: Array<{ id: string; name: string }>;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isOrderId(v: unknown): v is string {
  return typeof v === "string" && UUID_RE.test(v);
}

/** The owner's order, or null (also for another user's order: no difference shown). */
export async function getOrderView(db: DB, userId: string, orderId: string): Promise<OrderView | null> {
  if (!isOrderId(orderId)) return null;
  const order = await findOrderOfUser(db, userId, orderId);
  if (!order) return null;
  const address = parseStoredAddress(order.adress);
  const items = await listOrderProducts(db, order.id);
  return {
    id: order.id,
    provider: order.provider,
    paid: order.status === "paid",
    period: order.period === "month" ? "month" : "year",
    currency: order.currency === "SEK" ? "SEK" : "EUR",
    count: order.count,
    packagePrice: order.packageAmount / 100,
    discount: order.discountAmount / 100,
    total: order.totalAmount / 100,
    paidUntil: order.paidUntil,
    email: address?.email ?? "",
    address,
    items: items.map((i) => ({ id: i.id, name: i.name })),
  };
}

/**
 * The test provider's "payment": the owner confirms on the local test checkout page and
 * the order is completed through applyPayment, exactly as Stripe's webhook would.
 */
export async function completeTestPayment(
  db: DB,
  config: Config,
  input: { userId: string; orderId: string },
): Promise<PaymentResult> {
  if (config.payments !== "test") throw new OrderError("orders.errors.notFound", 404);
  const order = isOrderId(input.orderId) ? await findOrderOfUser(db, input.userId, input.orderId) : undefined;
  if (!order || order.provider !== "test") throw new OrderError("orders.errors.notFound", 404);
  return applyPayment(db, config, {
    eventId: `test:${order.id}`,
    eventType: "test.checkout.completed",
    orderId: order.id,
    paidAt: Date.now(),
    amount: { total: order.totalAmount, currency: order.currency },
  });
}
