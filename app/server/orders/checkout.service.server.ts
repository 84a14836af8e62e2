/**
 * Checkout (decisions 008 and 012): creating an order from the owner's selection (totals always
 * recomputed here), starting its checkout at the provider, and the local test checkout
 * that completes it through applyPayment. No HTTP here (decision 011).
 */
import { randomUUID } from "node:crypto";
import type { Lang } from "~/i18n/config";
import { isCompletePostalAddress } from "~/lib/domain/address";
import { orderAheadStart } from "./order-ahead.server";
import { vatOfGross } from "~/lib/domain/vat";
import { orderTotals, type Period } from "~/lib/domain/pricing";
import { swishNumber, type PayWith } from "~/lib/domain/one-time-payment";
import { failOneTimePayment } from "./one-time-payments.service.server";
import { chosenPaymentKind, langOfCurrency, renewalStart } from "./one-time.server";
import { ORDER_MAX_ALL_UNPAID } from "~/lib/forms/order-form";
import type { Deps } from "../service-deps.server";
import { listFilteredItemIds } from "../access/items.repository.server";
import { type ItemFilter } from "~/lib/domain/item-filter";
import { logger } from "../logger.server";
import { getOrderAddress } from "../order-draft/order-draft.service.server";
import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import {
  insertOrder,
  listOrderItemIds,
  listItemsForPayment,
  listOrderItemsForPayment,
  updateOrder,
  type InvoiceBuyer,
  type Order,
} from "./orders.repository.server";
import { requireOrderViewer } from "./order-access.server";
import { OrderError } from "./order-error.server";
import { toView, unpaidOf, type OrderView } from "./order-page.service.server";
import { applyPayment, type PaymentResult } from "./payment-events.service.server";

/**
 * Orders a user may start (decision 012): each one can end in a receipt mail and a checkout
 * at the provider, so a script must not start thousands. Ten an hour is far more than an
 * owner retrying a failed checkout needs.
 */
export const ORDER_RATE_RULE: RateRule = { name: "orders:user", limit: 10, windowMs: 60 * 60_000 };

export interface OrderInput {
  userId: string;
  /** The items ticked (ignored with allUnpaid). */
  itemIds: string[];
  /** Instead of ticked ids: every unpaid item of the owner that this filter matches. */
  allUnpaid?: ItemFilter;
  /** The active organisation whose items "all unpaid" means (decision 022); null: personal items. */
  organisationId?: string | null;
  period: Period;
  lang: Lang;
  /**
   * The consumer ticked "start the service at once" (decision 041): required for a personal
   * card checkout, stored with its time on the order. Business orders (an organisation's
   * scope, invoices) have no right of withdrawal and are not asked.
   */
  immediateStart?: boolean;
  /**
   * A renewal whose year starts after the consumer's 14 days (decision 056): nothing of it is
   * performed while they may withdraw, so there is nothing to ask and nothing to record.
   */
  startsAfterWithdrawal?: boolean;
  /** The card subscription (default) or one year paid at once (decision 056); invoices ignore it. */
  payWith?: PayWith;
  /** A renewal of this paid-once order (decision 056): its year starts where the paid one ends. */
  renewalOf?: Order | null;
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
      ? await listFilteredItemIds(
          db,
          { owner: input.userId, organisationId: input.organisationId ?? null },
          unpaid,
          deps.clock(),
        )
      : []
    : [...new Set(input.itemIds)];
  if (ids.length === 0) throw new OrderError("nothingSelected");
  if (ids.length > ORDER_MAX_ALL_UNPAID) throw new OrderError("tooManyItems", { max: ORDER_MAX_ALL_UNPAID });
  const now = deps.clock();
  const limit = await rateLimiter(deps.config, db)(ORDER_RATE_RULE, input.userId, now);
  if (!limit.ok) throw new OrderError("rateLimited", { count: limit.retryAfterMinutes });
  // Every id in the order's scope (decision 022 review): an organisation is billed, and its
  // admins see the order, for its own items only; a personal order holds personal items.
  const rows = await listItemsForPayment(db, input.userId, ids, input.organisationId ?? null);
  if (rows.length !== ids.length) throw new OrderError("unknownItems");
  // A prepaid sticker's item may be ordered ahead (decision 036); any other paid one not,
  // unless this order renews the paid-once order that covers it (decision 056).
  const startsAt = input.renewalOf
    ? await renewalStart(deps.db, ids, now)
    : await orderAheadStart(deps, rows, now, invoice !== null);
  const address = await getOrderAddress(deps, input.userId, input.organisationId ?? null);
  // Stickers need somewhere to go (decision 018): name, street, postal code, city, country, email.
  if (!address || !isCompletePostalAddress(address)) throw new OrderError("noAddress");
  // A renewal is priced in the currency the year was paid in, at today's prices.
  const priceLang = input.renewalOf ? langOfCurrency(input.renewalOf.currency) : input.lang;
  const totals = orderTotals({ lang: priceLang, period: input.period, count: ids.length });
  const paymentKind = invoice
    ? "subscription"
    : chosenPaymentKind(deps.config, input.payWith, input.period, totals.currency);
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
    // Only a consumer's (personal, card) order records the request; it decides the refund
    // on withdrawal (pro rata for the days used, decision 041).
    immediateStartAt:
      input.immediateStart && !input.startsAfterWithdrawal && !invoice && (input.organisationId ?? null) === null
        ? now
        : null,
    withdrawnAt: null,
    refundAmount: null,
    refundedAt: null,
    refundId: null,
    startsAt,
    paymentKind,
    renewalOf: input.renewalOf?.id ?? null,
    paymentIntentId: null,
    paymentFailure: null,
  };
  const guard = invoice
    ? { orgNumber: invoice.buyer.orgNumber, creditItems: deps.config.invoiceCreditItems, now }
    : null;
  const refused = await insertOrder(db, order, ids, guard);
  if (refused?.reason === "creditLimit") {
    throw new OrderError("invoiceCreditLimit", { used: refused.used, max: refused.max });
  }
  if (refused) throw new OrderError(refused.reason === "overdue" ? "invoiceOverdue" : "alreadyInvoiced");
  return order;
}

/**
 * The order page's "pay": creates the order and starts its checkout at the provider
 * (configured by PAYMENTS), keeping the provider's checkout id. Returns where the browser
 * goes next.
 */
export async function startCheckout(
  deps: Pick<Deps, "db" | "config" | "payments" | "clock">,
  input: OrderInput,
): Promise<{ url: string }> {
  // A consumer's explicit request to start at once before the withdrawal period ends
  // (distansavtalslagen 2 kap. 13 §, decision 041): without it no checkout starts, unless
  // the service starts only after that period (a renewal bought early, decision 056).
  if ((input.organisationId ?? null) === null && input.immediateStart !== true && !input.startsAfterWithdrawal) {
    throw new OrderError("immediateStartRequired");
  }
  const order = await createOrder(deps, input);
  try {
    // createOrder refused an order without an address email.
    const email = order.address?.email.trim() ?? "";
    const start = await deps.payments.startCheckout({ order, email, lang: input.lang, now: deps.clock() });
    // Stripe's trial end for an order placed ahead (decision 036): its first period starts then.
    if (start.checkoutId || start.startsAt !== undefined)
      await updateOrder(deps.db, order.id, {
        ...(start.checkoutId ? { checkoutId: start.checkoutId } : {}),
        ...(start.startsAt !== undefined ? { startsAt: start.startsAt } : {}),
        updatedAt: deps.clock(),
      });
    return { url: start.url };
  } catch (err) {
    logger.error({ err, order: order.id }, "starting the checkout failed");
    throw new OrderError("checkoutFailed");
  }
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
  const order = await requireOrderViewer(deps, userId, orderId, "payer");
  // An invoice is paid on its invoice page (the organisation's admins), never here.
  if (order.provider !== "test" || order.method === "invoice") throw new OrderError("notFound");
  if (order.status === "cancelled") throw new OrderError("checkoutCancelled");
  // A renewal (decision 056) is for items still paid: its year starts where theirs ends.
  if (order.status === "pending" && order.renewalOf == null) {
    const ids = await listOrderItemIds(deps.db, order.id);
    const items = await listOrderItemsForPayment(deps.db, ids);
    const now = deps.clock();
    await orderAheadStart(deps, items, now, false);
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
  deps: Pick<Deps, "db" | "config" | "clock" | "payments" | "events">,
  input: { userId: string; orderId: string; phone?: string; decline?: boolean },
): Promise<PaymentResult> {
  const order = await testCheckoutOrder(deps, input.userId, input.orderId);
  // The simulated Swish step (decision 056): the payer's number, then approved or declined in "the app".
  if (order.paymentKind === "swish" && order.status === "pending" && swishNumber(input.phone ?? "") === null) {
    throw new OrderError("swishNumberInvalid");
  }
  if (input.decline) {
    return failOneTimePayment(deps, {
      eventId: `test:declined:${order.id}`,
      eventType: "test.payment.declined",
      orderId: order.id,
      failure: "declined",
      final: true,
    });
  }
  return applyPayment(deps, {
    eventId: `test:${order.id}`,
    eventType: "test.checkout.completed",
    orderId: order.id,
    paidAt: deps.clock(),
    amount: { total: order.totalAmount, currency: order.currency },
  });
}
