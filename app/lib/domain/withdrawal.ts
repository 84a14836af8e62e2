/**
 * The consumer's right of withdrawal (ångerrätt, decision 041): 14 days from the payment,
 * and the refund of a service that started at the consumer's request, pro rata for the
 * days used (lagen (2005:59) om distansavtal och avtal utanför affärslokaler, 2 kap. 12
 * och 15 §§). Browser-safe: numbers only.
 */
import { DAY_MS, stockholmDayStart, stockholmIsoDay } from "./dates";
import { periodEnd, type Period } from "./pricing";
import { isSwedishWorkingDay } from "./swedish-holidays";

export const WITHDRAWAL_DAYS = 14;

/**
 * No deadline is later than this after its payment: 15 Swedish days, plus at most five days
 * off in a row (julafton on a Wednesday: to the Monday after), plus a summer-time hour.
 * A bound for looking up the orders that may still be withdrawn.
 */
export const LATEST_WITHDRAWAL_MS = (WITHDRAWAL_DAYS + 1 + 6) * DAY_MS;

/**
 * The last moment the consumer may withdraw: the end of the 14th Swedish day after the day
 * the payment made the contract (the day of the contract is not counted; decision 052). A
 * purchase at 00:57 in Stockholm on 28 November may be withdrawn until 14 December 23:59:59.999
 * Swedish time (the 12th is a Saturday), whatever the UTC date of the payment was. A 14th
 * day that is a Saturday, Sunday, public holiday, midsommarafton, julafton or nyårsafton
 * moves to the next working day (lagen (1930:173) om beräkning av lagstadgad tid, decision 057).
 */
export function withdrawalDeadline(paidAt: number): number {
  let days = WITHDRAWAL_DAYS;
  while (!isSwedishWorkingDay(stockholmIsoDay(stockholmDayStart(paidAt, days)))) days++;
  return stockholmDayStart(paidAt, days + 1) - 1;
}

export interface WithdrawalRefund {
  /** What goes back (minor units). */
  refund: number;
  /** What the consumer pays for the days used (minor units). */
  kept: number;
  /** Whole days since the service started (a day begun is not counted). */
  daysUsed: number;
  /** Days of the first period (28–31 for a month, 365–366 for a year). */
  periodDays: number;
}

/**
 * The refund, in minor units (öre, cents), of `total`, what was paid. Without the
 * consumer's request to start at once everything goes back. With it, the days used are
 * paid for: whole days since the service started (a day begun is free), as a share of the
 * first period's days, rounded down to the öre. Both roundings favour the consumer, and
 * kept + refund is always exactly the total. An order placed ahead for prepaid items
 * (decision 036) starts at `startsAt`: withdrawn before it, no day was used.
 */
export function withdrawalRefund(input: {
  total: number;
  period: Period;
  paidAt: number;
  immediateStartAt: number | null;
  now: number;
  startsAt?: number | null;
}): WithdrawalRefund {
  const start = Math.max(input.paidAt, input.startsAt ?? 0);
  const periodDays = Math.max(1, Math.round((periodEnd(start, input.period) - start) / DAY_MS));
  if (input.immediateStartAt == null || input.now < start) {
    return { refund: input.total, kept: 0, daysUsed: 0, periodDays };
  }
  const daysUsed = Math.min(periodDays, Math.max(0, Math.floor((input.now - start) / DAY_MS)));
  const kept = Math.floor((input.total * daysUsed) / periodDays);
  return { refund: input.total - kept, kept, daysUsed, periodDays };
}

/**
 * How long a checkout may take between the page and the payment: a Stripe Checkout Session
 * is open for 24 hours. A renewal's 14 days run from its payment, at the latest then.
 */
export const CHECKOUT_OPEN_MS = DAY_MS;

/**
 * What a consumer is told and asked about the withdrawal of a year's renewal (decision 056):
 * - `atOnce`: the year starts at the payment (the paid one has ended): as on /order, the
 *   service starts at once only at the consumer's explicit request (decision 041);
 * - `withinPeriod`: the year starts where the paid one ends, before the 14 days from the
 *   payment are over: the same request, for that date;
 * - `afterPeriod`: the year starts after the 14 days, even for a payment made as late as the
 *   checkout allows: nothing of the service is performed while the consumer may withdraw,
 *   so nothing is asked, nothing is recorded, and a withdrawal gives everything back;
 * - `business`: an organisation's order has no right of withdrawal.
 */
export type RenewalWithdrawal = "atOnce" | "withinPeriod" | "afterPeriod" | "business";

export function renewalWithdrawal(input: { consumer: boolean; startsAt: number; now: number }): RenewalWithdrawal {
  if (!input.consumer) return "business";
  if (input.startsAt <= input.now) return "atOnce";
  return input.startsAt <= withdrawalDeadline(input.now + CHECKOUT_OPEN_MS) ? "withinPeriod" : "afterPeriod";
}

/** Whether the consumer must ask for the service to start before the withdrawal period ends. */
export function needsStartRequest(kind: RenewalWithdrawal): boolean {
  return kind === "atOnce" || kind === "withinPeriod";
}
