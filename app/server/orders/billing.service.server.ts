/**
 * The subscription lifecycle after checkout (decision 016): failed renewal payments, the
 * staff-only simulated renewals of the test provider, the periodic billing jobs (lapses,
 * yearly reminders, abandoned checkouts), receipts and the owner's billing overview.
 * Payments themselves go through applyPayment (payment-events.service.server.ts) as before.
 */
import { sellerOf } from "../seller/seller.server";
import { isLang, type Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import type { BillingOverview } from "~/lib/domain/billing-overview";
import { formatDate } from "~/lib/domain/dates";
import { formatPrice, periodEnd } from "~/lib/domain/pricing";
import { netLinesOfGross } from "~/lib/domain/vat";
import { readableCountry } from "~/lib/domain/countries";
import type { Dialect } from "../db/db.server";
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import {
  cancelPendingBefore,
  claimReminder,
  findReceiptOfOrder,
  listLapseCandidates,
  listRecentOrders,
  listReceiptsOfUser,
  listReminderCandidates,
  withBillingLock,
  type Receipt,
} from "./billing.repository.server";
import { enqueuePaymentFailedMail, enqueueReminderMail } from "./billing.mail.server";
import { sendPrepaidReminders } from "./prepaid-reminders.service.server";
import { sendYearReminders } from "./year-reminders.service.server";
import { findOrders, listItemsOfOrders, ordersWithPaidRenewal } from "./order-list.repository.server";
import { receiptPdf, type ReceiptView } from "./receipt-pdf.server";
import { DAY_MS } from "~/lib/domain/dates";
import { lapseDue, lapseOrder, PAYMENT_RETRY_GRACE_MS } from "./lifecycle.server";
import {
  findOrder,
  findUserForReceipt,
  listOrderItemIds,
  listOrderItemsForPayment,
  setItemPaid,
  updateOrder,
  type Order,
} from "./orders.repository.server";
import { requireOrderViewer } from "./order-access.server";
import { withdrawableUntil } from "./withdrawal.service.server";
import { applyPayment, claimEvent, type PaymentResult } from "./payment-events.service.server";
import { isOrderId, OrderError } from "./order-error.server";

/** A yearly renewal is announced this long before (decision 016: 14 days). */
export const REMINDER_LEAD_MS = 14 * DAY_MS;
/** A checkout not paid within this long is abandoned (Stripe's Checkout Session expires after 24 hours). */
export const ABANDONED_AFTER_MS = DAY_MS;

/**
 * A renewal payment failed (invoice.payment_failed, or simulated by staff): the owner is
 * told once per failure run with a link to fix the card, the dashboard warns, and the
 * items stay active through the retry period (their paidUntil reaches at least the end of
 * the grace). Replays and later retries' failures change nothing more.
 */
export async function markPaymentFailed(
  deps: Pick<Deps, "db" | "config" | "clock" | "events">,
  input: { eventId: string; eventType: string; orderId: string | null; subscriptionId: string | null },
): Promise<PaymentResult> {
  const now = deps.clock();
  const touched: string[] = [];
  const result = await deps.db.transaction().execute(async (trx): Promise<PaymentResult> => {
    const { order, fresh } = await claimEvent({ db: trx }, input, now);
    if (!fresh) return "duplicate";
    if (!order) return "unknownOrder";
    // Only a paid, running subscription can fail a renewal (the first payment failing is Checkout's business).
    if (order.status !== "paid" || order.lapsedAt != null) return "ignored";
    if (order.paymentFailedAt != null) return "applied";
    const graceUntil = now + PAYMENT_RETRY_GRACE_MS;
    await updateOrder(trx, order.id, { paymentFailedAt: now, updatedAt: now });
    const ids = await listOrderItemIds(trx, order.id);
    for (const p of await listOrderItemsForPayment(trx, ids)) {
      if (p.payed && p.paidUntil == null) continue;
      await setItemPaid(trx, p.id, {
        paidUntil: Math.max(p.paidUntil ?? 0, graceUntil),
        payment: order.period,
        updatedAt: now,
      });
      touched.push(p.id);
    }
    await enqueuePaymentFailedMail(trx, deps.config, order, graceUntil, now);
    return "applied";
  });
  await deps.events.emit("itemsChanged", { itemIds: touched }, deps);
  return result;
}

/** The staff simulation exists only with the test provider (never with PAYMENTS=stripe). */
export function simulationEnabled(config: Deps["config"]): boolean {
  return config.payments === "test";
}

async function simulatedOrder(deps: Pick<Deps, "db" | "config">, orderId: string): Promise<Order> {
  if (!simulationEnabled(deps.config)) throw new OrderError("notFound");
  const order = isOrderId(orderId) ? await findOrder(deps.db, orderId) : undefined;
  if (!order || order.provider !== "test" || order.status !== "paid") throw new OrderError("notFound");
  // Withdrawn and refunded (decision 041): no renewal to simulate.
  if (order.withdrawnAt != null) throw new OrderError("notRenewing");
  return order;
}

/**
 * Staff, test provider: the next period of the order is paid, exactly as Stripe's
 * invoice.paid would do it (receipt, mail, paidUntil one period on). Keyed by the period,
 * so a double click renews once.
 */
export async function simulateRenewal(
  deps: Pick<Deps, "db" | "config" | "clock" | "payments" | "events">,
  orderId: string,
): Promise<PaymentResult> {
  const order = await simulatedOrder(deps, orderId);
  if (order.lapsedAt == null && !order.renewing) throw new OrderError("notRenewing");
  const start = Math.max(order.paidUntil ?? 0, order.lapsedAt != null ? deps.clock() : 0);
  return applyPayment(deps, {
    eventId: `test:renewal:${order.id}:${start}`,
    eventType: "test.invoice.paid",
    orderId: order.id,
    paidAt: deps.clock(),
    periodStart: start,
    periodEnd: periodEnd(start, order.period),
    kind: "renewal",
    amount: { total: order.totalAmount, currency: order.currency },
  });
}

/** Staff, test provider: the next renewal payment fails, as Stripe's invoice.payment_failed. */
export async function simulateFailedRenewal(
  deps: Pick<Deps, "db" | "config" | "clock" | "events">,
  orderId: string,
): Promise<PaymentResult> {
  const order = await simulatedOrder(deps, orderId);
  if (!order.renewing) throw new OrderError("notRenewing");
  return markPaymentFailed(deps, {
    eventId: `test:failed:${order.id}:${order.paidUntil ?? 0}`,
    eventType: "test.invoice.payment_failed",
    orderId: order.id,
    subscriptionId: null,
  });
}

export interface BillingJobsResult {
  lapsed: number;
  reminders: number;
  /** Mails before a prepaid sticker's months end (decision 036). */
  prepaidReminders: number;
  /** Mails before a year paid at once ends (decision 056). */
  yearReminders: number;
  abandoned: number;
}

/**
 * One run of the billing jobs (decision 016), under the billing lock (null: another instance
 * is running them). Each order is claimed with a conditional update in its own
 * transaction with its mail, so a reminder or lapse mail is sent exactly once.
 */
export async function runBillingJobs(
  deps: Pick<Deps, "db" | "config" | "clock" | "events">,
  dialect: Dialect,
): Promise<BillingJobsResult | null> {
  return withBillingLock(deps.db, dialect, async () => ({
    lapsed: await lapseDueOrders(deps),
    reminders: await sendRenewalReminders(deps),
    prepaidReminders: await sendPrepaidReminders(deps),
    yearReminders: await sendYearReminders(deps),
    abandoned: await cancelAbandonedOrders(deps),
  }));
}

/** Subscriptions that are over: items unpaid everywhere (finder pages forgotten), owner told once. */
export async function lapseDueOrders(deps: Pick<Deps, "db" | "config" | "clock" | "events">): Promise<number> {
  const now = deps.clock();
  let count = 0;
  for (const order of await listLapseCandidates(deps.db, now)) {
    if (!lapseDue(order, now)) continue;
    const endedAt = Math.max(order.endsAt ?? 0, order.paidUntil ?? 0);
    const unpaid = await deps.db.transaction().execute((trx) => lapseOrder(trx, deps, order, endedAt, now, true));
    if (unpaid) {
      count++;
      await deps.events.emit("itemsChanged", { itemIds: unpaid }, deps);
    }
  }
  return count;
}

/** Yearly subscriptions renewing within 14 days: one reminder per renewal. */
export async function sendRenewalReminders(deps: Pick<Deps, "db" | "config" | "clock">): Promise<number> {
  const now = deps.clock();
  let count = 0;
  for (const order of await listReminderCandidates(deps.db, now, REMINDER_LEAD_MS)) {
    const renewsAt = order.paidUntil!;
    const sent = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimReminder(trx, order.id, renewsAt))) return false;
      await enqueueReminderMail(trx, deps.config, order, renewsAt, now);
      return true;
    });
    if (sent) count++;
  }
  return count;
}

/** Checkouts left unpaid for 24 hours are cancelled, so the items are simply ordered anew. */
export async function cancelAbandonedOrders(deps: Pick<Deps, "db" | "clock">): Promise<number> {
  const now = deps.clock();
  const n = await cancelPendingBefore(deps.db, now - ABANDONED_AFTER_MS, now);
  if (n > 0) logger.info({ job: "billing", abandoned: n }, "abandoned checkouts cancelled");
  return n;
}

function toReceiptView(config: Deps["config"], r: Receipt): Omit<ReceiptView, "buyer"> {
  return {
    orderId: r.orderId,
    number: r.number,
    paidAt: r.paidAt,
    period: r.period,
    currency: r.currency,
    count: r.count,
    items: r.items.map((i) => i.name),
    periodStart: r.periodStart,
    periodEnd: r.periodEnd,
    packageAmount: r.packageAmount,
    discountAmount: r.discountAmount,
    totalAmount: r.totalAmount,
    vatAmount: r.vatAmount,
    netAmount: r.totalAmount - r.vatAmount,
    reverseCharge: r.reverseCharge,
    seller: sellerOf(config),
  };
}

/**
 * The owner's receipt of an order (number given, else the latest); others' are notFound
 * alike. `lang` names the buyer's country (decision 057; English without it).
 */
export async function getReceipt(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: { userId: string; orderId: string; number: number | null; lang?: Lang },
): Promise<ReceiptView & { withdrawal: WithdrawalOffer; paymentKind: Order["paymentKind"] }> {
  // The owner's personal order; an organisation's order: its admins (decision 027).
  const order = await requireOrderViewer(deps, input.userId, input.orderId);
  const receipt = await findReceiptOfOrder(deps.db, order.id, input.number);
  if (!receipt) throw new OrderError("notFound");
  return {
    ...(await receiptViewOf(deps, order, receipt, input.userId, input.lang ?? "en")),
    withdrawal: withdrawalOffer(order, input.userId, deps.clock()),
    // A year paid at once (decision 056): the receipt says with what, and that it does not renew.
    paymentKind: order.paymentKind,
  };
}

/** What the receipt page says about withdrawal (decision 041). */
export type WithdrawalOffer =
  { kind: "open"; until: number } | { kind: "withdrawn"; at: number; refund: number } | { kind: "business" } | null;

function withdrawalOffer(order: Order, viewerId: string, now: number): WithdrawalOffer {
  if (order.organisationId != null || order.method !== "card") return { kind: "business" };
  if (order.withdrawnAt != null) return { kind: "withdrawn", at: order.withdrawnAt, refund: order.refundAmount ?? 0 };
  const until = order.userId === viewerId ? withdrawableUntil(order, now) : null;
  return until ? { kind: "open", until } : null;
}

async function receiptViewOf(
  deps: Pick<Deps, "config">,
  order: Order,
  receipt: Receipt,
  viewerId: string,
  lang: Lang,
): Promise<ReceiptView> {
  // The country by its name in the reader's language, never its code (decision 057).
  const country = (value: string) => readableCountry(value, lang);
  const invoiced = order.invoiceTo;
  if (invoiced) {
    // Invoiced to the organisation: the receipt names it, its number and VAT number.
    const lines = [
      invoiced.orgNumber,
      invoiced.street,
      `${invoiced.postcode} ${invoiced.city}`.trim(),
      country(invoiced.country),
      invoiced.vatNumber ?? "",
    ];
    const view = toReceiptView(deps.config, receipt);
    return {
      ...view,
      // A business's receipt, like its invoice: lines without VAT (decision 038), when it shows VAT.
      ...(view.seller.vatOnReceipts ? netLinesOfGross(view) : {}),
      buyer: { name: invoiced.name, lines: lines.map((l) => l.trim()).filter(Boolean) },
    };
  }
  const a = order.address;
  const buyerName = a ? `${a.firstname} ${a.lastname}`.trim() : "";
  // A card order in an organisation's scope (decision 027): its admins see who paid, not
  // the payer's postal address (often their home); the payer sees it all.
  const ownAddress = order.organisationId == null || order.userId === viewerId;
  const lines =
    a && ownAddress ? [a.co, a.address, a.address2, `${a.zip} ${a.city}`.trim(), a.state, country(a.country)] : [];
  return {
    ...toReceiptView(deps.config, receipt),
    buyer: { name: buyerName, lines: lines.map((l) => l.trim()).filter(Boolean) },
  };
}

/** `?number=` of a receipt link: a positive whole number, absent (latest), or invalid (notFound). */
export function parseReceiptNumber(v: string | null): number | null | "invalid" {
  if (v == null || v === "") return null;
  return /^[1-9]\d{0,9}$/.test(v) ? Number(v) : "invalid";
}

/** The receipt as a PDF in the reader's language, amounts in the order's currency. */
export async function getReceiptPdf(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: { userId: string; orderId: string; number: number | null; lang: Lang },
): Promise<{ pdf: Buffer; filename: string }> {
  // In the owner's language (their saved one), else the page's.
  const user = await findUserForReceipt(deps.db, input.userId);
  const lang: Lang = isLang(user?.language) ? user.language : input.lang;
  const view = await getReceipt(deps, { ...input, lang });
  const priceLang = view.currency === "SEK" ? "sv" : "en";
  const t = getT(lang);
  const pdf = receiptPdf(view, (key, params) => t(key, params ?? {}), {
    money: (minor) => formatPrice(minor / 100, priceLang),
    date: (ms) => formatDate(ms, lang),
  });
  return { pdf, filename: `hittad-receipt-${view.number}.pdf` };
}

export type { BillingOverview } from "~/lib/domain/billing-overview";
import { ITEMS_LISTED } from "~/lib/domain/billing-overview";

/** The dashboard's confirmation after a cancel or a resume (POST-redirect-GET). */
export type RenewalConfirmation =
  | { kind: "cancelled"; date: number }
  | { kind: "resumed"; date: number }
  | { kind: "withdrawnDone"; date: number; refund: string }
  | null;

/**
 * Which confirmation the dashboard shows for `?billing=…&order=…` (cancelled, resumed,
 * withdrawn), about which of the owner's orders: only one of theirs, and only when its
 * state says it happened.
 */
export function renewalConfirmation(
  overview: BillingOverview,
  done: string | null,
  orderId: string | null,
): RenewalConfirmation {
  const order = overview.orders.find((o) => o.id === orderId);
  if (order && done === "cancelled" && !order.renewing)
    return { kind: "cancelled", date: order.endsAt ?? order.paidUntil ?? 0 };
  if (order && done === "resumed" && order.renewing) return { kind: "resumed", date: order.paidUntil ?? 0 };
  if (order && done === "withdrawn" && order.withdrawn) {
    const refund = formatPrice(order.withdrawn.refund / 100, order.currency === "SEK" ? "sv" : "en");
    return { kind: "withdrawnDone", date: order.withdrawn.at, refund };
  }
  return null;
}

export async function getBillingOverview(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
): Promise<BillingOverview> {
  const receipts = await listReceiptsOfUser(deps.db, userId);
  const now = deps.clock();
  const orderIds = [...new Set(receipts.map((r) => r.orderId))];
  const orders: BillingOverview["orders"] = [];
  // Three reads for all of them, not three per order: an owner with 200 receipts made the
  // dashboard wait for 600 round trips (found in a soak, growing with every order paid).
  const [found, itemsOf, renewed] = await Promise.all([
    findOrders(deps.db, orderIds),
    listItemsOfOrders(deps.db, orderIds),
    ordersWithPaidRenewal(deps.db, orderIds),
  ]);
  const byId = new Map(found.map((o) => [o.id, o]));
  for (const id of orderIds) {
    const order = byId.get(id);
    if (!order || order.userId !== userId || order.status !== "paid") continue;
    const names = (itemsOf.get(id) ?? []).map((i) => i.name);
    const end = order.endsAt ?? order.paidUntil ?? 0;
    orders.push({
      id,
      items: names.slice(0, ITEMS_LISTED),
      itemCount: names.length,
      period: order.period,
      currency: order.currency,
      totalAmount: order.totalAmount,
      paidUntil: order.paidUntil,
      renewing: order.renewing && order.lapsedAt == null,
      paidOnce: order.paymentKind !== "subscription",
      renewable: order.paymentKind !== "subscription" && order.withdrawnAt == null && !renewed.has(id),
      endsAt: order.endsAt,
      resumable:
        !order.renewing &&
        order.cancelledAt != null &&
        order.lapsedAt == null &&
        end > now &&
        // An item of it was deleted (decision 017): it cannot renew at the price of all of them.
        names.length >= order.count,
      paymentFailed: order.paymentFailedAt != null && order.lapsedAt == null,
      lapsed: order.lapsedAt != null && order.withdrawnAt == null,
      withdrawUntil: withdrawableUntil(order, now),
      withdrawn: order.withdrawnAt != null ? { at: order.withdrawnAt, refund: order.refundAmount ?? 0 } : null,
      receipts: receipts
        .filter((r) => r.orderId === id)
        .map((r) => ({ number: r.number, paidAt: r.paidAt, totalAmount: r.totalAmount })),
    });
  }
  return { portal: deps.config.payments === "stripe", orders };
}

/** Staff's order list (admin): recent orders, with the simulation buttons in test mode. */
export async function listOrdersForStaff(deps: Pick<Deps, "db" | "config" | "clock">) {
  const rows = await listRecentOrders(deps.db, 100);
  const now = deps.clock();
  return {
    simulation: simulationEnabled(deps.config),
    orders: rows.map((o) => ({
      id: o.id,
      email: o.email,
      items: o.itemNames,
      status: o.status,
      provider: o.provider,
      period: o.period,
      currency: o.currency,
      totalAmount: o.totalAmount,
      paidUntil: o.paidUntil,
      renewing: o.renewing,
      paymentFailed: o.paymentFailedAt != null,
      lapsed: o.lapsedAt != null,
      createdAt: o.createdAt,
      method: o.method,
      invoiceNumber: o.invoiceNumber,
      /** An unpaid invoice's stickers wait for its payment or staff's release (decision 028). */
      awaitingRelease: o.method === "invoice" && o.status === "invoiced" && o.shipmentReleasedAt == null,
      /** An overdue or lapsed unpaid invoice stops the organisation's next one until cleared. */
      blocksInvoicing:
        o.method === "invoice" &&
        o.status !== "paid" &&
        o.creditClearedAt == null &&
        ((o.status === "invoiced" && o.dueAt != null && o.dueAt < now) || o.lapsedAt != null),
      cleared: o.creditClearedAt != null,
    })),
  };
}
