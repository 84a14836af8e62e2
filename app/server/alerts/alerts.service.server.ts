/**
 * The owner's side of alerts (decision 033): the verified mobile number (a six-digit code by
 * SMS, valid 10 minutes, five tries, a few codes an hour), the alert settings (event ×
 * channel), the delivery records shown in a conversation, and 46elks' delivery reports.
 * No HTTP here (decision 011): alerts.http.server.ts maps AlertsError codes.
 */
import { getT } from "~/i18n/i18n";
import type { AlertSettings } from "~/lib/domain/alerts";
import { formatPhone, normalizePhone } from "~/lib/domain/phone";
import type { Deps } from "../service-deps.server";
import { enqueueSms } from "../mail/mail.server";
import { hitRateLimit, type RateRule } from "../rate-limit/rate-limit.server";
import { admitConsentRequest, requireSmsCountry, requireVerifiedSender } from "../recipients/recipients.service.server";
import { ServiceError } from "../service-error.server";
import * as repo from "./alerts.repository.server";
import { reportTokenHash } from "./owner-alert.server";
import {
  newPhoneCode,
  PHONE_CODE_TRIES,
  PHONE_CODE_TTL_MS,
  phoneCodeHash,
  readPhoneCode,
  samePhoneCodeHash,
} from "../recipients/phone-code.server";

export { PHONE_CODE_TRIES, PHONE_CODE_TTL_MS };
/**
 * Codes sent per user: each costs an SMS and could be aimed at someone else's number.
 * Counted whatever RATE_LIMIT_DISABLED says (it is money, not comfort).
 */
export const PHONE_CODE_RULE: RateRule = { name: "phone:code", limit: 3, windowMs: 60 * 60_000 };
/** Code checks per user an hour, on top of the five tries per code. */
export const PHONE_VERIFY_RULE: RateRule = { name: "phone:verify", limit: 15, windowMs: 60 * 60_000 };

export type AlertsErrorCode =
  "phone.invalid" | "phone.rateLimited" | "code.invalid" | "code.wrong" | "code.expired" | "code.rateLimited";
/** `params.count`: minutes to wait (rateLimited), tries left (code.wrong). */
export class AlertsError extends ServiceError<AlertsErrorCode> {}

/** The code's hash: keyed with AUTH_SECRET, bound to the user and number it was sent for. */
function codeHash(secret: string, userId: string, phone: string, code: string): string {
  return phoneCodeHash(secret, [userId, phone], code);
}

export interface PhoneState {
  /** The verified number, formatted. */
  verified: string | null;
  /** A number waiting for its code, formatted (null: none, or its code expired). */
  pending: string | null;
}

export async function getPhoneState(deps: Pick<Deps, "db" | "clock">, userId: string): Promise<PhoneState> {
  const row = await repo.readPhone(deps.db, userId);
  const now = deps.clock();
  return {
    verified: row?.phone && row.verifiedAt !== null ? formatPhone(row.phone) : null,
    pending:
      row?.pendingPhone && row.codeExpiresAt !== null && row.codeExpiresAt > now && row.codeAttempts < PHONE_CODE_TRIES
        ? formatPhone(row.pendingPhone)
        : null,
  };
}

/**
 * Sends a six-digit code to the typed number (any format lib/domain/phone.ts reads). The number
 * is not proven yet, so the code is a consent request (decision 046): a verified account
 * only, an allowed country, not a number that asked never to be contacted, the
 * per-recipient limits, the account's SMS quota and the day's budget; the SMS carries the
 * "never contact me again" link.
 */
export async function requestPhoneCode(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  lang: "en" | "sv",
  typed: string,
): Promise<void> {
  const { db, config } = deps;
  const phone = normalizePhone(typed);
  if (!phone) throw new AlertsError("phone.invalid");
  await requireVerifiedSender(deps, userId);
  requireSmsCountry(config, phone);
  const now = deps.clock();
  const hit = await hitRateLimit(db, PHONE_CODE_RULE, userId, now);
  if (!hit.ok) throw new AlertsError("phone.rateLimited", { count: hit.retryAfterMinutes });
  const code = newPhoneCode();
  const t = getT(lang);
  await db.transaction().execute(async (trx) => {
    const { neverUrl } = await admitConsentRequest(
      { db: trx, config },
      { channel: "sms", to: phone, accountKey: `account:${userId}` },
      now,
    );
    await repo.setPendingPhone(trx, userId, {
      phone,
      codeHash: codeHash(config.authSecret, userId, phone, code),
      expiresAt: now + PHONE_CODE_TTL_MS,
    });
    await enqueueSms(trx, { to: phone, text: t("alerts.sms.code", { code, never: neverUrl }) }, now);
  });
}

/** Checks the code; the number is the user's verified one from then on. */
export async function confirmPhoneCode(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  typed: string,
): Promise<void> {
  const { db, config } = deps;
  const code = readPhoneCode(typed);
  if (!code) throw new AlertsError("code.invalid");
  const now = deps.clock();
  const hit = await hitRateLimit(db, PHONE_VERIFY_RULE, userId, now);
  if (!hit.ok) throw new AlertsError("code.rateLimited", { count: hit.retryAfterMinutes });
  // The try is counted in the statement that checks one is left (concurrent guesses).
  const attempt = await repo.countCodeAttempt(db, userId, PHONE_CODE_TRIES, now);
  if (!attempt) throw new AlertsError("code.expired");
  if (!samePhoneCodeHash(attempt.codeHash, codeHash(config.authSecret, userId, attempt.pendingPhone, code))) {
    const left = PHONE_CODE_TRIES - attempt.attempts;
    if (left <= 0) throw new AlertsError("code.expired");
    throw new AlertsError("code.wrong", { count: left });
  }
  await repo.confirmPhone(db, userId, attempt.pendingPhone, now);
}

export async function removePhone(deps: Pick<Deps, "db">, userId: string): Promise<void> {
  await repo.deletePhone(deps.db, userId);
}

export function getAlertSettings(deps: Pick<Deps, "db">, userId: string): Promise<AlertSettings> {
  return repo.readSettings(deps.db, userId);
}

export function saveAlertSettings(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  settings: AlertSettings,
): Promise<void> {
  return repo.writeSettings(deps.db, userId, settings, deps.clock());
}

/** The deliveries of a conversation's alerts, for its owner. */
export function listConversationDeliveries(deps: Pick<Deps, "db">, userId: string, conversationId: string) {
  return repo.listDeliveriesOfConversation(deps.db, userId, conversationId);
}

/** The statuses 46elks documents for a delivery report (https://46elks.se/docs/sms-delivery-reports). */
export const ELKS_REPORT_STATUSES = ["sent", "delivered", "failed"] as const;

/**
 * 46elks' delivery report (a POST to the `whendelivered` URL with `id`, `status` =
 * sent | delivered | failed, `delivered` = when). The URL's secret is the only proof (46elks
 * does not sign reports): a report whose secret matches no SMS changes nothing.
 * Every documented status is recorded (decision 055: a 404 to "sent" made 46elks resend it
 * for hours); another is acknowledged and changes nothing. Returns whether it matched.
 */
export async function recordSmsReport(
  deps: Pick<Deps, "db" | "clock">,
  token: string,
  report: { status: string | null; delivered: string | null },
): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return false;
  const outcome = ELKS_REPORT_STATUSES.find((s) => s === report.status) ?? null;
  // 46elks sends "2026-11-26T14:02:11.123456" (UTC); anything unreadable: now.
  const parsed = report.delivered
    ? Date.parse(/Z|[+-]\d\d:?\d\d$/.test(report.delivered) ? report.delivered : `${report.delivered}Z`)
    : NaN;
  const at = Number.isFinite(parsed) ? parsed : deps.clock();
  return repo.recordDeliveryReport(deps.db, reportTokenHash(token), outcome, at);
}
