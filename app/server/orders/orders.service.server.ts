/**
 * Order rules (issues #6, #13): creating an order from the owner's selection (totals always
 * recomputed here) and starting its checkout, applying payments (the one function both the
 * Stripe webhook and the test checkout call), cancelling renewal with the 6-month minimum
 * term, and the status each item shows. No HTTP here (decision 011).
 */
import { randomUUID } from "node:crypto";
import type { Lang } from "~/i18n/config";
import { isCompletePostalAddress, type Address } from "~/lib/address";
import type { Currency } from "~/lib/currency";
import { isItemPaid } from "~/lib/paid";
import { vatOfGross } from "~/lib/vat";
import {
  cancelledSubscriptionEnd,
  minimumTermEnd,
  orderTotals,
  PACKAGE_CODES,
  periodEnd,
  type PackageName,
  type Period,
} from "~/lib/pricing";
import { ORDER_MAX_ALL_UNPAID } from "~/lib/order-form";
import type { ProdType } from "~/lib/product-form";
import type { Deps } from "../service-deps.server";
import { listManagedIds } from "../items/item-access.repository.server";
import { findMembership } from "../organisations/organisations.repository.server";
import { forgetItemPages } from "../items/item-page-cache.server";
import { countProductsOfOwner, listProductIdsOfOwner, listProductsOfOwnerPage } from "../items/items.repository.server";
import {
  clampPage,
  NO_FILTER,
  ORDER_PAGE_SIZE,
  type ItemFilter,
  type ItemQuery,
  type PageInfo,
} from "~/lib/item-filter";
import { logger } from "../logger.server";
import { getBuyProductId, getOrderAddress } from "../order-draft/order-draft.service.server";
import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import { ServiceError } from "../service-error.server";
import {
  findOrder,
  findOrderBySubscription,
  findOrderOfUser,
  findUserForReceipt,
  insertOrder,
  listOrderProductIds,
  listOrderProducts,
  listPaidOrderItemsOfUser,
  listRenewingOrdersOfItem,
  cancelPendingOrdersOfItem,
  listRenewingOrdersOfUser,
  listProductsForPayment,
  listOrderProductsForPayment,
  recordPaymentEvent,
  setProductPaid,
  updateOrder,
  type InvoiceBuyer,
  type Order,
} from "./orders.repository.server";
import { getPaymentProvider } from "./payments.server";
import { enqueueReceiptMail } from "./receipt.mail.server";
import { enqueueCancelledMail, enqueueRenewalReceiptMail, enqueueResumedMail } from "./billing.mail.server";
import { lapseOrder, queueFirstShipment, recordReceipt } from "./lifecycle.server";

export type OrderErrorCode =
  | "nothingSelected"
  | "unknownItems"
  | "alreadyPaid"
  | "noAddress"
  | "checkoutFailed"
  | "notFound"
  | "notRenewing"
  | "cancelFailed"
  | "rateLimited"
  | "notCancelled"
  | "ended"
  | "resumeFailed"
  | "itemsDeleted"
  | "checkoutCancelled"
  | "tooManyItems"
  | "noPortal"
  | "portalFailed"
  | "invoiceOrganisationOnly"
  | "invoiceAdminOnly"
  | "invoiceYearlyOnly"
  | "invoiceFailed"
  | "alreadyInvoiced"
  | "forbidden";

export class OrderError extends ServiceError<OrderErrorCode> {}

/**
 * Orders a user may start (issue #13): each one can end in a receipt mail and a checkout
 * at the provider, so a script must not start thousands. Ten an hour is far more than an
 * owner retrying a failed checkout needs.
 */
export const ORDER_RATE_RULE: RateRule = { name: "orders:user", limit: 10, windowMs: 60 * 60_000 };

/** An item as the order page shows it. */
export interface OrderPageItem {
  id: string;
  name: string;
  prodType: ProdType;
  findFee: number;
  currency: Currency;
  paid: boolean;
  /** Paid items: until when (null = no end recorded). */
  paidUntil: number | null;
}

export interface OrderPage {
  /** The site's origin, for the QR codes' text. */
  origin: string;
  /** One page (ORDER_PAGE_SIZE) of the owner's items matching the filter, newest first. */
  items: OrderPageItem[];
  /**
   * Unpaid items start selected (the remembered 'buy' item is one of them); with a package
   * chosen on the home page, as many as it has stickers, the 'buy' item first (issue #19).
   */
  preselected: string[];
  /** The package chosen on the home page, if any. */
  chosenPackage: PackageName | null;
  /** The remembered pay-now item, if it is still unpaid. */
  buy: string | null;
  address: Address | null;
  pageInfo: PageInfo;
  /** All the owner's items, whatever the filter (counted in SQL). */
  total: number;
  /** Unpaid items matching the filter, all pages: what "all unpaid" orders (counted in SQL). */
  unpaidMatching: number;
}

/**
 * The order page (issue #18 point 5): an owner with more items than one page gets a page
 * of them, a filter and the choice "all unpaid items (matching the filter)", so 5,000
 * items are ordered without ticking 5,000 boxes. Counts come from SQL, never from a page.
 */
export async function getOrderPage(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  query: ItemQuery = { ...NO_FILTER, page: 1 },
  opts: { chosenPackage?: PackageName | null; organisationId?: string | null } = {},
): Promise<OrderPage> {
  const { db } = deps;
  const now = deps.clock();
  // The same items as the dashboard of the active scope (issue #20).
  const scope = { owner: userId, organisationId: opts.organisationId ?? null };
  const [matching, total, unpaidMatching, buy, address] = await Promise.all([
    countProductsOfOwner(db, scope, query, now),
    countProductsOfOwner(db, scope, NO_FILTER, now),
    unpaidOf(query) ? countProductsOfOwner(db, scope, unpaidOf(query)!, now) : 0,
    getBuyProductId(deps, userId),
    getOrderAddress(deps, userId),
  ]);
  const pageInfo = clampPage(query.page, matching, ORDER_PAGE_SIZE);
  const rows = await listProductsOfOwnerPage(db, scope, query, now, {
    limit: ORDER_PAGE_SIZE,
    offset: (pageInfo.page - 1) * ORDER_PAGE_SIZE,
  });
  const items = rows.map((r) => {
    const paid = isItemPaid(r, now);
    return {
      id: r.id,
      name: r.name,
      prodType: r.prodType,
      findFee: r.findFee,
      currency: r.currency,
      paid,
      paidUntil: paid ? r.paidUntil : null,
    };
  });
  const unpaid = items.filter((i) => !i.paid).map((i) => i.id);
  const chosenPackage = opts.chosenPackage ?? null;
  const first = buy && unpaid.includes(buy) ? [buy, ...unpaid.filter((id) => id !== buy)] : unpaid;
  const preselected = chosenPackage ? first.slice(0, PACKAGE_CODES[chosenPackage]) : unpaid;
  return {
    origin: deps.config.baseUrl.origin,
    items,
    preselected,
    chosenPackage,
    buy: buy && preselected.includes(buy) ? buy : null,
    address,
    pageInfo,
    total,
    unpaidMatching,
  };
}

/** The unpaid items among those a filter matches; null when it asks for paid ones only. */
function unpaidOf(filter: ItemFilter): ItemFilter | null {
  return filter.paid === "paid" ? null : { ...filter, paid: "unpaid" };
}

export interface OrderInput {
  userId: string;
  /** The items ticked (ignored with allUnpaid). */
  productIds: string[];
  /** Instead of ticked ids: every unpaid item of the owner that this filter matches. */
  allUnpaid?: ItemFilter;
  /** The active organisation whose items "all unpaid" means (issue #20); null: personal items. */
  organisationId?: string | null;
  period: Period;
  lang: Lang;
}

/** How an invoice order is billed (decision 027), set by startInvoice. */
export interface InvoiceTerms {
  buyer: InvoiceBuyer;
  /** No VAT: an EU business outside Sweden with a VAT number accounts for it. */
  reverseCharge: boolean;
}

/**
 * The amounts an order charges, in minor units. Prices include 25 % Swedish VAT; under the
 * reverse charge the buyer pays them without it (each amount's net, the discount the
 * difference so the lines add up to the total).
 */
export function chargedAmounts(
  minor: { unitPrice: number; packagePrice: number; discount: number; total: number },
  reverseCharge: boolean,
) {
  if (!reverseCharge) {
    return {
      unitAmount: minor.unitPrice,
      packageAmount: minor.packagePrice,
      discountAmount: minor.discount,
      totalAmount: minor.total,
      vatAmount: vatOfGross(minor.total).vat,
    };
  }
  const packageAmount = vatOfGross(minor.packagePrice).net;
  const totalAmount = vatOfGross(minor.total).net;
  return {
    unitAmount: vatOfGross(minor.unitPrice).net,
    packageAmount,
    discountAmount: packageAmount - totalAmount,
    totalAmount,
    vatAmount: 0,
  };
}

/**
 * A pending order for the owner's selected, unpaid items. Every id must be the owner's
 * (otherwise nothing is created: the answer does not tell whose the others are).
 */
export async function createOrder(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: OrderInput,
  invoice: InvoiceTerms | null = null,
): Promise<Order> {
  const { db } = deps;
  // "All unpaid items (matching the filter)": the ids are the server's, never the browser's.
  const unpaid = input.allUnpaid ? unpaidOf(input.allUnpaid) : null;
  const ids = input.allUnpaid
    ? unpaid
      ? await listProductIdsOfOwner(
          db,
          { owner: input.userId, organisationId: input.organisationId ?? null },
          unpaid,
          deps.clock(),
        )
      : []
    : [...new Set(input.productIds)];
  if (ids.length === 0) throw new OrderError("nothingSelected");
  if (ids.length > ORDER_MAX_ALL_UNPAID) throw new OrderError("tooManyItems", { max: ORDER_MAX_ALL_UNPAID });
  const now = deps.clock();
  const limit = await rateLimiter(deps.config, db)(ORDER_RATE_RULE, input.userId, now);
  if (!limit.ok) throw new OrderError("rateLimited", { count: limit.retryAfterMinutes });
  // Every id in the order's scope (issue #20 review): an organisation is billed, and its
  // admins see the order, for its own items only; a personal order holds personal items.
  const rows = await listProductsForPayment(db, input.userId, ids, input.organisationId ?? null);
  if (rows.length !== ids.length) throw new OrderError("unknownItems");
  if (rows.some((r) => isItemPaid(r, now))) throw new OrderError("alreadyPaid");
  const address = await getOrderAddress(deps, input.userId);
  // Stickers need somewhere to go (issue #19): name, street, postal code, city, country, email.
  if (!address || !isCompletePostalAddress(address)) throw new OrderError("noAddress");
  const totals = orderTotals({ lang: input.lang, period: input.period, count: ids.length });
  const amounts = chargedAmounts(totals.minor, invoice?.reverseCharge ?? false);
  const order: Order = {
    id: randomUUID(),
    userId: input.userId,
    provider: deps.config.payments,
    status: "pending",
    period: input.period,
    lang: input.lang,
    currency: totals.currency,
    count: ids.length,
    unitAmount: amounts.unitAmount,
    packageAmount: amounts.packageAmount,
    discountAmount: amounts.discountAmount,
    totalAmount: amounts.totalAmount,
    vatAmount: amounts.vatAmount,
    reverseCharge: invoice?.reverseCharge ?? false,
    organisationId: input.organisationId ?? null,
    method: invoice ? "invoice" : "card",
    invoiceTo: invoice?.buyer ?? null,
    invoiceId: null,
    invoiceNumber: null,
    invoiceUrl: null,
    dueAt: null,
    voidedAt: null,
    address,
    checkoutId: null,
    subscriptionId: null,
    customerId: null,
    paidAt: null,
    paidUntil: null,
    minimumUntil: null,
    renewing: false,
    endsAt: null,
    cancelledAt: null,
    createdAt: now,
    updatedAt: now,
    paymentFailedAt: null,
    reminderFor: null,
    lapsedAt: null,
  };
  if (!(await insertOrder(db, order, ids))) throw new OrderError("alreadyInvoiced");
  return order;
}

/**
 * The order page's "pay": creates the order and starts its checkout at the provider
 * (configured by PAYMENTS), keeping the provider's checkout id. Returns where the browser
 * goes next.
 */
export async function startCheckout(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: OrderInput,
): Promise<{ url: string }> {
  const order = await createOrder(deps, input);
  try {
    // createOrder refused an order without an address email.
    const email = order.address?.email.trim() ?? "";
    const start = await getPaymentProvider(deps.config).startCheckout({ order, email, lang: input.lang });
    if (start.checkoutId)
      await updateOrder(deps.db, order.id, { checkoutId: start.checkoutId, updatedAt: deps.clock() });
    return { url: start.url };
  } catch (err) {
    logger.error({ err, order: order.id }, "starting the checkout failed");
    throw new OrderError("checkoutFailed");
  }
}

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
   * Which payment this is, for its receipt (issue #16): `first` is the checkout's payment
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
async function claimEvent(
  trx: Deps["db"],
  input: { eventId: string; eventType: string; orderId?: string | null; subscriptionId?: string | null },
  now: number,
): Promise<{ order: Order | undefined; fresh: boolean }> {
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
 * first period, a sticker shipment, a receipt mail); later ones (renewals) extend
 * paidUntil. Order does not matter: paidUntil only grows, the first-payment effects
 * happen once, and each event id is applied once (replays change nothing).
 *
 * A first payment for an order whose items are all already covered by another paid order
 * (two checkouts for one item) activates nothing: the order is marked `duplicate` and the
 * provider's subscription is cancelled (issue #13).
 */
export async function applyPayment(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: PaymentInput,
): Promise<PaymentResult> {
  const touched: string[] = [];
  let duplicateOf: Order | null = null;
  const now = deps.clock();
  const result = await deps.db.transaction().execute(async (trx): Promise<PaymentResult> => {
    const { order, fresh } = await claimEvent(trx, input, now);
    if (!fresh) return "duplicate";
    if (!order) {
      logger.warn({ event: input.eventId, type: input.eventType }, "payment for an unknown order ignored");
      return "unknownOrder";
    }
    if (order.status === "duplicate") return "alreadyCovered";
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
    const productIds = await listOrderProductIds(trx, order.id);
    const products = await listOrderProductsForPayment(trx, productIds);
    // An item of an unpaid order was deleted since its checkout started (issue #17): the
    // payment covers an item that is gone, so nothing is activated and the subscription
    // is cancelled, as for a duplicate payment; staff decide on the refund.
    const itemsGone = first && productIds.length < order.count;
    if (!invoiced && (itemsGone || (first && products.length > 0 && products.every((p) => isItemPaid(p, now))))) {
      await updateOrder(trx, order.id, {
        status: "duplicate",
        subscriptionId: order.subscriptionId ?? input.subscriptionId ?? null,
        customerId: order.customerId ?? input.customerId ?? null,
        updatedAt: now,
      });
      duplicateOf = { ...order, subscriptionId: order.subscriptionId ?? input.subscriptionId ?? null };
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
    // An invoice covers the period from its issue, set then.
    const covers = invoiced
      ? (order.paidUntil ?? periodEnd(order.createdAt, period))
      : (input.periodEnd ?? periodEnd(input.paidAt, period));
    const paidUntil = Math.max(order.paidUntil ?? 0, covers);
    // A payment that moves paidUntil on settles an earlier failed one (and revives a lapse);
    // so does paying an invoice (its items were deactivated when it was long overdue).
    const extends_ = paidUntil > (order.paidUntil ?? 0) || invoiced;
    const revived = extends_ && order.lapsedAt != null && paidUntil > now;
    await updateOrder(trx, order.id, {
      status: "paid",
      paidAt,
      paidUntil,
      minimumUntil: order.minimumUntil ?? minimumTermEnd(paidAt),
      // A subscription that already ended (events out of order) does not renew; an invoice never does.
      renewing: order.method === "invoice" ? false : first || revived ? order.endsAt == null : order.renewing,
      ...(extends_ ? { paymentFailedAt: null } : {}),
      ...(revived ? { lapsedAt: null } : {}),
      subscriptionId: order.subscriptionId ?? input.subscriptionId ?? null,
      customerId: order.customerId ?? input.customerId ?? null,
      updatedAt: now,
    });
    // A lapsed order's items stay unpaid unless this payment pays a period beyond it.
    const activates = order.lapsedAt == null || revived;
    for (const p of activates ? products : []) {
      await setProductPaid(trx, p.id, { paidUntil: laterEnd(p, paidUntil), payment: period, updatedAt: now });
      touched.push(p.id);
    }
    if (first && !invoiced) {
      await queueFirstShipment(trx, order, productIds, now);
    }
    const firstPayment = first || input.kind === "first";
    const receipt = await recordReceipt(trx, order, {
      paymentKey: firstPayment ? `first:${order.id}` : `renewal:${input.paymentId ?? input.eventId}`,
      paidAt: input.paidAt,
      periodStart: invoiced
        ? order.createdAt
        : firstPayment
          ? paidAt
          : (input.periodStart ?? order.paidUntil ?? input.paidAt),
      periodEnd: covers,
    });
    const paidOrder: Order = { ...order, paidAt, paidUntil, status: "paid" };
    if (first) await enqueueReceiptMail(trx, deps.config, paidOrder, receipt);
    else if (receipt) await enqueueRenewalReceiptMail(trx, deps.config, paidOrder, receipt);
    return "applied";
  });
  // After the commit: forgotten earlier, a finder's visit could store the old page again.
  for (const id of touched) forgetItemPages(id); // docs/decisions/009-performance.md
  const dup = duplicateOf as Order | null;
  if (dup) {
    try {
      await getPaymentProvider(deps.config).cancelDuplicate(dup);
    } catch (err) {
      logger.error({ err, order: dup.id }, "cancelling the duplicate subscription failed: cancel it by hand");
    }
  }
  return result;
}

/** An item's new end: never earlier than it was; paid with no end (set by hand) stays without end. */
export function laterEnd(p: { payed: boolean; paidUntil: number | null }, until: number): number | null {
  if (p.payed && p.paidUntil == null) return null;
  return Math.max(p.payed ? (p.paidUntil ?? 0) : 0, until);
}

/**
 * The provider ended the subscription: no more renewals. Cancelled by the owner, the items
 * stay active until paidUntil (the lapse job tells the owner then); ended because renewal
 * payments kept failing (issue #16), the order lapses now: items unpaid everywhere, the
 * finder pages forgotten, the owner told.
 */
export async function endSubscription(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: { eventId: string; eventType: string; orderId: string | null; subscriptionId: string | null; endedAt: number },
): Promise<PaymentResult> {
  const now = deps.clock();
  let touched: string[] = [];
  const result = await deps.db.transaction().execute(async (trx) => {
    const { order, fresh } = await claimEvent(trx, input, now);
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
      touched = (await lapseOrder(trx, deps.config, ended, input.endedAt, now)) ?? [];
    }
    return "applied";
  });
  for (const id of touched) forgetItemPages(id);
  return result;
}

/** What cancelling renewal of a paid order means: when it ends, and whether that is the period end. */
export function cancellationPlan(order: Pick<Order, "paidUntil" | "minimumUntil" | "paidAt">, now: number) {
  const paidUntil = order.paidUntil ?? now;
  const minimumUntil = order.minimumUntil ?? minimumTermEnd(order.paidAt ?? now);
  const endsAt = cancelledSubscriptionEnd({ paidUntil, minimumUntil });
  return { endsAt, atPeriodEnd: endsAt === paidUntil };
}

/**
 * The owner cancels renewal. The provider is told first (Stripe: the subscription ends
 * at the 6-month mark or at the end of the paid period), then the order records it.
 * Cancelling never shortens what is paid: an item's paidUntil only grows.
 */
export async function cancelRenewal(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: { userId: string; orderId: string },
): Promise<{ endsAt: number }> {
  const { db } = deps;
  const order = await findOrderOfUser(db, input.userId, input.orderId);
  if (!order || order.status !== "paid") throw new OrderError("notFound");
  if (order.lapsedAt != null) throw new OrderError("ended");
  if (!order.renewing) throw new OrderError("notRenewing");
  const plan = cancellationPlan(order, deps.clock());
  try {
    await getPaymentProvider(deps.config).cancelRenewal(order, plan);
  } catch (err) {
    logger.error({ err, order: order.id }, "cancelling renewal at the payment provider failed");
    throw new OrderError("cancelFailed");
  }
  const now = deps.clock();
  const touched: string[] = [];
  await db.transaction().execute(async (trx) => {
    await updateOrder(trx, order.id, { renewing: false, endsAt: plan.endsAt, cancelledAt: now, updatedAt: now });
    await enqueueCancelledMail(trx, deps.config, order, plan);
    if (order.provider === "test") {
      // The test provider takes no renewals, so the committed months count as paid here;
      // with Stripe, invoice.paid extends paidUntil month by month until the end.
      await updateOrder(trx, order.id, { paidUntil: Math.max(order.paidUntil ?? 0, plan.endsAt) });
      const ids = await listOrderProductIds(trx, order.id);
      for (const p of await listOrderProductsForPayment(trx, ids)) {
        await setProductPaid(trx, p.id, { paidUntil: laterEnd(p, plan.endsAt), payment: order.period, updatedAt: now });
        touched.push(p.id);
      }
    }
  });
  for (const id of touched) forgetItemPages(id);
  return { endsAt: plan.endsAt };
}

/**
 * Account deletion (issue #17): every subscription of the user stops renewing at the
 * provider, on the same plan as cancelRenewal (never past the paid period, never before
 * the 6-month minimum term). Throws OrderError cancelFailed when the provider refuses, so
 * the caller can stop before deleting anything. Answers what was stopped and until when.
 */
export async function stopAllRenewals(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
): Promise<Array<{ orderId: string; endsAt: number }>> {
  const stopped: Array<{ orderId: string; endsAt: number }> = [];
  for (const order of await listRenewingOrdersOfUser(deps.db, userId)) {
    const plan = cancellationPlan(order, deps.clock());
    try {
      await getPaymentProvider(deps.config).cancelRenewal(order, plan);
    } catch (err) {
      logger.error({ err, order: order.id }, "cancelling renewal at the payment provider failed");
      throw new OrderError("cancelFailed");
    }
    const now = deps.clock();
    await updateOrder(deps.db, order.id, { renewing: false, endsAt: plan.endsAt, cancelledAt: now, updatedAt: now });
    stopped.push({ orderId: order.id, endsAt: plan.endsAt });
  }
  return stopped;
}

/** A subscription that deleting one of its items ends (issue #17), as the confirmation shows it. */
export interface EndedByDeletion {
  orderId: string;
  period: Period;
  endsAt: number;
  /** false: the minimum term still has monthly payments until endsAt. */
  atPeriodEnd: boolean;
  /** The order's other items (the first OTHER_ITEMS_LISTED): they stay active until endsAt, then stop. */
  otherItems: Array<{ id: string; name: string }>;
  /** How many other items there are in all. */
  otherCount: number;
}

/** The delete page names this many of a subscription's other items (an order may cover thousands). */
const OTHER_ITEMS_LISTED = 20;

/** What deleting the item would end: its renewing subscriptions, on the plan of "cancel renewal". */
export async function renewalsEndedByDeletion(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  productId: string,
  /** Who reads the preview: only items they may manage are named (the others are counted). */
  viewer: string = userId,
): Promise<EndedByDeletion[]> {
  const now = deps.clock();
  const out: EndedByDeletion[] = [];
  for (const order of await listRenewingOrdersOfItem(deps.db, userId, productId)) {
    const others = (await listOrderProducts(deps.db, order.id)).filter((i) => i.id !== productId);
    const managed = await listManagedIds(
      deps.db,
      viewer,
      others.map((i) => i.id),
    );
    out.push({
      orderId: order.id,
      period: order.period,
      ...cancellationPlan(order, now),
      otherItems: others.filter((i) => managed.has(i.id)).slice(0, OTHER_ITEMS_LISTED),
      otherCount: others.length,
    });
  }
  return out;
}

/**
 * Deleting a paid item (issue #17): every renewing subscription covering it is cancelled
 * exactly as "cancel renewal" does (at the provider first, the 6-month minimum kept, a
 * confirmation mail). Throws OrderError cancelFailed when the provider refuses, so the
 * caller deletes nothing.
 */
export async function stopRenewalsOfItem(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  productId: string,
): Promise<void> {
  for (const order of await listRenewingOrdersOfItem(deps.db, userId, productId)) {
    await cancelRenewal(deps, { userId, orderId: order.id });
  }
}

/**
 * Checkouts started for an item the owner deletes are cancelled (issue #17): the test
 * checkout refuses them, and a provider payment that still arrives for one activates
 * nothing (applyPayment: an order missing items is treated like a duplicate payment).
 */
export async function cancelPendingCheckoutsOfItem(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  productId: string,
): Promise<number> {
  return cancelPendingOrdersOfItem(deps.db, userId, productId, deps.clock());
}

/** When each renewing subscription of the user would end if cancelled now (for the delete page). */
export async function renewalEndsIfCancelled(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
): Promise<Array<{ orderId: string; endsAt: number }>> {
  const now = deps.clock();
  return (await listRenewingOrdersOfUser(deps.db, userId)).map((o) => ({
    orderId: o.id,
    endsAt: cancellationPlan(o, now).endsAt,
  }));
}

/**
 * The owner undoes a cancelled renewal before the subscription ends (issue #16, #19
 * point 4): the provider is told first, then the order renews again; a confirmation mail.
 */
export async function resumeRenewal(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: { userId: string; orderId: string },
): Promise<{ renewsAt: number }> {
  const order = await findOrderOfUser(deps.db, input.userId, input.orderId);
  if (!order || order.status !== "paid") throw new OrderError("notFound");
  if (order.renewing) throw new OrderError("notCancelled");
  const now = deps.clock();
  // Ended by the provider (no cancel by the owner), lapsed, or past its end: order again instead.
  if (order.lapsedAt != null || order.cancelledAt == null || (order.endsAt ?? order.paidUntil ?? 0) <= now) {
    throw new OrderError("ended");
  }
  // An item the subscription paid for was deleted (issue #17): renewing would charge for it.
  if ((await listOrderProductIds(deps.db, order.id)).length < order.count) throw new OrderError("itemsDeleted");
  try {
    await getPaymentProvider(deps.config).resumeRenewal(order);
  } catch (err) {
    logger.error({ err, order: order.id }, "resuming renewal at the payment provider failed");
    throw new OrderError("resumeFailed");
  }
  const renewsAt = order.paidUntil ?? now;
  await deps.db.transaction().execute(async (trx) => {
    await updateOrder(trx, order.id, { renewing: true, endsAt: null, cancelledAt: null, updatedAt: now });
    await enqueueResumedMail(trx, deps.config, order, renewsAt);
  });
  return { renewsAt };
}

/** What the cancel confirmation page shows (issue #19 point 4). */
export interface CancelPreview {
  orderId: string;
  items: Array<{ id: string; name: string }>;
  period: Period;
  endsAt: number;
  /** false: the minimum term still has monthly payments until endsAt. */
  atPeriodEnd: boolean;
}

export async function getCancelPreview(
  deps: Pick<Deps, "db" | "clock">,
  input: { userId: string; orderId: string },
): Promise<CancelPreview> {
  const order = isOrderId(input.orderId) ? await findOrderOfUser(deps.db, input.userId, input.orderId) : undefined;
  if (!order || order.status !== "paid") throw new OrderError("notFound");
  if (order.lapsedAt != null) throw new OrderError("ended");
  if (!order.renewing) throw new OrderError("notRenewing");
  const plan = cancellationPlan(order, deps.clock());
  return {
    orderId: order.id,
    items: await listOrderProducts(deps.db, order.id),
    period: order.period,
    ...plan,
  };
}

/**
 * "Manage payment": a Stripe Customer Portal session for the order's own customer. Only the
 * owner's paid Stripe order with a customer; everything else is noPortal / notFound.
 */
export async function paymentPortalUrl(
  deps: Pick<Deps, "db" | "config">,
  input: { userId: string; orderId: string; lang: Lang },
): Promise<string> {
  const order = isOrderId(input.orderId) ? await findOwnOrder(deps, input.userId, input.orderId) : undefined;
  if (!order || order.status !== "paid") throw new OrderError("notFound");
  if (deps.config.payments !== "stripe" || order.provider !== "stripe" || !order.customerId) {
    throw new OrderError("noPortal");
  }
  let url: string | null;
  try {
    url = await getPaymentProvider(deps.config).portalUrl(order, {
      returnUrl: `${deps.config.baseUrl.origin}/dashboard`,
      lang: input.lang,
    });
  } catch (err) {
    logger.error({ err, order: order.id }, "creating the customer portal session failed");
    throw new OrderError("portalFailed");
  }
  if (!url) throw new OrderError("noPortal");
  return url;
}

/** What the dashboard shows about an item's subscription. */
export interface ItemSubscription {
  orderId: string;
  /** Renews at paidUntil (true) or ends at endsAt (false). */
  renewing: boolean;
  paidUntil: number | null;
  /** When a cancelled subscription ends (≥ paidUntil for a monthly one inside the minimum term). */
  endsAt: number | null;
  /** A renewal payment failed: the card needs updating (issue #16). */
  paymentFailed: boolean;
}

/** Per item, the paid order that covers it longest; `productIds`: only these (a dashboard page). */
export async function listItemSubscriptions(
  deps: Pick<Deps, "db">,
  userId: string,
  productIds?: string[],
): Promise<Record<string, ItemSubscription>> {
  const out: Record<string, ItemSubscription> = {};
  for (const r of await listPaidOrderItemsOfUser(deps.db, userId, productIds)) {
    const prev = out[r.productId];
    if (prev && (prev.paidUntil ?? 0) >= (r.paidUntil ?? 0)) continue;
    out[r.productId] = {
      orderId: r.orderId,
      renewing: r.renewing,
      paidUntil: r.paidUntil,
      endsAt: r.endsAt,
      paymentFailed: r.paymentFailed,
    };
  }
  return out;
}

/** An order as its owner sees it on the test checkout and confirmation pages. */
export interface OrderView {
  id: string;
  provider: Order["provider"];
  status: Order["status"];
  paid: boolean;
  period: Period;
  currency: Currency;
  count: number;
  /** Major units (kronor, euro). */
  packagePrice: number;
  discount: number;
  total: number;
  paidUntil: number | null;
  /** Where the receipt goes: the account's email when verified, else none is sent. */
  receiptTo: string | null;
  address: Address | null;
  items: Array<{ id: string; name: string }>;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isOrderId(v: unknown): v is string {
  return typeof v === "string" && UUID_RE.test(v);
}

async function toView(deps: Pick<Deps, "db">, order: Order): Promise<OrderView> {
  const [items, user] = await Promise.all([
    listOrderProducts(deps.db, order.id),
    findUserForReceipt(deps.db, order.userId),
  ]);
  return {
    id: order.id,
    provider: order.provider,
    status: order.status,
    paid: order.status === "paid",
    period: order.period,
    currency: order.currency,
    count: order.count,
    packagePrice: order.packageAmount / 100,
    discount: order.discountAmount / 100,
    total: order.totalAmount / 100,
    paidUntil: order.paidUntil,
    receiptTo: user?.emailVerified ? user.email : null,
    address: order.address,
    items,
  };
}

/**
 * The user's own order: a personal one they made, or one they made in an organisation's
 * scope while they are still a member of it (decision 026: leaving ends access with the
 * membership). undefined otherwise.
 */
async function findOwnOrder(deps: Pick<Deps, "db">, userId: string, orderId: string): Promise<Order | undefined> {
  const order = await findOrderOfUser(deps.db, userId, orderId);
  if (!order || order.organisationId == null) return order;
  return (await findMembership(deps.db, order.organisationId, userId)) ? order : undefined;
}

/** The owner's order; another user's (or no) order is notFound alike. */
export async function getOrderView(deps: Pick<Deps, "db">, userId: string, orderId: string): Promise<OrderView> {
  const order = isOrderId(orderId) ? await findOwnOrder(deps, userId, orderId) : undefined;
  if (!order) throw new OrderError("notFound");
  return toView(deps, order);
}

/**
 * The one guard of the test checkout (page and payment): PAYMENTS=test, the user's own
 * order, made with the test provider. Still unpaid, its items must not be covered by
 * another paid order meanwhile (a second checkout for an item is never started).
 */
async function testCheckoutOrder(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  orderId: string,
): Promise<Order> {
  if (deps.config.payments !== "test") throw new OrderError("notFound");
  const order = isOrderId(orderId) ? await findOwnOrder(deps, userId, orderId) : undefined;
  // An invoice is paid on its invoice page (the organisation's admins), never here.
  if (!order || order.provider !== "test" || order.method === "invoice") throw new OrderError("notFound");
  if (order.status === "cancelled") throw new OrderError("checkoutCancelled");
  if (order.status === "pending") {
    const ids = await listOrderProductIds(deps.db, order.id);
    const products = await listOrderProductsForPayment(deps.db, ids);
    const now = deps.clock();
    if (products.some((p) => isItemPaid(p, now))) throw new OrderError("alreadyPaid");
  }
  return order;
}

/** The test checkout page's order (paid ones show `paid: true`: the page sends them on). */
export async function getTestCheckout(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: { userId: string; orderId: string },
): Promise<OrderView> {
  return toView(deps, await testCheckoutOrder(deps, input.userId, input.orderId));
}

/**
 * The test provider's "payment": the owner confirms on the local test checkout page and
 * the order is completed through applyPayment, exactly as Stripe's webhook would.
 */
export async function completeTestPayment(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: { userId: string; orderId: string },
): Promise<PaymentResult> {
  const order = await testCheckoutOrder(deps, input.userId, input.orderId);
  return applyPayment(deps, {
    eventId: `test:${order.id}`,
    eventType: "test.checkout.completed",
    orderId: order.id,
    paidAt: deps.clock(),
    amount: { total: order.totalAmount, currency: order.currency },
  });
}
