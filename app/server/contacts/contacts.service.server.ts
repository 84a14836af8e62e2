/**
 * Trusted contacts (decision 040): up to three people an account names
 * (name, email and/or mobile). Nothing reaches them before they confirm through the link
 * they were sent (by mail, or by SMS when they gave only a number), and every message
 * carries a link that stops them. Per item the owner may leave contacts out (default: all
 * confirmed contacts get its finder messages and lost-mode alerts). A contact answers the
 * finder through a private reply link (no account); the reply goes through the relay as
 * the owner's side, and the owner sees it, with the contact's name, in the conversation.
 * No HTTP here (decision 011).
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { getT } from "~/i18n/i18n";
import type { Lang } from "~/i18n/config";
import { normalizePhone, formatPhone, maskEmail } from "~/lib/phone";
import { smsName } from "~/lib/sms-text";
import { TRUSTED_CONTACTS_MAX, TRUSTED_NAME_MAX, isPlausibleEmail } from "~/lib/trusted-contacts";
import type { Deps } from "../service-deps.server";
import { findItemById, listItemsOfOwner } from "../items/items.repository.server";
import {
  newPhoneCode,
  PHONE_CODE_TRIES,
  PHONE_CODE_TTL_MS,
  phoneCodeHash,
  readPhoneCode,
  samePhoneCodeHash,
} from "../alerts/phone-code.server";
import { enqueueMail, enqueueSms } from "../mail/mail.server";
import { hitRateLimit, rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import { findConversationOfOwner, findDeskConversation, listMessagesOf } from "../relay/relay.repository.server";
import { findMembership, findOrganisation } from "../organisations/organisations.repository.server";
import { listDeskItems } from "../items/items.repository.server";
import { storeOwnerSideReply } from "../relay/relay.service.server";
import { ServiceError } from "../service-error.server";
import { confirmUrl, isShortCode, readReplyToken, readStopToken, stopUrl } from "./contact-links.server";
import * as repo from "./contacts.repository.server";

export type ContactsErrorCode =
  | "name.invalid"
  | "email.invalid"
  | "phone.invalid"
  | "reach.missing"
  | "tooMany"
  | "rateLimited"
  | "notFound"
  | "reply.invalid"
  | "code.invalid"
  | "code.wrong"
  | "code.expired";
/** `params.count`: contacts allowed (tooMany), minutes to wait (rateLimited), tries left (code.wrong). */
export class ContactsError extends ServiceError<ContactsErrorCode> {}

/** How long a confirmation link works. */
export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;
/** Invitations per account an hour: each is a mail or an SMS to someone else. */
export const INVITE_RULE: RateRule = { name: "trusted:invite", limit: 10, windowMs: 60 * 60_000 };
/** Replies per contact an hour. */
export const CONTACT_REPLY_RULE: RateRule = { name: "trusted:reply", limit: 20, windowMs: 60 * 60_000 };
export const REPLY_MAX = 2000;
/**
 * A contact reached only by SMS confirms with a code (the owner's number rules,
 * alerts/phone-code.server.ts): new codes per contact an hour (each costs an SMS to
 * someone who did not ask), and checks per contact an hour on top of five tries per code.
 * Counted whatever RATE_LIMIT_DISABLED says, like the owner's.
 */
export const CONTACT_CODE_RULE: RateRule = { name: "trusted:code", limit: 3, windowMs: 60 * 60_000 };
export const CONTACT_VERIFY_RULE: RateRule = { name: "trusted:verify", limit: 15, windowMs: 60 * 60_000 };

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

export interface ContactView {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  status: "pending" | "confirmed" | "stopped";
}

function statusOf(c: repo.ContactRow): ContactView["status"] {
  return c.stoppedAt !== null ? "stopped" : c.confirmedAt !== null ? "confirmed" : "pending";
}

export async function listContacts(deps: Pick<Deps, "db">, userId: string): Promise<ContactView[]> {
  return (await repo.listContacts(deps.db, userId)).map((c) => ({
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone ? formatPhone(c.phone) : null,
    status: statusOf(c),
  }));
}

export interface ContactInput {
  name: string;
  email: string;
  phone: string;
}

/** Adds a contact and sends the confirmation link (mail when there is an address, else SMS). */
export function addContact(deps: Pick<Deps, "db" | "config" | "clock">, userId: string, input: ContactInput) {
  return inviteContact(deps, userId, null, input);
}

/**
 * Adds a contact of an organisation's desk (its unassigned items): admins only (notFound
 * for anyone else, as the organisation's other pages answer outsiders). Up to three per
 * organisation; they confirm, stop and are chosen per item like an account's contacts.
 */
export async function addDeskContact(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  organisationId: string,
  input: ContactInput,
) {
  await requireDeskAdmin(deps.db, organisationId, userId);
  return inviteContact(deps, userId, organisationId, input);
}

/** The organisation's name, if `userId` is one of its admins; else ContactsError notFound. */
async function requireDeskAdmin(db: Deps["db"], organisationId: string, userId: string): Promise<string> {
  const membership = await findMembership(db, organisationId, userId);
  const org = membership?.role === "admin" ? await findOrganisation(db, organisationId) : undefined;
  if (!org) throw new ContactsError("notFound");
  return org.name;
}

async function inviteContact(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  organisationId: string | null,
  input: ContactInput,
): Promise<void> {
  const now = deps.clock();
  const name = input.name.replace(/\s+/g, " ").trim();
  if (!name || name.length > TRUSTED_NAME_MAX) throw new ContactsError("name.invalid");
  const email = input.email.trim().toLowerCase();
  if (email && !isPlausibleEmail(email)) throw new ContactsError("email.invalid");
  const phoneTyped = input.phone.trim();
  const phone = phoneTyped ? normalizePhone(phoneTyped) : null;
  if (phoneTyped && !phone) throw new ContactsError("phone.invalid");
  if (!email && !phone) throw new ContactsError("reach.missing");
  const owner = await deps.db
    .selectFrom("user")
    .select(["name", "language"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!owner) throw new ContactsError("notFound");
  // A desk contact is told whose desk: the organisation's name.
  if (organisationId) owner.name = (await findOrganisation(deps.db, organisationId))?.name ?? owner.name;
  const language: Lang = owner.language === "sv" ? "sv" : "en";
  const limited = await rateLimiter(deps.config, deps.db)(INVITE_RULE, userId, now);
  if (!limited.ok) throw new ContactsError("rateLimited", { count: limited.retryAfterMinutes });
  const token = randomBytes(18).toString("base64url");
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
    await repo.insertContact(trx, {
      id,
      userId,
      name,
      email: email || null,
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
    });
    const t = getT(language);
    const url = confirmUrl(deps.config, token);
    if (email) {
      await enqueueMail(trx, {
        to: email,
        subject: t("trusted.mail.invite.subject", { owner: owner.name }),
        text: t("trusted.mail.invite.text", { owner: owner.name, name, url }),
      });
    } else if (phone && code) {
      await enqueueSms(trx, { to: phone, text: inviteSms(language, owner.name, code, url) });
    }
  });
}

/** The code's stored form: bound to the contact and the number it was sent to. */
function contactCodeHash(config: Pick<Deps["config"], "authSecret">, contactId: string, phone: string, code: string) {
  return phoneCodeHash(config.authSecret, ["trusted", contactId, phone], code);
}

/** The SMS that invites a contact reached only by SMS: the code and the page to type it on. */
function inviteSms(language: Lang, ownerName: string, code: string, url: string): string {
  const t = getT(language);
  return t("trusted.sms.invite", { owner: smsName(ownerName), code, url });
}

export async function removeContact(deps: Pick<Deps, "db">, userId: string, id: string): Promise<void> {
  if (!(await repo.deleteContact(deps.db, userId, id))) throw new ContactsError("notFound");
}

/** Whose contact they are, as messages name it: the organisation for a desk contact. */
async function ownerOfContact(db: Deps["db"], c: { userId: string; organisationId: string | null }): Promise<string> {
  if (c.organisationId) return (await findOrganisation(db, c.organisationId))?.name ?? "";
  return ownerNameOf(db, c.userId);
}

async function ownerNameOf(db: Deps["db"], userId: string): Promise<string> {
  const row = await db.selectFrom("user").select("name").where("id", "=", userId).executeTakeFirst();
  return row?.name ?? "";
}

/**
 * The confirmation page: whose contact this link makes them, and how they confirm — by
 * the button (invited by mail) or by typing the code their SMS carried (only a number).
 * ContactsError notFound if the link is not valid.
 */
export async function readConfirmation(deps: Pick<Deps, "db" | "clock">, token: string) {
  const c = await repo.findContactByConfirmHash(deps.db, sha256(token));
  if (!c || c.confirmSentAt === null || c.confirmSentAt + CONFIRM_TTL_MS < deps.clock()) {
    throw new ContactsError("notFound");
  }
  return {
    name: c.name,
    owner: await ownerOfContact(deps.db, c),
    confirmed: c.confirmedAt !== null,
    byCode: c.email === null,
    contact: c,
  };
}

/**
 * Confirms the contact. Invited by mail: the button is enough (the link came to their
 * inbox). Reached only by SMS: `typedCode` must be the six digits of their SMS — valid 10
 * minutes, five tries counted before they are checked, fifteen checks an hour.
 */
export async function confirmContact(deps: Pick<Deps, "db" | "config" | "clock">, token: string, typedCode = "") {
  const found = await readConfirmation(deps, token);
  const c = found.contact;
  const now = deps.clock();
  if (found.byCode && !found.confirmed) {
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
  }
  await repo.markConfirmed(deps.db, c.id, now);
  return { name: found.name, owner: found.owner };
}

/** A new code for a contact reached only by SMS (the old one expired or was tried five times). */
export async function resendConfirmCode(deps: Pick<Deps, "db" | "config" | "clock">, token: string) {
  const found = await readConfirmation(deps, token);
  const c = found.contact;
  if (!found.byCode || found.confirmed || !c.phone) throw new ContactsError("notFound");
  const now = deps.clock();
  const hit = await hitRateLimit(deps.db, CONTACT_CODE_RULE, c.id, now);
  if (!hit.ok) throw new ContactsError("rateLimited", { count: hit.retryAfterMinutes });
  const code = newPhoneCode();
  const language: Lang = c.language === "sv" ? "sv" : "en";
  await deps.db.transaction().execute(async (trx) => {
    await repo.setConfirmCode(trx, c.id, contactCodeHash(deps.config, c.id, c.phone!, code), now + PHONE_CODE_TTL_MS);
    await enqueueSms(trx, {
      to: c.phone!,
      text: inviteSms(language, found.owner, code, confirmUrl(deps.config, token)),
    });
  });
  return { name: found.name, owner: found.owner };
}

/** The contact a stop link opens: a long token (mail) or a short code (SMS). */
async function contactOfStopLink(deps: Pick<Deps, "db" | "config">, token: string) {
  if (isShortCode(token, "stop")) {
    const link = await repo.findLink(deps.db, sha256(token), "stop");
    return link ? repo.findContact(deps.db, link.contactId) : undefined;
  }
  const id = readStopToken(deps.config, token);
  return id ? repo.findContact(deps.db, id) : undefined;
}

export async function readStop(deps: Pick<Deps, "db" | "config">, token: string) {
  const c = await contactOfStopLink(deps, token);
  if (!c) throw new ContactsError("notFound");
  return { name: c.name, owner: await ownerOfContact(deps.db, c), stopped: c.stoppedAt !== null, contact: c };
}

/** "Stop": nothing more reaches the contact (the owner sees them as stopped). */
export async function stopContact(deps: Pick<Deps, "db" | "config" | "clock">, token: string) {
  const found = await readStop(deps, token);
  await repo.markStopped(deps.db, found.contact.id, deps.clock());
  return { name: found.name, owner: found.owner };
}

/** A reply link's conversation, if the contact may still use it; else ContactsError notFound. */
async function replyAccess(deps: Pick<Deps, "db" | "config">, token: string) {
  const ids = isShortCode(token, "reply")
    ? await repo.findLink(deps.db, sha256(token), "reply")
    : readReplyToken(deps.config, token);
  if (!ids?.conversationId) throw new ContactsError("notFound");
  const contact = await repo.findContact(deps.db, ids.contactId);
  if (!contact || contact.confirmedAt === null || contact.stoppedAt !== null) throw new ContactsError("notFound");
  // The contact's owner still manages the item (decision 026) — for a desk contact: the item
  // is still the desk's (its organisation's, assigned to nobody) — and did not leave them out.
  const conversation = contact.organisationId
    ? await findDeskConversation(deps.db, contact.organisationId, ids.conversationId)
    : await findConversationOfOwner(deps.db, contact.userId, ids.conversationId);
  if (!conversation) throw new ContactsError("notFound");
  const active = await repo.listActiveContactsForItem(
    deps.db,
    contact.organisationId ? { organisationId: contact.organisationId } : { userId: contact.userId },
    conversation.itemId,
  );
  if (!active.some((c) => c.id === contact.id)) throw new ContactsError("notFound");
  const item = await findItemById(deps.db, conversation.itemId);
  if (!item) throw new ContactsError("notFound");
  return { contact, conversation, item };
}

/** The contact's reply page: the item, the owner's name and the messages (text only). */
export async function openContactReply(deps: Pick<Deps, "db" | "config">, token: string) {
  const { contact, conversation, item } = await replyAccess(deps, token);
  const messages = await listMessagesOf(deps.db, conversation.id);
  return {
    itemName: item.name,
    owner: await ownerOfContact(deps.db, contact),
    contactName: contact.name,
    stopUrl: stopUrl(deps.config, contact.id),
    messages: messages.map((m) => ({
      id: m.id,
      fromFinder: m.author === "finder",
      mine: m.contactId === contact.id,
      text: m.text,
      createdAt: m.createdAt,
    })),
  };
}

export async function replyAsContact(deps: Pick<Deps, "db" | "config" | "clock">, token: string, text: string) {
  const { contact, conversation, item } = await replyAccess(deps, token);
  const body = text.trim();
  if (!body || body.length > REPLY_MAX) throw new ContactsError("reply.invalid");
  const limited = await rateLimiter(deps.config, deps.db)(CONTACT_REPLY_RULE, contact.id, deps.clock());
  if (!limited.ok) throw new ContactsError("rateLimited", { count: limited.retryAfterMinutes });
  await storeOwnerSideReply(deps, conversation, item.name, body, { id: contact.id, name: contact.name });
}

export interface ItemContactsView {
  items: { id: string; name: string; excluded: string[] }[];
}

/** Per item, which of the owner's contacts are left out (the form on /account/alerts). */
export async function listItemContactChoices(deps: Pick<Deps, "db">, userId: string, limit = 50) {
  const items = (await listItemsOfOwner(deps.db, userId)).slice(0, limit);
  const out: ItemContactsView["items"] = [];
  for (const item of items) {
    out.push({ id: item.id, name: item.name, excluded: await repo.listExcludedContactIds(deps.db, item.id) });
  }
  return out;
}

/** Saves the per-item choice: `chosen[itemId]` = the contacts who get that item's alerts. */
export async function saveItemContactChoices(
  deps: Pick<Deps, "db">,
  userId: string,
  chosen: Map<string, Set<string>>,
  itemIds: string[],
): Promise<void> {
  const contactIds = (await repo.listContacts(deps.db, userId)).map((c) => c.id);
  const own = new Set((await listItemsOfOwner(deps.db, userId)).map((p) => p.id));
  await deps.db.transaction().execute(async (trx) => {
    for (const itemId of itemIds) {
      if (!own.has(itemId)) continue;
      const keep = chosen.get(itemId) ?? new Set<string>();
      await repo.setExclusions(
        trx,
        itemId,
        contactIds,
        contactIds.filter((id) => !keep.has(id)),
      );
    }
  });
}

/** For the data export: the contacts an account named (their own data, given by the owner). */
export async function exportContacts(db: Deps["db"], userId: string) {
  return (await repo.listContacts(db, userId)).map((c) => ({
    name: c.name,
    email: c.email,
    phone: c.phone,
    status: statusOf(c),
    addedAt: new Date(c.createdAt).toISOString(),
    confirmedAt: c.confirmedAt === null ? null : new Date(c.confirmedAt).toISOString(),
  }));
}

export async function eraseContacts(db: Deps["db"], userId: string): Promise<void> {
  await repo.deleteContactsOf(db, userId);
}

/** For labels: how a contact is reached, masked. */
export function contactReach(c: { email: string | null; phone: string | null }): string {
  return [c.email ? maskEmail(c.email) : null, c.phone].filter(Boolean).join(", ");
}

/** The desk's contacts page: the organisation's name, its contacts, and per desk item who is left out. */
export async function getDeskContacts(deps: Pick<Deps, "db">, userId: string, organisationId: string, limit = 50) {
  const organisation = await requireDeskAdmin(deps.db, organisationId, userId);
  const contacts = (await repo.listDeskContacts(deps.db, organisationId)).map((c) => ({
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone ? formatPhone(c.phone) : null,
    status: statusOf(c),
  }));
  const items: ItemContactsView["items"] = [];
  for (const item of await listDeskItems(deps.db, organisationId, limit)) {
    items.push({ id: item.id, name: item.name, excluded: await repo.listExcludedContactIds(deps.db, item.id) });
  }
  return { organisation, contacts, items };
}

export async function removeDeskContact(deps: Pick<Deps, "db">, userId: string, organisationId: string, id: string) {
  await requireDeskAdmin(deps.db, organisationId, userId);
  if (!(await repo.deleteDeskContact(deps.db, organisationId, id))) throw new ContactsError("notFound");
}

/** Saves which desk contacts get each desk item's alerts (`chosen[itemId]`), as for an account. */
export async function saveDeskItemChoices(
  deps: Pick<Deps, "db">,
  userId: string,
  organisationId: string,
  chosen: Map<string, Set<string>>,
  itemIds: string[],
): Promise<void> {
  await requireDeskAdmin(deps.db, organisationId, userId);
  const contactIds = (await repo.listDeskContacts(deps.db, organisationId)).map((c) => c.id);
  const desk = new Set((await listDeskItems(deps.db, organisationId, 1000)).map((p) => p.id));
  await deps.db.transaction().execute(async (trx) => {
    for (const itemId of itemIds) {
      if (!desk.has(itemId)) continue;
      const keep = chosen.get(itemId) ?? new Set<string>();
      await repo.setExclusions(
        trx,
        itemId,
        contactIds,
        contactIds.filter((id) => !keep.has(id)),
      );
    }
  });
}
