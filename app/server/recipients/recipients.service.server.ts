/**
 * Who may be messaged (decision 046). Someone who has not confirmed an address or number
 * gets at most one kind of message from Hittad: a consent request (a trusted contact's
 * invitation, a code to prove a number, an organisation's invitation, a billing-email
 * link). Every consent request passes `admitConsentRequest` in the transaction that queues
 * it: the asker's email is verified; the recipient did not say "never contact me again"
 * (the suppression list, across accounts and organisations); SMS only to the countries
 * the operator allows; at most two requests a day and five in 30 days to one address or
 * number, whoever asks (an anonymous finder's first mails have the same limits, counted
 * apart: decision 058); an SMS counts against the paying account and the day's budget.
 * Each carries a "never contact me again" link (`/t/n/{code}`); the person lifts the
 * suppression only themselves, from that link or by confirming a link or code that
 * reached them. No HTTP here (decision 011).
 */
import { createHash, createHmac } from "node:crypto";
import { DAY_MS } from "~/lib/domain/dates";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { readBool } from "../db/db.server";
import { ServiceError } from "../service-error.server";
import type { Deps } from "../service-deps.server";
import { hitSmsQuota } from "../sms/sms-quota.repository.server";
import { admitSms, smsCountryAllowed } from "../sms/sms-guard.server";
import * as repo from "./recipients.repository.server";

export { addressHash, canonicalAddress, type Channel } from "./recipients.repository.server";

export type RecipientsErrorCode =
  | "sender.unverified"
  | "recipient.suppressed"
  | "recipient.busyToday"
  | "recipient.busyMonth"
  | "sms.country"
  | "sms.quota"
  | "sms.budget"
  | "never.notFound";
/** `params.count`: hours (busyToday) or days (busyMonth) to wait; `params.codes`: the allowed calling codes. */
export class RecipientsError extends ServiceError<RecipientsErrorCode> {}

/** Consent requests one address or number may get, whoever asks: a day, and 30 days (finders' first mails apart, decision 058). */
export const RECIPIENT_DAY_LIMIT = 2;
export const RECIPIENT_MONTH_LIMIT = 5;
const MONTH_MS = 30 * DAY_MS;

/** A never link's code: 12 base64url characters (72 bits), like a short reply link. */
export const NEVER_CODE_LENGTH = 12;

/**
 * What the never page's functions use of Deps, spelt out: the email change's mail
 * (auth.server, which service-deps imports) asks this module too (decision 058), and a
 * Deps import here would close a cycle.
 */
type NeverDeps = { db: DB; clock: () => number };

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** Refuses an asker whose email is not verified: only an accountable account asks anyone anything. */
export async function requireVerifiedSender(deps: Pick<Deps, "db">, userId: string): Promise<void> {
  const { db } = deps;
  const row = await db.selectFrom("user").select("emailVerified").where("id", "=", userId).executeTakeFirst();
  if (!row || !readBool(row.emailVerified)) throw new RecipientsError("sender.unverified");
}

/** Refuses a number SMS may not go to (SMS_COUNTRIES), naming the codes that are allowed. */
export function requireSmsCountry(config: Pick<Config, "sms">, e164: string): void {
  if (!smsCountryAllowed(config, e164)) {
    throw new RecipientsError("sms.country", { codes: config.sms.countries.join(", ") });
  }
}

export interface ConsentRequest {
  channel: repo.Channel;
  /** The address (any case) or the E.164 number. */
  to: string;
  /** Who pays for an SMS: `account:{userId}`. */
  accountKey: string;
  /**
   * `finder`: an anonymous finder's request (the first mail of a conversation) counts against
   * limits of its own, so strangers posting on a sticker's page cannot use up an address's
   * allowance for the invitations its own people send (decision 058).
   */
  pool?: "finder";
}

/**
 * Checks and counts one consent request (see the module's comment); throws RecipientsError.
 * Call in the transaction that queues the message: a refusal rolls back what it counted.
 * Answers the "never contact me again" link the message must carry.
 */
export async function admitConsentRequest(
  deps: Pick<Deps, "db"> & { config: Pick<Config, "sms" | "authSecret" | "baseUrl"> },
  request: ConsentRequest,
  now: number,
): Promise<{ neverUrl: string }> {
  const { db, config } = deps;
  if (request.channel === "sms") requireSmsCountry(config, request.to);
  // Every spelling of one mailbox is one recipient (decision 058): checked in both forms,
  // counted on the canonical one.
  if (await repo.isSuppressed(db, repo.fingerprintsOf(request.channel, request.to))) {
    throw new RecipientsError("recipient.suppressed");
  }
  const hash = repo.canonicalHash(request.channel, request.to);
  const pool = request.pool ? `${request.pool}-` : "";
  const day = await hitSmsQuota(db, `${pool}to-day:${hash}`, RECIPIENT_DAY_LIMIT, DAY_MS, now);
  if (!day.ok) {
    throw new RecipientsError("recipient.busyToday", { count: waitOf(day.windowStart + DAY_MS - now, 3_600_000) });
  }
  const month = await hitSmsQuota(db, `${pool}to-month:${hash}`, RECIPIENT_MONTH_LIMIT, MONTH_MS, now);
  if (!month.ok) {
    throw new RecipientsError("recipient.busyMonth", { count: waitOf(month.windowStart + MONTH_MS - now, DAY_MS) });
  }
  if (request.channel === "sms") {
    const admitted = await admitSms(db, config, { accountKey: request.accountKey }, now);
    if (!admitted.ok) throw new RecipientsError(admitted.why === "budget" ? "sms.budget" : "sms.quota");
  }
  return { neverUrl: await neverUrl(deps, request.channel, request.to, now) };
}

/**
 * Whether admitConsentRequest would refuse this e-mail request now, without counting it:
 * for a page whose message is queued later by code that cannot answer the page (better-auth's
 * email change). Throws the RecipientsError it would; admitConsentRequest still decides.
 */
export async function previewConsentRequest(deps: Pick<Deps, "db">, to: string, now: number): Promise<void> {
  const { db } = deps;
  if (await repo.isSuppressed(db, repo.fingerprintsOf("email", to))) throw new RecipientsError("recipient.suppressed");
  const hash = repo.canonicalHash("email", to);
  if ((await repo.counterOf(db, `to-day:${hash}`, DAY_MS, now)) >= RECIPIENT_DAY_LIMIT) {
    throw new RecipientsError("recipient.busyToday", { count: 1 });
  }
  if ((await repo.counterOf(db, `to-month:${hash}`, MONTH_MS, now)) >= RECIPIENT_MONTH_LIMIT) {
    throw new RecipientsError("recipient.busyMonth", { count: 1 });
  }
}

const waitOf = (ms: number, unit: number) => Math.max(1, Math.ceil(ms / unit));

/** Relay mails one confirmed address may get a day, whoever writes (decision 058). */
export const RELAY_MAIL_DAY_LIMIT = 20;

/**
 * Checks and counts a mail to an address that confirmed itself (a finder's, decision 058):
 * not suppressed, at most RELAY_MAIL_DAY_LIMIT a day to one mailbox. Throws
 * RecipientsError; answers the never link the mail must carry.
 */
export async function admitRelayMail(
  deps: Pick<Deps, "db"> & { config: Pick<Config, "authSecret" | "baseUrl"> },
  to: string,
  now: number,
): Promise<{ neverUrl: string }> {
  const { db } = deps;
  if (await repo.isSuppressed(db, repo.fingerprintsOf("email", to))) throw new RecipientsError("recipient.suppressed");
  const day = await hitSmsQuota(db, `relay-day:${repo.canonicalHash("email", to)}`, RELAY_MAIL_DAY_LIMIT, DAY_MS, now);
  if (!day.ok) {
    throw new RecipientsError("recipient.busyToday", { count: waitOf(day.windowStart + DAY_MS - now, 3_600_000) });
  }
  return { neverUrl: await neverUrl(deps, "email", to, now) };
}

/** Whether messages may go to this address or number (not suppressed). */
export async function mayMessage(deps: Pick<Deps, "db">, channel: repo.Channel, to: string): Promise<boolean> {
  const { db } = deps;
  return !(await repo.isSuppressed(db, repo.fingerprintsOf(channel, to)));
}

/** Of these addresses and numbers, which are on the list, in either form (for a page of contacts). */
export async function suppressedAmong(
  deps: Pick<Deps, "db">,
  targets: { channel: repo.Channel; to: string }[],
): Promise<(channel: repo.Channel, to: string) => boolean> {
  const { db } = deps;
  const listed = await repo.suppressedOf(
    db,
    targets.flatMap((t) => repo.fingerprintsOf(t.channel, t.to)),
  );
  return (channel, to) => repo.fingerprintsOf(channel, to).some((h) => listed.has(h));
}

/**
 * The address's "never contact me again" link, remembered for the page: its code is an
 * HMAC (AUTH_SECRET) of the fingerprint, so every message to one address carries the same
 * link and the table holds one row per address. Keyed by the canonical form (decision 058):
 * a stop covers every spelling of the mailbox.
 */
export async function neverUrl(
  deps: Pick<Deps, "db"> & { config: Pick<Config, "authSecret" | "baseUrl"> },
  channel: repo.Channel,
  to: string,
  now: number,
): Promise<string> {
  const { db, config } = deps;
  const hash = repo.canonicalHash(channel, to);
  const code = createHmac("sha256", config.authSecret)
    .update(`never\n${hash}`)
    .digest("base64url")
    .slice(0, NEVER_CODE_LENGTH);
  await repo.rememberNeverLink(db, { codeHash: sha256(code), addressHash: hash, channel }, now);
  return new URL(`/t/n/${code}`, config.baseUrl).toString();
}

async function neverLinkOf(db: DB, code: string) {
  const link =
    code.length === NEVER_CODE_LENGTH && /^[A-Za-z0-9_-]+$/.test(code)
      ? await repo.findNeverLink(db, sha256(code))
      : undefined;
  if (!link) throw new RecipientsError("never.notFound");
  return link;
}

/** The never page: which channel the link came by, and whether that address is suppressed now. */
export async function readNeverLink(deps: Pick<NeverDeps, "db">, code: string) {
  const link = await neverLinkOf(deps.db, code);
  return { channel: link.channel, suppressed: await repo.isSuppressed(deps.db, link.addressHash) };
}

/** "Never contact me again": nothing more goes to that address, whoever asks. */
export async function neverContactAgain(deps: NeverDeps, code: string) {
  const link = await neverLinkOf(deps.db, code);
  await repo.suppress(deps.db, link.addressHash, link.channel, deps.clock());
  return { channel: link.channel };
}

/** The person changed their mind, from a link only they received: consent requests may come again. */
export async function allowContactAgain(deps: Pick<NeverDeps, "db">, code: string) {
  const link = await neverLinkOf(deps.db, code);
  await repo.unsuppress(deps.db, link.addressHash);
  return { channel: link.channel };
}

/** Suppresses addresses a trusted contact's stop covers (contacts.service; decision 046). */
export async function suppressAll(
  deps: Pick<Deps, "db">,
  targets: { channel: repo.Channel; to: string }[],
  now: number,
) {
  const { db } = deps;
  for (const t of targets) {
    for (const hash of repo.fingerprintsOf(t.channel, t.to)) await repo.suppress(db, hash, t.channel, now);
  }
}

/** Lifts the suppression of an address its owner just proved again (a confirmed link or code). */
export async function unsuppressAddress(deps: Pick<Deps, "db">, channel: repo.Channel, to: string): Promise<void> {
  const { db } = deps;
  await repo.unsuppress(db, repo.fingerprintsOf(channel, to));
}

/** Housekeeping: never links not sent for this long, unless their address is suppressed. */
export function deleteStaleNeverLinks(deps: Pick<Deps, "db">, before: number): Promise<number> {
  const { db } = deps;
  return repo.deleteNeverLinksBefore(db, before);
}
