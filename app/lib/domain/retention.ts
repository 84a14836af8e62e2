/**
 * How long Hittad keeps each kind of personal data that is deleted on a schedule. The
 * housekeeping job (app/server/jobs/jobs.service.server.ts) deletes by
 * these numbers and the privacy notice (/privacy) prints them: one source, so the page
 * cannot say something other than what the code deletes
 * (tests/integration/privacy.test.ts compares the two).
 *
 * Browser-safe: numbers only.
 */
import { DAY_MS } from "./dates";

export const RETENTION_MS = {
  /** Rate-limit counters (keyed by IP address or account): longer than any window (60 min). */
  rateLimits: DAY_MS,
  /** Sent mail (addresses, links): 30 days, long enough to answer "did you get my mail?". */
  sentMail: 30 * DAY_MS,
  /** Finder conversations, counted from their last message (decision 013). */
  conversations: 180 * DAY_MS,
  /** The scan log (time, page language, device class): a year of history (decision 014). */
  scans: 365 * DAY_MS,
  /**
   * The log of staff look-ups of an item's owner (decision 030): a year, so an owner who
   * asks "who looked at my details?" gets an answer, and no longer than that.
   */
  lookups: 365 * DAY_MS,
  /** A trusted contact who never confirmed (decision 033): forgotten 30 days after being named. */
  trustedContactInvites: 30 * DAY_MS,
  /**
   * Counters of messages (decision 046): SMS per item and account, consent requests per
   * address or number (a fingerprint): longer than their longest window (30 days).
   */
  messageCounters: 31 * DAY_MS,
  /**
   * "Never contact me again" links (a fingerprint of the address they were sent to), a
   * year after the last message that carried one; kept while that address is suppressed.
   */
  neverLinks: 365 * DAY_MS,
  /**
   * A pause of a delivery target that timed out (decision 049): the address, number or push
   * service's host it names, kept a day after the pause ended.
   */
  outboxBackoffs: DAY_MS,
  /**
   * The SMS provider's ids of incoming SMS already handled (decision 055: 46elks resends for
   * hours): no number and no text, a week after they arrived.
   */
  smsIncoming: 7 * DAY_MS,
  /** The REST API's Idempotency-Keys and the answers kept for them (decision 054): a day. */
  apiIdempotency: DAY_MS,
  /**
   * The organisations' webhook events as sent (a finder's message text among them) and their
   * delivery log (decision 061): 30 days, ten times the 3 days of retries, long enough to
   * resend from the log and answer "did you send it?".
   */
  webhooks: 30 * DAY_MS,
  /** Payment events: the Swedish bookkeeping period, 7 years with leap days (bokföringslagen 7 kap. 2 §). */
  paymentEvents: Math.ceil(7 * 365.25) * DAY_MS,
  /**
   * Orders, receipts and invoices, the bookkeeping records (decision 041): 7 years from the end
   * of the financial (calendar) year they belong to (bokföringslagen 7 kap. 2 §); see
   * bookkeepingCutoff. Erasing an account keeps them without the person (privacy.repository).
   */
  orders: Math.ceil(7 * 365.25) * DAY_MS,
} as const;

export type RetentionKind = keyof typeof RETENTION_MS;

/** The kinds in the order the privacy notice lists them. */
export const RETENTION_KINDS = Object.keys(RETENTION_MS) as RetentionKind[];

/**
 * Bookkeeping records dated before this moment have been kept 7 years after the end of their
 * financial year (the calendar year, in Swedish time): housekeeping deletes them. The year
 * is that of `now` minus the period; Swedish time is UTC+1 on 1 January.
 */
export function bookkeepingCutoff(now: number): number {
  const year = new Date(now - RETENTION_MS.orders).getUTCFullYear();
  return Date.UTC(year, 0, 1) - 60 * 60_000;
}

/** A period as people say it: whole years when it is one (365 or 2,557 days), else days. */
export function retentionPeriod(ms: number): { unit: "years" | "days"; count: number } {
  const days = Math.round(ms / DAY_MS);
  const years = Math.round(days / 365.25);
  if (years >= 1 && Math.abs(days - years * 365.25) <= 1) return { unit: "years", count: years };
  return { unit: "days", count: days };
}
