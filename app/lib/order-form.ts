/**
 * The order form (/order): which items, monthly or yearly, and which button. One parser
 * for the server action; messages are translation keys (orders.json). Browser-safe.
 */
import type { Address } from "./address";
import { isProductId } from "./ids";
import { DEFAULT_PERIOD, type Period } from "./pricing";

/** `pay` starts the checkout; `recalc` only recomputes the summary (no-JavaScript browsers). */
export const ORDER_INTENTS = ["pay", "recalc"] as const;
export type OrderIntent = (typeof ORDER_INTENTS)[number];

/** More ids than anyone owns is a forged request, not a big order. */
export const ORDER_MAX_ITEMS = 500;

export interface OrderFormValues {
  items: string[];
  payment: Period;
}

export type OrderFormError =
  | "orders.errors.nothingSelected"
  | "orders.errors.paymentInvalid"
  | "orders.errors.unknownItems"
  | "orders.errors.alreadyPaid"
  | "orders.errors.noAddress"
  | "orders.errors.checkoutFailed"
  | "orders.errors.notFound"
  | "orders.errors.notRenewing"
  | "orders.errors.cancelFailed";

export type ParsedOrderForm =
  | { ok: true; intent: OrderIntent; data: OrderFormValues }
  | { ok: false; intent: OrderIntent; values: OrderFormValues; error: OrderFormError };

export function parseOrderForm(form: FormData): ParsedOrderForm {
  const rawIntent = form.get("intent");
  const intent: OrderIntent = rawIntent === "recalc" ? "recalc" : "pay";
  const raw = form.getAll("items").filter((v): v is string => typeof v === "string");
  const items = [...new Set(raw)];
  const payment = form.get("payment");
  const period: Period = payment === "month" || payment === "year" ? payment : DEFAULT_PERIOD;
  // What the form shows again: only well-formed ids (never echo arbitrary input).
  const values: OrderFormValues = { items: items.filter(isProductId).slice(0, ORDER_MAX_ITEMS), payment: period };
  if (payment !== "month" && payment !== "year") {
    return { ok: false, intent, values, error: "orders.errors.paymentInvalid" };
  }
  if (items.length > ORDER_MAX_ITEMS || items.some((id) => !isProductId(id))) {
    return { ok: false, intent, values, error: "orders.errors.unknownItems" };
  }
  if (intent === "pay" && items.length === 0) {
    return { ok: false, intent, values, error: "orders.errors.nothingSelected" };
  }
  return { ok: true, intent, data: values };
}

/** An address as the lines of a label (empty fields left out). */
export function addressLines(a: Address): string[] {
  const name = [a.firstname, a.lastname].filter(Boolean).join(" ");
  const co = a.co ? `c/o ${a.co}` : "";
  const city = [a.zip, a.city].filter(Boolean).join(" ");
  return [name, co, a.address, a.address2, city, a.state, a.country].map((s) => s.trim()).filter(Boolean);
}
