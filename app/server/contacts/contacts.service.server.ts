/**
 * Trusted contacts (issue #33 point 1, decision 040): up to three people an account names
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
import { TRUSTED_CONTACTS_MAX, TRUSTED_NAME_MAX, isPlausibleEmail } from "~/lib/trusted-contacts";
import type { Deps } from "../service-deps.server";
import { findProductById, listProductsOfOwner } from "../items/items.repository.server";
import { enqueueMail, enqueueSms } from "../mail/mail.server";
import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import { findConversationOfOwner, listMessagesOf } from "../relay/relay.repository.server";
import { storeOwnerSideReply } from "../relay/relay.service.server";
import { ServiceError } from "../service-error.server";
import { confirmUrl, readReplyToken, readStopToken, stopUrl } from "./contact-links.server";
import * as repo from "./contacts.repository.server";

export type ContactsErrorCode =
  | "name.invalid"
  | "email.invalid"
  | "phone.invalid"
  | "reach.missing"
  | "tooMany"
  | "rateLimited"
  | "notFound"
  | "reply.invalid";
/** `params.count`: contacts allowed (tooMany), minutes to wait (rateLimited). */
export class ContactsError extends ServiceError<ContactsErrorCode> {}

/** How long a confirmation link works. */
export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;
/** Invitations per account an hour: each is a mail or an SMS to someone else. */
export const INVITE_RULE: RateRule = { name: "trusted:invite", limit: 10, windowMs: 60 * 60_000 };
/** Replies per contact an hour. */
export const CONTACT_REPLY_RULE: RateRule = { name: "trusted:reply", limit: 20, windowMs: 60 * 60_000 };
export const REPLY_MAX = 2000;

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
export async function addContact(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
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
  const language: Lang = owner.language === "sv" ? "sv" : "en";
  const limited = await rateLimiter(deps.config, deps.db)(INVITE_RULE, userId, now);
  if (!limited.ok) throw new ContactsError("rateLimited", { count: limited.retryAfterMinutes });
  const token = randomBytes(18).toString("base64url");
  await deps.db.transaction().execute(async (trx) => {
    if ((await repo.listContacts(trx, userId)).length >= TRUSTED_CONTACTS_MAX) {
      throw new ContactsError("tooMany", { count: TRUSTED_CONTACTS_MAX });
    }
    await repo.insertContact(trx, {
      id: randomUUID(),
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
    });
    const t = getT(language);
    const url = confirmUrl(deps.config, token);
    if (email) {
      await enqueueMail(trx, {
        to: email,
        subject: t("trusted.mail.invite.subject", { owner: owner.name }),
        text: t("trusted.mail.invite.text", { owner: owner.name, name, url }),
      });
    } else if (phone) {
      await enqueueSms(trx, { to: phone, text: t("trusted.sms.invite", { owner: owner.name.slice(0, 30), url }) });
    }
  });
}

export async function removeContact(deps: Pick<Deps, "db">, userId: string, id: string): Promise<void> {
  if (!(await repo.deleteContact(deps.db, userId, id))) throw new ContactsError("notFound");
}

async function ownerNameOf(db: Deps["db"], userId: string): Promise<string> {
  const row = await db.selectFrom("user").select("name").where("id", "=", userId).executeTakeFirst();
  return row?.name ?? "";
}

/** The confirmation page: whose contact this link makes them. ContactsError notFound if it is not valid. */
export async function readConfirmation(deps: Pick<Deps, "db" | "clock">, token: string) {
  const c = await repo.findContactByConfirmHash(deps.db, sha256(token));
  if (!c || c.confirmSentAt === null || c.confirmSentAt + CONFIRM_TTL_MS < deps.clock()) {
    throw new ContactsError("notFound");
  }
  return { name: c.name, owner: await ownerNameOf(deps.db, c.userId), confirmed: c.confirmedAt !== null, contact: c };
}

export async function confirmContact(deps: Pick<Deps, "db" | "clock">, token: string) {
  const found = await readConfirmation(deps, token);
  await repo.markConfirmed(deps.db, found.contact.id, deps.clock());
  return { name: found.name, owner: found.owner };
}

export async function readStop(deps: Pick<Deps, "db" | "config">, token: string) {
  const id = readStopToken(deps.config, token);
  const c = id ? await repo.findContact(deps.db, id) : undefined;
  if (!c) throw new ContactsError("notFound");
  return { name: c.name, owner: await ownerNameOf(deps.db, c.userId), stopped: c.stoppedAt !== null, contact: c };
}

/** "Stop": nothing more reaches the contact (the owner sees them as stopped). */
export async function stopContact(deps: Pick<Deps, "db" | "config" | "clock">, token: string) {
  const found = await readStop(deps, token);
  await repo.markStopped(deps.db, found.contact.id, deps.clock());
  return { name: found.name, owner: found.owner };
}

/** A reply link's conversation, if the contact may still use it; else ContactsError notFound. */
async function replyAccess(deps: Pick<Deps, "db" | "config">, token: string) {
  const ids = readReplyToken(deps.config, token);
  if (!ids) throw new ContactsError("notFound");
  const contact = await repo.findContact(deps.db, ids.contactId);
  if (!contact || contact.confirmedAt === null || contact.stoppedAt !== null) throw new ContactsError("notFound");
  // The contact's owner still manages the item (decision 026), and did not leave them out for it.
  const conversation = await findConversationOfOwner(deps.db, contact.userId, ids.conversationId);
  if (!conversation) throw new ContactsError("notFound");
  const active = await repo.listActiveContactsForItem(deps.db, contact.userId, conversation.itemId);
  if (!active.some((c) => c.id === contact.id)) throw new ContactsError("notFound");
  const item = await findProductById(deps.db, conversation.itemId);
  if (!item) throw new ContactsError("notFound");
  return { contact, conversation, item };
}

/** The contact's reply page: the item, the owner's name and the messages (text only). */
export async function openContactReply(deps: Pick<Deps, "db" | "config">, token: string) {
  const { contact, conversation, item } = await replyAccess(deps, token);
  const messages = await listMessagesOf(deps.db, conversation.id);
  return {
    itemName: item.name,
    owner: await ownerNameOf(deps.db, contact.userId),
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
  const items = (await listProductsOfOwner(deps.db, userId)).slice(0, limit);
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
  const own = new Set((await listProductsOfOwner(deps.db, userId)).map((p) => p.id));
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
