/**
 * A trusted contact answers the finder (decision 040) through a private reply link (no
 * account): stored through the relay as the owner's side, with the contact's name for the
 * owner. No HTTP here (decision 011).
 */
import { createHash } from "node:crypto";
import type { Deps } from "../service-deps.server";
import { findItemById } from "../access/items.repository.server";
import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import { findConversationOfOwner, findDeskConversation, listMessagesOf } from "../relay/relay.repository.server";
import { RelayError, storeOwnerSideReply } from "../relay/relay.service.server";
import { isShortCode, readReplyToken, shortStopUrl, stopUrl } from "./contact-links.server";
import { ownerOfContact } from "./confirm.service.server";
import { ContactsError } from "./trusted-contacts.service.server";
import * as repo from "./trusted-contacts.repository.server";

/** Replies per contact an hour. */
export const CONTACT_REPLY_RULE: RateRule = { name: "trusted:reply", limit: 20, windowMs: 60 * 60_000 };
export const REPLY_MAX = 2000;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** A reply link's conversation, if the contact may still use it; else ContactsError notFound. */
async function replyAccess(deps: Pick<Deps, "db" | "config">, token: string) {
  const short = isShortCode(token, "reply");
  const ids = short ? await repo.findLink(deps.db, sha256(token), "reply") : readReplyToken(deps.config, token);
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
  return { contact, conversation, item, short };
}

/**
 * The contact's reply page: the item, the owner's name and the messages (text only), and
 * the stop link of the channel the reply link came by (a stop covers that one, decision 046).
 */
export async function openContactReply(deps: Pick<Deps, "db" | "config">, token: string) {
  const { contact, conversation, item, short } = await replyAccess(deps, token);
  const messages = await listMessagesOf(deps.db, conversation.id);
  return {
    itemName: item.name,
    owner: await ownerOfContact(deps, contact),
    contactName: contact.name,
    stopUrl: short ? shortStopUrl(deps.config, contact.id) : stopUrl(deps.config, contact.id),
    messages: messages.map((m) => ({
      id: m.id,
      fromFinder: m.author === "finder",
      mine: m.contactId === contact.id,
      text: m.text,
      createdAt: m.createdAt,
    })),
  };
}

export async function replyAsContact(
  deps: Pick<Deps, "db" | "config" | "clock" | "events">,
  token: string,
  text: string,
) {
  const { contact, conversation, item } = await replyAccess(deps, token);
  const body = text.trim();
  if (!body || body.length > REPLY_MAX) throw new ContactsError("reply.invalid");
  const limited = await rateLimiter(deps.config, deps.db)(CONTACT_REPLY_RULE, contact.id, deps.clock());
  if (!limited.ok) throw new ContactsError("rateLimited", { count: limited.retryAfterMinutes });
  try {
    await storeOwnerSideReply(deps, conversation, item, body, { id: contact.id, name: contact.name });
  } catch (err) {
    // The item's relay closed (refund, never paid: decision 058): no answers through it.
    if (err instanceof RelayError && err.code === "closed") throw new ContactsError("closed");
    throw err;
  }
}
