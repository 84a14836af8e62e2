/**
 * A year paid at once (decision 056): which payment kind an order gets, and where a
 * renewal's year starts so that no day is paid twice. Shared by the checkout and
 * applyPayment; no HTTP here (decision 011).
 */
import type { Lang } from "~/i18n/config";
import type { Currency } from "~/lib/domain/currency";
import { offeredOneTimeMethods, oneTimeAllowed, type PaymentKind, type PayWith } from "~/lib/domain/one-time-payment";
import type { Period } from "~/lib/domain/pricing";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { OrderError } from "./order-error.server";
import type { Order } from "./orders.repository.server";
import { latestCoverEnds } from "./one-time.repository.server";

/** The price table's language of a currency (kronor: Swedish prices, euro: English). */
export function langOfCurrency(currency: Currency): Lang {
  return currency === "SEK" ? "sv" : "en";
}

/**
 * The order's payment kind from the owner's choice, checked here whatever the browser
 * showed: a one-time method must be enabled, offered in the order's currency (Swish only
 * in kronor) and the plan yearly.
 */
export function chosenPaymentKind(
  config: Pick<Config, "oneTimeMethods">,
  payWith: PayWith | undefined,
  period: Period,
  currency: Currency,
): PaymentKind {
  if (payWith === undefined || payWith === "card") return "subscription";
  if (!offeredOneTimeMethods(config.oneTimeMethods, currency).includes(payWith)) {
    throw new OrderError("payWithUnavailable");
  }
  if (!oneTimeAllowed(period)) throw new OrderError("payWithYearlyOnly");
  return payWith;
}

/** Where a renewal's year starts: the latest end of what covers its items now (null: at payment). */
export async function renewalStart(db: DB, itemIds: readonly string[], now: number): Promise<number | null> {
  // The renewal is not stored yet: every paid order counts.
  const ends = await latestCoverEnds(db, itemIds, "", now);
  return ends.size === 0 ? null : Math.max(...ends.values());
}

/**
 * For a renewal's payment (applyPayment): each item covered by another paid order, with
 * that order's end. Its year starts at the latest of them, so renewing early adds the year
 * to the end, and two renewals paid both stack; not a duplicate payment.
 */
export async function renewalEnds(
  trx: DB,
  order: Pick<Order, "id" | "renewalOf">,
  itemIds: readonly string[],
  now: number,
): Promise<Map<string, number>> {
  if (order.renewalOf == null) return new Map();
  return latestCoverEnds(trx, itemIds, order.id, now);
}
