/**
 * Incoming SMS to SMS_NUMBER through 46elks' webhook (decision 055). 46elks POSTs a form
 * (id, from, to, message, direction, created) to /webhooks/46elks/sms?secret=… and resends
 * until it gets 200–204; the body of the answer goes back to the sender as an SMS from
 * SMS_NUMBER. The order of the rules:
 *
 * 1. The secret, compared in constant time; wrong or unset: 404, nothing stored.
 * 2. 46elks' id is claimed once: a resend gets the first handling's answer again and stores
 *    nothing (a handling that failed gives its claim back, so the resend is handled).
 * 3. STOP puts the number on the suppression list (decision 046): no SMS of any kind goes to
 *    it again; answered once.
 * 4. Per sender number 10 SMS an hour, counted whatever RATE_LIMIT_DISABLED says; past it
 *    silence: nothing stored, no reply (a reply costs money).
 * 5. Then: a sticker's code opens (or continues) a conversation (finder-inbound.server.ts); a
 *    verified owner's number answers a conversation (owner-inbound.server.ts); anything else
 *    from a number with a conversation of the last 30 days continues it; the rest gets one
 *    short help text a day that says nothing about any item or owner.
 *
 * Every reply passes the cost guard before it is put in the answer. No HTTP here (decision
 * 011): the route maps the answer.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { DAY_MS } from "~/lib/domain/dates";
import { RETENTION_MS } from "~/lib/domain/retention";
import { getT } from "~/i18n/i18n";
import type { Deps } from "../service-deps.server";
import { hitRateLimit, type RateRule } from "../rate-limit/rate-limit.server";
import { canonicalHash, fingerprintsOf, isSuppressed } from "../recipients/recipients.repository.server";
import { suppressAll } from "../recipients/recipients.service.server";
import { admitSms } from "../sms/sms-guard.server";
import { finderSmsLang, maySmsFinder } from "./finder-sms.server";
import { continueByNumber, openByCode, type InboundDeps } from "./finder-inbound.server";
import { answerAsOwner } from "./owner-inbound.server";
import { isStopWord, splitMessageCode, splitOwnerRef } from "./message-code.server";
import * as repo from "./sms-finder.repository.server";

/** Decision 055: incoming SMS per sender number; past it, silence. */
export const SMS_IN_RULE: RateRule = { name: "sms:in", limit: 10, windowMs: 60 * 60_000 };
/** The help text for an unknown code goes once a day to a number. */
export const SMS_HELP_RULE: RateRule = { name: "sms:help", limit: 1, windowMs: DAY_MS };
/** 46elks resends for hours; an id is remembered this long (shown on /privacy). */
export const ELKS_ID_RETENTION_MS = RETENTION_MS.smsIncoming;
/** The longest message stored (the web form's limit). */
export const SMS_MESSAGE_MAX = 2000;

export type WebhookAnswer =
  { status: 404 } | { status: 400 } | { status: 503 } | { status: 200; reply: string } | { status: 204 };

const incomingSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/),
  from: z.string().regex(/^\+[1-9]\d{6,14}$/),
  to: z.string().max(40),
  message: z.string().max(10_000),
  direction: z.literal("incoming").optional(),
});
export type IncomingSms = z.infer<typeof incomingSchema>;

function sameSecret(given: string | null, expected: string | undefined): boolean {
  if (!expected || given === null) return false;
  const h = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(h(given), h(expected));
}

/** The one answer 46elks gets for an incoming SMS; `secret` is the URL's `?secret=`. */
export async function receiveElksSms(
  deps: Pick<Deps, "config" | "db" | "clock" | "events">,
  secret: string | null,
  form: URLSearchParams,
): Promise<WebhookAnswer> {
  const { config, db } = deps;
  if (!config.sms.number || !sameSecret(secret, config.sms.webhookSecret)) return { status: 404 };
  const parsed = incomingSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { status: 400 };
  const sms = parsed.data;
  const now = deps.clock();
  if (!(await repo.claimIncoming(db, sms.id, now))) {
    const reply = await repo.incomingReplyOf(db, sms.id);
    // A resend while the first is still being handled: not yet, so 46elks sends it again
    // (a 204 now would end its resends before the first handling is known to succeed).
    if (reply === null) return { status: 503 };
    return reply ? { status: 200, reply } : { status: 204 };
  }
  let reply: string | null;
  try {
    reply = await handle({ ...deps, clock: () => now }, sms, now);
  } catch (err) {
    // Nothing was answered: 46elks resends, and the resend is handled afresh.
    await repo.releaseIncoming(db, sms.id);
    throw err;
  }
  await repo.setIncomingReply(db, sms.id, reply);
  return reply ? { status: 200, reply } : { status: 204 };
}

async function handle(deps: InboundDeps, sms: IncomingSms, now: number): Promise<string | null> {
  const { db } = deps;
  const from = sms.from;
  const fingerprint = canonicalHash("sms", from);
  if (isStopWord(sms.message)) return stop(deps, from, now);
  const hit = await hitRateLimit(db, SMS_IN_RULE, fingerprint, now);
  if (!hit.ok) return null;
  const message = sms.message.trim().slice(0, SMS_MESSAGE_MAX);
  if (!message) return null;

  const coded = splitMessageCode(message);
  if (coded) {
    const opened = await openByCode(deps, from, coded.code, coded.rest || message, now);
    if (opened !== "unknown") return opened;
  }
  // A number that is both an owner's and a finder's: without a "#ref" the text continues
  // the conversation it started as a finder, never an answer to another finder.
  if (!splitOwnerRef(message).ref) {
    const continued = await continueByNumber(deps, from, message, now);
    if (continued !== "none") return continued;
  }
  const owned = await answerAsOwner(deps, from, message, now);
  if (owned !== "notOwner") return owned;
  return helpText(deps, from, now);
}

/** STOP: every SMS to the number ends here; the first STOP is answered (within the budget). */
async function stop(deps: InboundDeps, from: string, now: number): Promise<string | null> {
  const { db, config } = deps;
  const already = await isSuppressed(db, fingerprintsOf("sms", from));
  if (already) return null;
  await suppressAll(deps, [{ channel: "sms", to: from }], now);
  if (!config.sms.countries.some((c) => from.startsWith(c))) return null;
  return (await admitFinderText(deps, from, now)) ? getT(finderSmsLang(from))("smsFinder.stopped") : null;
}

/** The help text for a code that finds no paid item, once a day per number. */
async function helpText(deps: InboundDeps, from: string, now: number): Promise<string | null> {
  const { db, config } = deps;
  if (!(await hitRateLimit(db, SMS_HELP_RULE, canonicalHash("sms", from), now)).ok) return null;
  if (!(await maySmsFinder(db, config, from))) return null;
  return (await admitFinderText(deps, from, now)) ? getT(finderSmsLang(from))("smsFinder.help") : null;
}

/**
 * A reply about no item (help, STOP) is counted against the sender number's own 30 days
 * (SMS_LIMIT_PER_ACCOUNT_MONTH, by its fingerprint) and the day's budget.
 */
async function admitFinderText(deps: InboundDeps, from: string, now: number): Promise<boolean> {
  const admitted = await admitSms(deps.db, deps.config, { accountKey: `sms-in:${canonicalHash("sms", from)}` }, now);
  return admitted.ok;
}

/** Housekeeping: 46elks' ids of SMS handled more than a week ago. */
export function deleteOldIncoming(deps: Pick<Deps, "db">, now: number): Promise<number> {
  const { db } = deps;
  return repo.deleteIncomingBefore(db, now - ELKS_ID_RETENTION_MS);
}
