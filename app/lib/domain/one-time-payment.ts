/**
 * A year paid at once (decision 056): Swish, and Klarna where enabled, have no recurring
 * mandate, so the yearly plan is paid for one year through a Stripe Checkout Session in
 * payment mode, renewed by the owner after a reminder. Browser-safe.
 */
import type { Currency } from "./currency";

/**
 * The one-time methods Hittad knows how to offer and name (STRIPE_ONE_TIME_METHODS lists
 * some of them; each is a Stripe `payment_method_types` value).
 */
export const ONE_TIME_METHODS = ["swish", "klarna"] as const;
export type OneTimeMethod = (typeof ONE_TIME_METHODS)[number];

/** How an order is paid at checkout: a card subscription that renews, or one year at once. */
export type PaymentKind = "subscription" | OneTimeMethod;

/** The order page's choice: the card (renews) or a one-time method. */
export type PayWith = "card" | OneTimeMethod;

export function isOneTimeMethod(v: unknown): v is OneTimeMethod {
  return typeof v === "string" && (ONE_TIME_METHODS as readonly string[]).includes(v);
}

export function toPaymentKind(v: string | null | undefined): PaymentKind {
  return isOneTimeMethod(v) ? v : "subscription";
}

/** The currencies each method takes: Swish only Swedish kronor; Klarna kronor and euro. */
const CURRENCIES: Record<OneTimeMethod, readonly Currency[]> = {
  swish: ["SEK"],
  klarna: ["SEK", "EUR"],
};

/**
 * The one-time methods offered for an order in `currency`, of those enabled, in the order
 * the operator listed them. The server asks the same before it starts a checkout.
 */
export function offeredOneTimeMethods(enabled: readonly OneTimeMethod[], currency: Currency): OneTimeMethod[] {
  return enabled.filter((m) => CURRENCIES[m].includes(currency));
}

/** Only the yearly plan is paid a year at a time. */
export function oneTimeAllowed(period: "month" | "year"): boolean {
  return period === "year";
}

/**
 * A Swedish mobile number as Swish takes it (the test provider's phone step): 07X then
 * seven digits, or +46 7X …; spaces and dashes allowed. Answers 467XXXXXXXX, or null.
 */
export function swishNumber(raw: string): string | null {
  const digits = raw.replace(/[\s-]/g, "");
  const m = /^(?:\+46|0046|0)(7\d{8})$/.exec(digits);
  return m ? `46${m[1]}` : null;
}

/** The 30 and 7 days before a paid year ends, when the owner is reminded to renew. */
export const YEAR_REMINDER_LEADS = [30, 7] as const;

/** Where a reminder and the dashboard's "Renew" lead: a one-year checkout for that order's items. */
export function renewHref(orderId: string): string {
  return `/order/${orderId}/renew`;
}

/**
 * What an order is paid with, as the API and the webhooks report it (`paymentMethod`,
 * decision 056): an invoice, a card subscription, or one year by Swish or Klarna. The older
 * `method` field keeps its meaning, checkout (`card`) or invoice.
 */
export const PAYMENT_METHODS = ["card", "swish", "klarna", "invoice"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export function paymentMethodOf(order: { method: string; paymentKind: string | null | undefined }): PaymentMethod {
  if (order.method === "invoice") return "invoice";
  const kind = toPaymentKind(order.paymentKind);
  return kind === "subscription" ? "card" : kind;
}
