/**
 * Tables that would only grow are pruned on a schedule (decision 012):
 * expired rate-limit counters, sent mail after 30 days, payment events after the
 * Swedish bookkeeping period (7 years, bokföringslagen 7 kap. 2 §), finder conversations
 * 180 days after their last message (decision 013). The periods are app/lib/domain/retention.ts, which
 * the privacy notice prints.
 */
import { bookkeepingCutoff, RETENTION_MS } from "~/lib/domain/retention";
import type { Dialect } from "../db/db.server";
import type { Deps } from "../service-deps.server";
import { deleteExpiredRateLimits } from "../rate-limit/rate-limit.server";
import { deleteScansBefore } from "../scans/scans.repository.server";
import { SCAN_RETENTION_MS } from "../scans/scans.service.server";
import { deleteExpiredConversations } from "../relay/relay.service.server";
import { deleteLookupsBefore } from "../lookup/lookup.repository.server";
import { deleteUnconfirmedBefore } from "../trusted-contacts/trusted-contacts.repository.server";
import { deleteBackoffsBefore } from "../outbox/outbox.repository.server";
import { deleteOldSmsQuotas } from "../alerts/alerts.repository.server";
import { deleteStaleNeverLinks } from "../recipients/recipients.service.server";
import { deleteOldIncoming } from "../sms-finder/sms-finder.service.server";
import { deleteExpiredIdempotencyKeys } from "../api/idempotency.server";
import { deleteWebhookRecordsBefore } from "../webhooks/webhooks.repository.server";
import * as repo from "./jobs.repository.server";

/** Longer than any rate-limit window (the longest is 60 minutes): a counter this old counts nothing. */
export const RATE_LIMIT_RETENTION_MS = RETENTION_MS.rateLimits;
export const SENT_MAIL_RETENTION_MS = RETENTION_MS.sentMail;
/** 7 years, leap days included (bokföringslagen: räkenskapsinformation sparas i sju år). */
export const PAYMENT_EVENT_RETENTION_MS = RETENTION_MS.paymentEvents;

export interface HousekeepingResult {
  rateLimits: number;
  sentMail: number;
  paymentEvents: number;
  /** Scan log rows older than a year (decision 014). */
  scans: number;
  /** Relay conversations 180 days after their last message (decision 013). */
  conversations: number;
  /** Staff look-ups of an item's owner after a year (decision 030). */
  lookups: number;
  /** Trusted contacts who never confirmed, 30 days after being named (decision 040). */
  trustedContactInvites: number;
  /** SMS and per-recipient counters whose window ended (decision 046). */
  messageCounters: number;
  /** Never links not sent for a year, unless their address is suppressed (decision 046). */
  neverLinks: number;
  /** Orders and receipts 7 years after the end of their financial year (decision 041). */
  orders: number;
  /** Delivery targets' pauses that ended a day ago and were never cleared (decision 049). */
  outboxBackoffs: number;
  /** 46elks' ids of incoming SMS handled a week ago (decision 055). */
  smsIncoming: number;
  /** The REST API's Idempotency-Keys after 24 hours (decision 054). */
  apiIdempotency: number;
  /** Webhook events and delivery attempts after 30 days (decision 061). */
  webhooks: number;
}

/**
 * One housekeeping run. Returns what was deleted, or null when another instance is
 * running it right now (PostgreSQL advisory lock).
 */
export async function runHousekeeping(
  deps: Pick<Deps, "db" | "clock">,
  dialect: Dialect,
): Promise<HousekeepingResult | null> {
  const now = deps.clock();
  return repo.withHousekeepingLock(deps.db, dialect, async (db) => ({
    rateLimits: await deleteExpiredRateLimits(db, now, RATE_LIMIT_RETENTION_MS),
    sentMail: await repo.deleteSentMailBefore(db, now - SENT_MAIL_RETENTION_MS),
    paymentEvents: await repo.deletePaymentEventsBefore(db, now - PAYMENT_EVENT_RETENTION_MS),
    scans: await deleteScansBefore(db, now - SCAN_RETENTION_MS),
    conversations: await deleteExpiredConversations({ db }, now),
    lookups: await deleteLookupsBefore(db, now - RETENTION_MS.lookups),
    trustedContactInvites: await deleteUnconfirmedBefore(db, now - RETENTION_MS.trustedContactInvites),
    messageCounters: await deleteOldSmsQuotas(db, now - RETENTION_MS.messageCounters),
    neverLinks: await deleteStaleNeverLinks({ db }, now - RETENTION_MS.neverLinks),
    orders: await repo.deleteBookkeepingBefore(db, bookkeepingCutoff(now)),
    outboxBackoffs: await deleteBackoffsBefore(db, now - RETENTION_MS.outboxBackoffs),
    smsIncoming: await deleteOldIncoming({ db }, now),
    apiIdempotency: await deleteExpiredIdempotencyKeys(db, now),
    webhooks: await deleteWebhookRecordsBefore(db, now - RETENTION_MS.webhooks),
  }));
}
