/**
 * The order form (/order): which items, monthly or yearly, and which button. One parser
 * for the server action; messages are translation keys (orders.json). Browser-safe.
 */
import type { Address } from "../domain/address";
import { countryCodeOf, countryName, HOME_COUNTRY } from "../domain/countries";
import { isItemId } from "../domain/ids";
import { isOneTimeMethod, type PayWith } from "../domain/one-time-payment";
import { DEFAULT_PERIOD, type Period } from "../domain/pricing";

/** Who takes the payment (config PAYMENTS). */
export type Provider = "test" | "stripe";
/**
 * pending: checkout started; paid: the first payment arrived; duplicate: paid while all its
 * items were already covered by another order, so nothing was activated (decision 012);
 * cancelled: never paid and abandoned for 24 hours (decision 016), its checkout expired.
 */
export type OrderStatus = "pending" | "paid" | "duplicate" | "cancelled" | "invoiced";

/** How an order is paid: a card checkout, or an invoice with 30 days' terms (organisations, decision 027). */
export type PaymentMethod = "card" | "invoice";

export function toPaymentMethod(v: string): PaymentMethod {
  return v === "invoice" ? "invoice" : "card";
}

export function toProvider(v: string): Provider {
  return v === "stripe" ? "stripe" : "test";
}

export function toOrderStatus(v: string): OrderStatus {
  return v === "paid" || v === "duplicate" || v === "cancelled" || v === "invoiced" ? v : "pending";
}

/**
 * `pay` starts the checkout; `invoice` sends an invoice (organisation admins, decision 027);
 * `recalc` only recomputes the summary (no-JavaScript browsers).
 */
export const ORDER_INTENTS = ["pay", "invoice", "recalc"] as const;
export type OrderIntent = (typeof ORDER_INTENTS)[number];

/** More ids than anyone owns is a forged request, not a big order. */
export const ORDER_MAX_ITEMS = 500;

/**
 * The most items one "all unpaid" order covers. A provider takes at most 999,999.99 per
 * line (Stripe's unit_amount); 2,000 items yearly are 400,000 kr or 40,000 euro, well
 * within it, and more are ordered in a second order (filter by type, or tick items).
 */
export const ORDER_MAX_ALL_UNPAID = 2000;

/**
 * selected: the ticked items; allUnpaid: every unpaid item matching the page's filter
 * (decision 021: an owner of 5,000 items), chosen by the server from the database.
 */
export const ORDER_SCOPES = ["selected", "allUnpaid"] as const;
export type OrderScope = (typeof ORDER_SCOPES)[number];

export interface OrderFormValues {
  items: string[];
  payment: Period;
  scope: OrderScope;
  /** The consumer asked for the service to start at once (decision 041); the service requires it. */
  immediateStart: boolean;
  /** The card subscription, or one year paid at once (decision 056); the service checks it is offered. */
  payWith: PayWith;
}

/** What the parser refuses (translation keys); the service's refusals are OrderError codes. */
export type OrderFormError = "orderErrors.nothingSelected" | "orderErrors.paymentInvalid" | "orderErrors.unknownItems";

export type ParsedOrderForm =
  | { ok: true; intent: OrderIntent; data: OrderFormValues }
  | { ok: false; intent: OrderIntent; values: OrderFormValues; error: OrderFormError };

export function parseOrderForm(form: FormData): ParsedOrderForm {
  const rawIntent = form.get("intent");
  const intent: OrderIntent = rawIntent === "recalc" ? "recalc" : rawIntent === "invoice" ? "invoice" : "pay";
  const raw = form.getAll("items").filter((v): v is string => typeof v === "string");
  const items = [...new Set(raw)];
  const payment = form.get("payment");
  const period: Period = payment === "month" || payment === "year" ? payment : DEFAULT_PERIOD;
  const scope: OrderScope = form.get("scope") === "allUnpaid" ? "allUnpaid" : "selected";
  // What the form shows again: only well-formed ids (never echo arbitrary input).
  const values: OrderFormValues = {
    items: items.filter(isItemId).slice(0, ORDER_MAX_ITEMS),
    payment: period,
    scope,
    immediateStart: form.get("immediateStart") === "yes",
    payWith: parsePayWith(form.get("payWith")),
  };
  if (payment !== "month" && payment !== "year") {
    return { ok: false, intent, values, error: "orderErrors.paymentInvalid" };
  }
  if (items.length > ORDER_MAX_ITEMS || items.some((id) => !isItemId(id))) {
    return { ok: false, intent, values, error: "orderErrors.unknownItems" };
  }
  if (intent !== "recalc" && scope === "selected" && items.length === 0) {
    return { ok: false, intent, values, error: "orderErrors.nothingSelected" };
  }
  return { ok: true, intent, data: values };
}

/** The "pay with" radio: a known one-time method, else the card (its default). */
export function parsePayWith(v: FormDataEntryValue | null): PayWith {
  return isOneTimeMethod(v) ? v : "card";
}

/**
 * An address as the lines of a label (empty fields left out), written the way the
 * destination country's post reads it (decision 032): "123 45 Uppsala" in Sweden and
 * most of Europe, the town and the postcode on lines of their own in the UK, "City, ST
 * 12345" in North America and Australia. The country line is the country's name in `lang`;
 * on a posted label (`label`) it is omitted for Sweden, where the stickers are posted
 * from, and in capitals in English elsewhere, as the post asks.
 */
export function addressLines(a: Address, opts: { lang?: string; label?: boolean } = {}): string[] {
  const lang = opts.lang ?? "en";
  const name = [a.firstname, a.lastname].filter(Boolean).join(" ");
  const co = a.co ? `c/o ${a.co}` : "";
  const code = countryCodeOf(a.country);
  const zip = a.zip.trim();
  const city = a.city.trim();
  const state = a.state.trim();
  let place: string[];
  if (code === "GB" || code === "IE") {
    place = [city.toUpperCase(), state, zip];
  } else if (code === "US" || code === "CA" || code === "AU") {
    place = [[city, [state, zip].filter(Boolean).join(" ")].filter(Boolean).join(", ")];
  } else {
    place = [[zip, city].filter(Boolean).join(" "), state];
  }
  const country =
    code === null
      ? a.country
      : opts.label
        ? code === HOME_COUNTRY
          ? ""
          : countryName(code, "en").toUpperCase()
        : countryName(code, lang);
  return [name, co, a.address, a.address2, ...place, country].map((s) => s.trim()).filter(Boolean);
}
