/**
 * The consumer's right of withdrawal (ångerrätt, decision 041): 14 days from the payment,
 * and the refund of a service that started at the consumer's request, pro rata for the
 * days used (lagen (2005:59) om distansavtal och avtal utanför affärslokaler, 2 kap. 12
 * och 15 §§). Browser-safe: numbers only.
 */
import { DAY_MS, stockholmDayStart } from "./dates";
import { periodEnd, type Period } from "./pricing";

export const WITHDRAWAL_DAYS = 14;

/**
 * The last moment the consumer may withdraw: the end of the 14th Swedish day after the day
 * the payment made the contract (the day of the contract is not counted; decision 052). A
 * purchase at 00:57 in Stockholm on 28 November may be withdrawn until 12 December 23:59:59.999
 * Swedish time, whatever the UTC date of the payment was.
 */
export function withdrawalDeadline(paidAt: number): number {
  return stockholmDayStart(paidAt, WITHDRAWAL_DAYS + 1) - 1;
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
