/**
 * A trusted contact's own pages (decisions 040, 046): the confirmation link and the stop
 * link. Each address and number confirms on its own: the mailed link's button confirms the
 * address (the link reached that mailbox); a number confirms only with the code sent to
 * it — in the SMS invitation when no address was given, or, for a contact who confirmed
 * their address, a code they ask for on the page. A contact who confirms a link or code
 * that reached them asks again themselves, so that address leaves the suppression list. A
 * stop holds for the address or number it came by and every one the contact confirmed,
 * whoever names them again. No HTTP here (decision 011).
 */
import { createHash } from "node:crypto";
import { getT } from "~/i18n/i18n";
import type { Lang } from "~/i18n/config";
import { firstName } from "~/lib/domain/first-name";
import { maskPhone } from "~/lib/domain/phone";
import type { Deps } from "../service-deps.server";
import {
  newPhoneCode,
  PHONE_CODE_TRIES,
  PHONE_CODE_TTL_MS,
  phoneCodeHash,
  readPhoneCode,
  samePhoneCodeHash,
} from "../recipients/phone-code.server";
import { enqueueSms } from "../mail/mail.server";
import { findOrganisation } from "../organisations/organisations.repository.server";
import { hitRateLimit, type RateRule } from "../rate-limit/rate-limit.server";
import {
  admitConsentRequest,
  mayMessage,
  suppressAll,
  unsuppressAddress,
} from "../recipients/recipients.service.server";
import { isShortCode, readStopToken } from "./contact-links.server";
import { ContactsError } from "./trusted-contacts.service.server";
import * as repo from "./trusted-contacts.repository.server";

/** How long a confirmation link works. */
export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;
/**
 * Codes to a contact's number (recipients/phone-code.server.ts rules): new codes per contact an
 * hour (each costs an SMS to someone who did not ask), and checks per contact an hour on
 * top of five tries per code. Counted whatever RATE_LIMIT_DISABLED says, like the owner's.
 */
export const CONTACT_CODE_RULE: RateRule = { name: "trusted:code", limit: 3, windowMs: 60 * 60_000 };
export const CONTACT_VERIFY_RULE: RateRule = { name: "trusted:verify", limit: 15, windowMs: 60 * 60_000 };

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** The code's stored form: bound to the contact and the number it was sent to. */
export function contactCodeHash(
  config: Pick<Deps["config"], "authSecret">,
  contactId: string,
  phone: string,
  code: string,
) {
  return phoneCodeHash(config.authSecret, ["trusted", contactId, phone], code);
}

async function ownerOf(db: Deps["db"], c: repo.ContactRow) {
  return db.selectFrom("user").select(["name"]).where("id", "=", c.userId).executeTakeFirst();
}

/**
 * What the confirmation page asks for now: "email" (the button: invited by mail, address
 * not confirmed yet), "code" (a code was sent to the number and is waiting), "phone" (the
 * address is confirmed; a code can be sent to the number), or "done".
 */
export type ConfirmStep = "email" | "code" | "phone" | "done";

/** The address or number the invitation went to (and the confirmation link came by). */
function invitedChannel(c: repo.ContactRow): { channel: "email" | "sms"; to: string } {
  return c.email ? { channel: "email", to: c.email } : { channel: "sms", to: c.phone! };
}

function stepOf(c: repo.ContactRow, now: number): ConfirmStep {
  if (c.email && c.emailConfirmedAt === null) return "email";
  if (!c.phone || c.phoneConfirmedAt !== null) return "done";
  const waiting = c.confirmCodeHash !== null && (c.confirmCodeExpiresAt ?? 0) > now;
  return waiting || !c.email ? "code" : "phone";
}

/**
 * The confirmation page. Before the contact agreed it shows no text the owner typed but
 * their first name (decision 046): who asked, in Hittad's words. ContactsError notFound if
 * the link is not valid.
 */
export async function readConfirmation(deps: Pick<Deps, "db" | "clock">, token: string) {
  const c = await repo.findContactByConfirmHash(deps.db, sha256(token));
  const now = deps.clock();
  if (!c || c.confirmSentAt === null || c.confirmSentAt + CONFIRM_TTL_MS < now) {
    throw new ContactsError("notFound");
  }
  const owner = await ownerOf(deps.db, c);
  const t = getT(c.language === "sv" ? "sv" : "en");
  const invited = invitedChannel(c);
  return {
    who: firstName(owner?.name, t("trusted.someone")),
    desk: c.organisationId !== null,
    step: stepOf(c, now),
    /** The invited address or number said "never contact me again". */
    declined: !(await mayMessage(deps, invited.channel, invited.to)),
    /** The number a code goes to, masked but recognisable to its holder ("+46 70… 67"), on one line. */
    phone: c.phone ? `${maskPhone(c.phone)}\u00a0${c.phone.slice(-2)}`.replace(" ", "\u00a0") : null,
    contact: c,
  };
}

/**
 * Confirms what the page asked for. The address: the button is enough (the link came to
 * that inbox). The number: `typedCode` must be the six digits sent to it — valid 10
 * minutes, five tries counted before they are checked, fifteen checks an hour.
 */
export async function confirmContact(
  deps: Pick<Deps, "db" | "config" | "clock" | "events">,
  token: string,
  typedCode = "",
) {
  const found = await readConfirmation(deps, token);
  const c = found.contact;
  const now = deps.clock();
  const confirmed = { contactId: c.id, userId: c.userId, organisationId: c.organisationId, at: now };
  if (found.step === "email") {
    await repo.markConfirmed(deps.db, c.id, "email", now);
    // The recipients take the address off their "never contact me" list (decision 053).
    await deps.events.emit("contactConfirmed", { ...confirmed, channel: "email", to: c.email! }, deps);
  } else if (found.step === "code") {
    const code = readPhoneCode(typedCode);
    if (!code) throw new ContactsError("code.invalid");
    const hit = await hitRateLimit(deps.db, CONTACT_VERIFY_RULE, c.id, now);
    if (!hit.ok) throw new ContactsError("rateLimited", { count: hit.retryAfterMinutes });
    const attempt = await repo.countConfirmCodeAttempt(deps.db, c.id, PHONE_CODE_TRIES, now);
    if (!attempt) throw new ContactsError("code.expired");
    if (!samePhoneCodeHash(attempt.codeHash, contactCodeHash(deps.config, c.id, c.phone ?? "", code))) {
      const left = PHONE_CODE_TRIES - attempt.attempts;
      if (left <= 0) throw new ContactsError("code.expired");
      throw new ContactsError("code.wrong", { count: left });
    }
    await repo.markConfirmed(deps.db, c.id, "phone", now);
    await deps.events.emit("contactConfirmed", { ...confirmed, channel: "sms", to: c.phone! }, deps);
  }
  return readConfirmation(deps, token);
}

/**
 * "No thanks, never contact me again" on the confirmation page (the SMS invitation has no
 * room for a second link): the invited address or number goes on the suppression list.
 */
export async function declineInvitation(deps: Pick<Deps, "db" | "clock">, token: string) {
  const found = await readConfirmation(deps, token);
  await suppressAll(deps, [invitedChannel(found.contact)], deps.clock());
  return readConfirmation(deps, token);
}

/** They changed their mind on the same page: the invited address or number may be asked again. */
export async function allowInvitation(deps: Pick<Deps, "db" | "clock">, token: string) {
  const found = await readConfirmation(deps, token);
  const invited = invitedChannel(found.contact);
  await unsuppressAddress(deps, invited.channel, invited.to);
  return readConfirmation(deps, token);
}

/**
 * A code to the contact's number: a new one for a contact reached only by SMS (the old
 * one expired or was tried five times), or the first for a contact who confirmed their
 * address and wants SMS too. A consent request like the invitation (admitConsentRequest);
 * its SMS pays against the account that named them.
 */
export async function resendConfirmCode(deps: Pick<Deps, "db" | "config" | "clock">, token: string) {
  const found = await readConfirmation(deps, token);
  const c = found.contact;
  if ((found.step !== "code" && found.step !== "phone") || !c.phone) throw new ContactsError("notFound");
  const now = deps.clock();
  const hit = await hitRateLimit(deps.db, CONTACT_CODE_RULE, c.id, now);
  if (!hit.ok) throw new ContactsError("rateLimited", { count: hit.retryAfterMinutes });
  const code = newPhoneCode();
  const language: Lang = c.language === "sv" ? "sv" : "en";
  await deps.db.transaction().execute(async (trx) => {
    const { neverUrl } = await admitConsentRequest(
      { db: trx, config: deps.config },
      { channel: "sms", to: c.phone!, accountKey: `account:${c.userId}` },
      now,
    );
    await repo.setConfirmCode(trx, c.id, contactCodeHash(deps.config, c.id, c.phone!, code), now + PHONE_CODE_TTL_MS);
    const t = getT(language);
    await enqueueSms(trx, { to: c.phone!, text: t("trusted.sms.code", { code, never: neverUrl }) }, now);
  });
  return readConfirmation(deps, token);
}

/** Whose contact they are, as messages after consent name it: the organisation for a desk contact. */
export async function ownerOfContact(
  deps: Pick<Deps, "db">,
  c: { userId: string; organisationId: string | null },
): Promise<string> {
  const { db } = deps;
  if (c.organisationId) return (await findOrganisation(db, c.organisationId))?.name ?? "";
  const row = await db.selectFrom("user").select("name").where("id", "=", c.userId).executeTakeFirst();
  return row?.name ?? "";
}

/**
 * The contact a stop link opens, and the channel it came by: a long token is only ever
 * mailed (and shown on a reply page opened from a mail), a short code only ever texted.
 */
async function contactOfStopLink(deps: Pick<Deps, "db" | "config">, token: string) {
  if (isShortCode(token, "stop")) {
    const link = await repo.findLink(deps.db, sha256(token), "stop");
    const contact = link ? await repo.findContact(deps.db, link.contactId) : undefined;
    return contact && { contact, channel: "sms" as const };
  }
  const id = readStopToken(deps.config, token);
  const contact = id ? await repo.findContact(deps.db, id) : undefined;
  return contact && { contact, channel: "email" as const };
}

/** What the stop covers: the address or number the link came by, and every one the contact confirmed. */
function stopTargets(c: repo.ContactRow, via: "email" | "sms") {
  const targets: { channel: "email" | "sms"; to: string }[] = [];
  if (c.email && (via === "email" || c.emailConfirmedAt !== null)) targets.push({ channel: "email", to: c.email });
  if (c.phone && (via === "sms" || c.phoneConfirmedAt !== null)) targets.push({ channel: "sms", to: c.phone });
  return targets;
}

export async function readStop(deps: Pick<Deps, "db" | "config">, token: string) {
  const found = await contactOfStopLink(deps, token);
  if (!found) throw new ContactsError("notFound");
  const { contact: c, channel } = found;
  const address = channel === "email" ? c.email : c.phone;
  return {
    name: c.name,
    owner: await ownerOfContact(deps, c),
    stopped: c.stoppedAt !== null,
    /** The address or number the link came by is on the suppression list. */
    suppressed: address !== null && !(await mayMessage(deps, channel, address)),
    channel,
    contact: c,
  };
}

/**
 * "Stop": nothing more reaches the contact, and the addresses the stop covers go on the
 * suppression list, so naming them again (from any account or organisation) sends nothing.
 */
export async function stopContact(deps: Pick<Deps, "db" | "config" | "clock">, token: string) {
  const found = await readStop(deps, token);
  const now = deps.clock();
  await repo.markStopped(deps.db, found.contact.id, now);
  await suppressAll(deps, stopTargets(found.contact, found.channel), now);
  return { ...found, stopped: true, suppressed: true };
}

/**
 * The contact changed their mind, from the stop link that reached them: the address or
 * number it came by may get consent requests again (an owner names them anew; this
 * contact stays stopped).
 */
export async function allowAfterStop(deps: Pick<Deps, "db" | "config">, token: string) {
  const found = await readStop(deps, token);
  const address = found.channel === "email" ? found.contact.email : found.contact.phone;
  if (address) await unsuppressAddress(deps, found.channel, address);
  return { ...found, suppressed: false };
}
