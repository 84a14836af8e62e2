/**
 * The finder-to-owner relay (decision 013, brief section 2.1). A finder writes from a paid
 * item page (no account); each message starts a conversation the finder follows at the
 * private link /m/{token}; the owner reads and answers at /messages/{id}. Mails go through
 * the outbox, each in its recipient's language. The owner's email, name and phone never
 * reach the finder: replies come from the service's own address, signed "the owner".
 * No HTTP here (decision 011): routes map RelayError codes through relay.http.server.ts.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Lang } from "~/i18n/config";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { emailOf, isConversationId, isFinderToken, mapsLink, type FinderMessageInput } from "~/lib/domain/relay";
import type { CaptchaFailure, Deps } from "../service-deps.server";
import { findItemById, type Item } from "../access/items.repository.server";
import { mayManageItem } from "../access/item-access.repository.server";
import { writeItemLost } from "../scans/scans.repository.server";
import { contactNamesOf } from "./contact-names.repository.server";
import { fanOutAlert, type AlertFacts } from "../alerts/fanout.service.server";
import { wakeOutbox } from "../mail/mail.server";
import { rateLimiter, rateLimits } from "../rate-limit/rate-limit.server";
import { RETENTION_MS } from "~/lib/domain/retention";
import { ServiceError } from "../service-error.server";
import { digestFinderMessage } from "./digest.service.server";
import {
  confirmFinderAddress,
  finderCodeMatches,
  finderUrl,
  mailFinderLink,
  mailFinderReply,
} from "./finder-mail.service.server";
import * as repo from "./relay.repository.server";
import { relayState } from "./relay-state.server";
import { RELAY_IP_RULE, RELAY_ITEM_CEILING, RELAY_ITEM_RULE, RELAY_REPLY_RULE } from "./relay-limits.server";

/** Conversations are deleted this long after their last message (brief 2.8). */
export const CONVERSATION_RETENTION_MS = RETENTION_MS.conversations;

export { RELAY_IP_RULE, RELAY_ITEM_CEILING, RELAY_ITEM_RULE, RELAY_REPLY_RULE } from "./relay-limits.server";

export const OWNER_LIST_LIMIT = 200;

export type RelayErrorCode =
  "notFound" | "closed" | "rateLimited" | "flooded" | "honeypot" | `captcha.${CaptchaFailure}`;

/** `params.count`: minutes to wait (rateLimited, flooded). */
export class RelayError extends ServiceError<RelayErrorCode> {}

function newFinderToken(): string {
  return randomBytes(32).toString("base64url");
}

interface SendMeta {
  ip: string;
  lang: Lang;
}

/**
 * Limits and bot checks every finder message passes, before anything is stored. Each
 * limit counts before it decides (decision 029). Answers whether the item is flooded (past
 * RELAY_ITEM_RULE): its owners then get the digest instead of this message's mail.
 */
async function admitFinderMessage(
  { config, db, clock, events, captcha: captchas }: Pick<Deps, "config" | "db" | "clock" | "events" | "captcha">,
  input: FinderMessageInput,
  itemId: string,
  meta: SendMeta,
  now: number,
): Promise<{ flooded: boolean }> {
  // A filled honeypot is a bot: refused before it can use up anyone's counters.
  if (input.trap) throw new RelayError("honeypot");
  const limit = rateLimiter(config, db);
  const byIp = await limit(RELAY_IP_RULE, meta.ip, now);
  if (!byIp.ok) throw new RelayError("rateLimited", { count: byIp.retryAfterMinutes });
  // Counted before the captcha, so refused attempts count too.
  const byItem = await limit(RELAY_ITEM_RULE, itemId, now);
  const flooded = !byItem.ok;
  // The flooded item's stored finder page offers no captcha: render it afresh (this
  // instance; elsewhere the first refused post shows the captcha, decision 029).
  if (flooded) await events.emit("itemsChanged", { itemIds: [itemId] }, { db, clock });
  // With JavaScript the page solves the captcha; a solution sent is always checked. Without
  // JavaScript there is none to send, and the limits and the honeypot hold (decision 013)
  // until the item is flooded: then every sender needs it.
  if (flooded && !input.js && !input.captchaToken) throw new RelayError("flooded", { count: byItem.retryAfterMinutes });
  if (flooded || input.js || input.captchaToken) {
    const captcha = await captchas.verify(input.captchaToken, meta.ip, now);
    if (!captcha.ok) throw new RelayError(`captcha.${captcha.reason}`);
  }
  const ceiling = await limit(RELAY_ITEM_CEILING, itemId, now);
  if (!ceiling.ok) throw new RelayError("rateLimited", { count: ceiling.retryAfterMinutes });
  return { flooded };
}

/**
 * Whether the item is flooded right now (the finder page then asks for the captcha up
 * front). A read for display only: admitFinderMessage decides by counting.
 */
export async function isRelayFlooded(deps: Pick<Deps, "config" | "db" | "clock">, itemId: string): Promise<boolean> {
  const state = await rateLimits(deps.config, deps.db).peek(RELAY_ITEM_RULE, itemId, deps.clock());
  return !state.ok;
}

/** The alert of a stored finder message, for the fan-out (alerts/fanout.service.server.ts). */
function finderMessageFacts(
  conversation: repo.Conversation,
  itemName: string,
  input: FinderMessageInput,
  first: boolean,
  paidNow: boolean,
): AlertFacts {
  return {
    event: "finderMessage",
    itemId: conversation.itemId,
    itemName,
    conversationId: conversation.id,
    message: input.message,
    first,
    contact: conversation.finderContact,
    location:
      input.latitude !== undefined && input.longitude !== undefined
        ? { latitude: input.latitude, longitude: input.longitude }
        : null,
    paidNow,
  };
}

/**
 * A finder's message from a paid item page: a new conversation. Returns the finder's
 * private token (the link /m/{token}); mailed to the finder when they gave an email.
 * RelayError notFound when the item does not exist or is not paid (its page shows no form).
 */
export async function sendFinderMessage(
  deps: Pick<Deps, "config" | "db" | "clock" | "events" | "captcha">,
  itemId: string,
  input: FinderMessageInput,
  meta: SendMeta & { viewerId: string | null },
): Promise<{ token: string; conversationId: string }> {
  const { db } = deps;
  const now = deps.clock();
  const item = await findItemById(db, itemId);
  const state = await relayState(db, item, now);
  // Those who manage the item do not write to themselves (decision 026).
  if (!item || !state.open) throw new RelayError("notFound");
  if (meta.viewerId !== null && (await mayManageItem(db, meta.viewerId, item.id))) throw new RelayError("notFound");
  const { flooded } = await admitFinderMessage(deps, input, itemId, meta, now);
  // During a burst the owners get the digest instead of this message's alerts (decision 029).
  const digested = await digestFinderMessage(deps, itemId, flooded, now);
  const conversation: repo.Conversation = {
    id: randomUUID(),
    itemId,
    ownerId: item.owner,
    finderToken: newFinderToken(),
    finderContact: input.contact,
    finderLang: meta.lang,
    createdAt: now,
    lastMessageAt: now,
    returned: null,
    finderConfirmedAt: null,
  };
  const messageId = randomUUID();
  await db.transaction().execute(async (trx) => {
    await repo.insertConversation(trx, conversation);
    await repo.insertRelayMessage(trx, {
      id: messageId,
      conversationId: conversation.id,
      author: "finder",
      text: input.message,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      createdAt: now,
      readAt: null,
    });
    // The alerts commit with the message: a crash after this loses neither (decision 033).
    if (!digested)
      await fanOutAlert(
        { ...deps, db: trx },
        finderMessageFacts(conversation, item.name, input, true, state.paidNow),
        now,
      );
    const stored = { conversationId: conversation.id, messageId, itemId, text: input.message, first: true, at: now };
    await deps.events.emit("finderMessaged", stored, { ...deps, db: trx });
  });
  wakeOutbox();
  // Only the private link: the address is a third party's until it opens it (decision 058).
  await mailFinderLink(deps, conversation, now);
  return { token: conversation.finderToken, conversationId: conversation.id };
}

/** What the finder sees at /m/{token}: no owner name, email or phone, ever. */
export interface FinderThread {
  itemName: string;
  itemId: string;
  messages: { id: string; author: repo.Author; text: string; createdAt: number; located: boolean }[];
  /** The item still relays (paid now, or paid once: decision 019): the finder can write again. */
  canWrite: boolean;
  /** The owner confirmed they have the item back, with the fee agreed then (decision 019). */
  returned: repo.ReturnedState | null;
  url: string;
  /** The finder gave an email address: the link was mailed to it. */
  mailed: boolean;
  /** That address said yes from the mailed link (decision 058): the owner's replies are mailed to it. */
  mailConfirmed: boolean;
  /** The page was opened with the first mail's code and the address has not said yes yet: the code its button posts. */
  confirmMail: string | null;
  /** The sticker code, for handing the item in. */
  code: string;
  /** The item is flooded: writing again needs the captcha (decision 029). */
  flooded: boolean;
}

async function conversationOfToken(db: Deps["db"], token: string) {
  if (!isFinderToken(token)) throw new RelayError("notFound");
  const conversation = await repo.findConversationByToken(db, token);
  if (!conversation) throw new RelayError("notFound");
  return conversation;
}

/**
 * The finder's view of a conversation; marks the owner's replies read. `confirm`: the code
 * of the first mail's link, which confirms the address (decision 058). RelayError notFound
 * for a wrong token.
 */
export async function openFinderThread(
  deps: Pick<Deps, "config" | "db" | "clock">,
  token: string,
  confirm: string | null = null,
): Promise<FinderThread> {
  const { db } = deps;
  const now = deps.clock();
  const conversation = await conversationOfToken(db, token);
  const item = await findItemById(db, conversation.itemId);
  if (!item) throw new RelayError("notFound");
  await repo.markRead(db, conversation.id, "owner", now);
  const mailConfirmed = conversation.finderConfirmedAt !== null;
  const confirmMail = !mailConfirmed && finderCodeMatches(deps.config, conversation, confirm) ? confirm : null;
  const messages = await repo.listMessagesOf(db, conversation.id);
  const canWrite = (await relayState(db, item, now)).open;
  return {
    itemName: item.name,
    itemId: item.id,
    messages: messages.map((m) => ({
      id: m.id,
      author: m.author,
      text: m.text,
      createdAt: m.createdAt,
      located: m.latitude !== null,
    })),
    canWrite,
    returned: conversation.returned,
    url: finderUrl(deps.config.baseUrl, token),
    mailed: emailOf(conversation.finderContact) !== null,
    mailConfirmed,
    confirmMail,
    code: formatStickerCode(item.code),
    flooded: canWrite && (await isRelayFlooded(deps, item.id)),
  };
}

/** The finder's mailbox says yes to the owner's answers by email (the button the first mail's link shows). */
export async function confirmFinderMail(
  deps: Pick<Deps, "config" | "db" | "clock">,
  token: string,
  code: string | null,
): Promise<boolean> {
  const conversation = await conversationOfToken(deps.db, token);
  return confirmFinderAddress(deps, conversation, code, deps.clock());
}

/** A finder's follow-up at /m/{token}: continues the conversation, with the same limits. */
export async function continueFinderConversation(
  deps: Pick<Deps, "config" | "db" | "clock" | "events" | "captcha">,
  token: string,
  input: FinderMessageInput,
  meta: SendMeta,
): Promise<void> {
  const { db } = deps;
  const now = deps.clock();
  const conversation = await conversationOfToken(db, token);
  const item = await findItemById(db, conversation.itemId);
  const state = await relayState(db, item, now);
  if (!item || !state.open) throw new RelayError("notFound");
  const { flooded } = await admitFinderMessage(deps, input, item.id, meta, now);
  const digested = await digestFinderMessage(deps, item.id, flooded, now);
  const messageId = randomUUID();
  await db.transaction().execute(async (trx) => {
    await repo.insertRelayMessage(trx, {
      id: messageId,
      conversationId: conversation.id,
      author: "finder",
      text: input.message,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      createdAt: now,
      readAt: null,
    });
    await repo.touchConversation(trx, conversation.id, now);
    if (!digested) {
      await fanOutAlert(
        { ...deps, db: trx },
        finderMessageFacts(conversation, item.name, input, false, state.paidNow),
        now,
      );
    }
    const stored = { conversationId: conversation.id, messageId, itemId: item.id, text: input.message, first: false };
    await deps.events.emit("finderMessaged", { ...stored, at: now }, { ...deps, db: trx });
  });
  wakeOutbox();
}

export async function listOwnerConversations(deps: Pick<Deps, "db">, ownerId: string) {
  return repo.listConversationsOfOwner(deps.db, ownerId, OWNER_LIST_LIMIT);
}

export async function countOwnerUnread(deps: Pick<Deps, "db">, ownerId: string): Promise<number> {
  return repo.countUnreadOfOwner(deps.db, ownerId);
}

/** The owner's view of one conversation; marks the finder's messages read. RelayError notFound for anyone else. */
export async function openOwnerConversation(deps: Pick<Deps, "db" | "clock">, ownerId: string, id: string) {
  const { db } = deps;
  if (!isConversationId(id)) throw new RelayError("notFound");
  const conversation = await repo.findConversationOfOwner(db, ownerId, id);
  if (!conversation) throw new RelayError("notFound");
  const item = await findItemById(db, conversation.itemId);
  if (!item) throw new RelayError("notFound");
  const messages = await repo.listMessagesOf(db, id);
  await repo.markRead(db, id, "finder", deps.clock());
  const contactNames = await contactNamesOf(
    db,
    messages.flatMap((m) => (m.contactId ? [m.contactId] : [])),
  );
  return {
    id,
    itemId: item.id,
    itemName: item.name,
    finderContact: conversation.finderContact,
    // Only an address that confirmed itself gets the replies (decision 058).
    finderCanGetMail: emailOf(conversation.finderContact) !== null && conversation.finderConfirmedAt !== null,
    finderLang: conversation.finderLang,
    // The finder wrote by SMS (decision 055): replies go to them by SMS; the number stays here.
    bySms: conversation.finderPhone != null,
    returned: conversation.returned,
    messages: messages.map((m) => ({
      id: m.id,
      author: m.author,
      text: m.text,
      createdAt: m.createdAt,
      unread: m.author === "finder" && m.readAt === null,
      // A trusted contact's reply (decision 040): the owner sees who wrote it ("" once removed).
      byContact: m.contactId ? (contactNames.get(m.contactId) ?? "") : null,
      mapsUrl:
        m.latitude !== null && m.longitude !== null ? mapsLink({ latitude: m.latitude, longitude: m.longitude }) : null,
    })),
  };
}

/**
 * The owner's reply: stored for /m/{token} and mailed to the finder (their language) when
 * their address confirmed itself (decision 058). The mail names nobody and carries no
 * owner address (no Reply-To). RelayError closed once the relay is (refund, never paid).
 */
export async function replyAsOwner(
  deps: Pick<Deps, "config" | "db" | "clock" | "events">,
  ownerId: string,
  id: string,
  text: string,
): Promise<void> {
  const { db, config } = deps;
  const now = deps.clock();
  if (!isConversationId(id)) throw new RelayError("notFound");
  const conversation = await repo.findConversationOfOwner(db, ownerId, id);
  if (!conversation) throw new RelayError("notFound");
  const item = await findItemById(db, conversation.itemId);
  if (!item) throw new RelayError("notFound");
  const limited = await rateLimiter(config, db)(RELAY_REPLY_RULE, ownerId, now);
  if (!limited.ok) throw new RelayError("rateLimited", { count: limited.retryAfterMinutes });
  await storeOwnerSideReply(deps, conversation, item, text, null);
}

/**
 * A reply from the owner's side: the owner, or (decision 033) a trusted contact
 * through their private link. Stored for /m/{token} as the owner's side (the finder never
 * learns who wrote it) and mailed to the finder once their address confirmed itself
 * (decision 058). A contact's reply also alerts the item's managers ("reply" in the
 * fan-out), in the same transaction. RelayError closed when the item's relay is closed
 * (the rule the finder page goes by): nobody answers through a sticker that was refunded
 * or never paid.
 */
export async function storeOwnerSideReply(
  deps: Pick<Deps, "config" | "db" | "clock" | "events">,
  conversation: repo.Conversation,
  item: Item,
  text: string,
  contact: { id: string; name: string } | null,
): Promise<void> {
  const { db } = deps;
  const now = deps.clock();
  const id = conversation.id;
  const itemName = item.name;
  if (!(await relayState(db, item, now)).open) throw new RelayError("closed");
  await db.transaction().execute(async (trx) => {
    await repo.insertRelayMessage(trx, {
      id: randomUUID(),
      conversationId: id,
      author: "owner",
      text,
      latitude: null,
      longitude: null,
      createdAt: now,
      readAt: null,
      contactId: contact?.id ?? null,
    });
    await repo.touchConversation(trx, id, now);
    if (contact) {
      await fanOutAlert(
        { ...deps, db: trx },
        {
          event: "reply",
          itemId: conversation.itemId,
          itemName,
          conversationId: id,
          message: text,
          byName: contact.name,
        },
        now,
      );
    }
  });
  await mailFinderReply(deps, conversation, itemName, text, now);
  // A finder who wrote by SMS hears by SMS (decision 055); the SMS feature listens.
  await deps.events.emit(
    "ownerReplied",
    {
      conversationId: id,
      finderPhone: conversation.finderPhone ?? null,
      item: { id: item.id, owner: item.owner, organisationId: item.organisationId },
      text,
      now,
    },
    deps,
  );
  wakeOutbox();
}

/**
 * "I have my item back" (decision 019), the owner's own conversation only (RelayError
 * notFound for anyone else). Records the return with the item's finder's fee at this
 * moment, takes the item out of lost mode and queues a short summary mail to the owner
 * (their language) — all in one transaction, and only the first time: a second click, a
 * reload or a replayed POST changes nothing and sends nothing. No money moves here.
 * Returns whether this call recorded it.
 */
export async function confirmReturn(
  deps: Pick<Deps, "config" | "db" | "clock" | "events">,
  ownerId: string,
  id: string,
): Promise<boolean> {
  const { db } = deps;
  if (!isConversationId(id)) throw new RelayError("notFound");
  const conversation = await repo.findConversationOfOwner(db, ownerId, id);
  if (!conversation) throw new RelayError("notFound");
  if (conversation.returned) return false;
  const item = await findItemById(db, conversation.itemId);
  if (!item) throw new RelayError("notFound");
  const now = deps.clock();
  const returned: repo.ReturnedState = { at: now, fee: item.findFee, currency: item.currency };
  const recorded = await db.transaction().execute(async (trx) => {
    if (!(await repo.markReturned(trx, id, returned))) return false;
    await writeItemLost(trx, ownerId, item.id, false, now);
    if (item.lostAt != null) await deps.events.emit("itemFound", { itemId: item.id, at: now }, { ...deps, db: trx });
    // Everyone who manages the item hears of it (decision 026), by the channels they chose.
    await fanOutAlert(
      { ...deps, db: trx },
      {
        event: "returned",
        itemId: item.id,
        itemName: item.name,
        conversationId: id,
        at: now,
        fee: returned.fee,
        currency: returned.currency,
      },
      now,
    );
    return true;
  });
  wakeOutbox();
  // After the commit: the finder page no longer shows the lost banner (decision 014).
  if (recorded) await deps.events.emit("itemsChanged", { itemIds: [item.id] }, deps);
  return recorded;
}

/** Retention: conversations whose last message is older than 180 days, with their messages. */
export async function deleteExpiredConversations(deps: Pick<Deps, "db">, now: number): Promise<number> {
  const { db } = deps;
  return repo.deleteConversationsBefore(db, now - CONVERSATION_RETENTION_MS);
}
