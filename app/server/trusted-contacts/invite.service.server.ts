/**
 * Naming a trusted contact (decisions 040, 046): the one consent request they get. Only an
 * account with a verified email asks; the request goes to one address — the email when
 * one is given (the number confirms later, by a code the contact asks for on the page),
 * else the number — and passes admitConsentRequest (not suppressed, allowed country, two a
 * day and five in 30 days to one recipient, the SMS quota and budget). It carries no text
 * the owner typed but their first name (never in a subject), says who asked in Hittad's
 * words, and offers "never contact me again": a link in the mail; in the SMS (one part,
 * with the code) the page it links to, whose second button declines for good. No HTTP
 * here (decision 011).
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { getT } from "~/i18n/i18n";
import type { Lang } from "~/i18n/config";
import { FIRST_NAME_MAX, firstName } from "~/lib/domain/first-name";
import { normalizePhone } from "~/lib/domain/phone";
import { fitSms, smsName } from "~/lib/domain/sms-text";
import { TRUSTED_CONTACTS_MAX, TRUSTED_NAME_MAX, isPlausibleEmail } from "~/lib/domain/trusted-contacts";
import type { Deps } from "../service-deps.server";
import { newPhoneCode, PHONE_CODE_TTL_MS } from "../recipients/phone-code.server";
import { enqueueMail, enqueueSms } from "../mail/mail.server";
import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import { admitConsentRequest, requireSmsCountry, requireVerifiedSender } from "../recipients/recipients.service.server";
import { confirmUrl } from "./contact-links.server";
import { contactCodeHash } from "./confirm.service.server";
import { ContactsError, deskDpaAccepted, requireDeskAdmin } from "./trusted-contacts.service.server";
import * as repo from "./trusted-contacts.repository.server";

/** Invitations per account a day: each is a mail or an SMS to someone else. */
export const INVITE_RULE: RateRule = { name: "trusted:invite", limit: 10, windowMs: 24 * 60 * 60_000 };

/** A confirmation link: 144 bits by mail; 72 bits by SMS, where it shares one part with the code and the never link. */
const MAIL_TOKEN_BYTES = 18;
const SMS_TOKEN_BYTES = 9;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

export interface ContactInput {
  name: string;
  email: string;
  phone: string;
}

/** Adds a contact and sends the one consent request (mail when there is an address, else SMS). */
export function addContact(deps: Pick<Deps, "db" | "config" | "clock">, userId: string, input: ContactInput) {
  return inviteContact(deps, userId, null, input);
}

/**
 * Adds a contact of an organisation's desk (its unassigned items): current admins only
 * (notFound for anyone else), once the organisation accepted the data processing
 * agreement (the contact's details are the organisation's data, decision 030). Up to
 * three per organisation; they confirm, stop and are chosen per item like an account's.
 */
export async function addDeskContact(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  organisationId: string,
  input: ContactInput,
) {
  await requireDeskAdmin(deps, organisationId, userId);
  if (!(await deskDpaAccepted(deps, organisationId))) throw new ContactsError("dpaRequired");
  return inviteContact(deps, userId, organisationId, input);
}

function readInput(input: ContactInput) {
  const name = input.name.replace(/\s+/g, " ").trim();
  if (!name || name.length > TRUSTED_NAME_MAX) throw new ContactsError("name.invalid");
  const email = input.email.trim().toLowerCase();
  if (email && !isPlausibleEmail(email)) throw new ContactsError("email.invalid");
  const phoneTyped = input.phone.trim();
  const phone = phoneTyped ? normalizePhone(phoneTyped) : null;
  if (phoneTyped && !phone) throw new ContactsError("phone.invalid");
  if (!email && !phone) throw new ContactsError("reach.missing");
  return { name, email: email || null, phone };
}

async function inviteContact(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  organisationId: string | null,
  input: ContactInput,
): Promise<void> {
  const now = deps.clock();
  const { name, email, phone } = readInput(input);
  await requireVerifiedSender(deps, userId);
  // A number SMS can never reach is refused now, not when the contact asks for a code.
  if (phone) requireSmsCountry(deps.config, phone);
  const owner = await deps.db
    .selectFrom("user")
    .select(["name", "language"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!owner) throw new ContactsError("notFound");
  const language: Lang = owner.language === "sv" ? "sv" : "en";
  const limited = await rateLimiter(deps.config, deps.db)(INVITE_RULE, userId, now);
  if (!limited.ok) throw new ContactsError("rateLimited", { count: limited.retryAfterMinutes });
  const token = randomBytes(email ? MAIL_TOKEN_BYTES : SMS_TOKEN_BYTES).toString("base64url");
  const id = randomUUID();
  // Only a number: a code by SMS, typed on the page the SMS links to (an address: the link).
  const code = email ? null : newPhoneCode();
  await deps.db.transaction().execute(async (trx) => {
    await repo.lockContactsOf(trx, userId, organisationId);
    const named = organisationId
      ? await repo.listDeskContacts(trx, organisationId)
      : await repo.listContacts(trx, userId);
    if (named.length >= TRUSTED_CONTACTS_MAX) {
      throw new ContactsError("tooMany", { count: TRUSTED_CONTACTS_MAX });
    }
    const { neverUrl } = await admitConsentRequest(
      { db: trx, config: deps.config },
      { channel: email ? "email" : "sms", to: email ?? phone!, accountKey: `account:${userId}` },
      now,
    );
    await repo.insertContact(trx, {
      id,
      userId,
      name,
      email,
      phone,
      language,
      confirmTokenHash: sha256(token),
      confirmSentAt: now,
      confirmedAt: null,
      stoppedAt: null,
      createdAt: now,
      confirmCodeHash: code && phone ? contactCodeHash(deps.config, id, phone, code) : null,
      confirmCodeExpiresAt: code ? now + PHONE_CODE_TTL_MS : null,
      confirmCodeAttempts: 0,
      organisationId,
      emailConfirmedAt: null,
      phoneConfirmedAt: null,
    });
    const t = getT(language);
    const who = firstName(owner.name, t("trusted.someone"));
    const kind = organisationId ? "deskInvite" : "invite";
    const url = confirmUrl(deps.config, token);
    if (email) {
      await enqueueMail(
        trx,
        {
          to: email,
          subject: t(`trusted.mail.${kind}.subject`),
          text: t(`trusted.mail.${kind}.text`, { who, url, never: neverUrl }),
        },
        now,
      );
    } else if (phone && code) {
      // GSM-7 only, so a name cannot push the text to UCS-2's 70 characters (decision 040).
      const smsWho = smsName(who, FIRST_NAME_MAX) || t("trusted.someone");
      const sms = fitSms((first) => t("trusted.sms.invite", { who: first, code, url }), smsWho);
      await enqueueSms(trx, { to: phone, text: sms.text }, now);
    }
  });
}
