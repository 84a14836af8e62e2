/**
 * A finder's SMS (decision 055): a sticker's code opens a conversation on its item exactly
 * as the finder page's form does — stored, the owner's side alerted through the fan-out
 * (mail, SMS, push, trusted contacts; a digest while the item is flooded, decision 029), the
 * relay's per-item limits — and the finder gets one reply. A later SMS from the number
 * continues its latest conversation of the last 30 days. The finder's number is kept on the
 * conversation only (`finderPhone`), never in what the owner's side sees.
 */
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { DAY_MS } from "~/lib/domain/dates";
import { getT } from "~/i18n/i18n";
import type { Deps } from "../service-deps.server";
import { fanOutAlert } from "../alerts/fanout.service.server";
import { findItemById, type Item } from "../access/items.repository.server";
import { findItemIdByCode } from "../lookup/lookup.repository.server";
import { wakeOutbox } from "../mail/mail.server";
import { rateLimiter } from "../rate-limit/rate-limit.server";
import { digestFinderMessage } from "../relay/digest.service.server";
import { RELAY_ITEM_CEILING, RELAY_ITEM_RULE } from "../relay/relay-limits.server";
import { relayState } from "../relay/relay-state.server";
import * as relayRepo from "../relay/relay.repository.server";
import { admitSms } from "../sms/sms-guard.server";
import { finderSmsLang, maySmsFinder, payerOf } from "./finder-sms.server";
import { latestFinderConversation } from "./sms-finder.repository.server";

export type InboundDeps = Pick<Deps, "config" | "db" | "clock" | "events">;

/** A later SMS without a code continues the number's latest conversation this long. */
export const SMS_CONTINUE_MS = 30 * DAY_MS;

/** A new conversation's reference for the owner's SMS answers: four digits. */
function newSmsRef(): string {
  return String(randomInt(1000, 10_000));
}

/**
 * The relay's per-item limits (decision 029) for one more stored message: flooded → the
 * owners get the digest; past the hard ceiling → nothing is stored (null).
 */
async function admitToItem(deps: InboundDeps, item: Item, now: number): Promise<{ flooded: boolean } | null> {
  const limit = rateLimiter(deps.config, deps.db);
  const byItem = await limit(RELAY_ITEM_RULE, item.id, now);
  if (!byItem.ok) await deps.events.emit("itemsChanged", { itemIds: [item.id] }, deps);
  const ceiling = await limit(RELAY_ITEM_CEILING, item.id, now);
  return ceiling.ok ? { flooded: !byItem.ok } : null;
}

async function storeFinderSms(
  deps: InboundDeps,
  conversation: relayRepo.Conversation,
  isNew: boolean,
  item: Item,
  text: string,
  paidNow: boolean,
  now: number,
): Promise<boolean> {
  const admitted = await admitToItem(deps, item, now);
  if (!admitted) return false;
  const digested = await digestFinderMessage(deps, item.id, admitted.flooded, now);
  const messageId = randomUUID();
  await deps.db.transaction().execute(async (trx) => {
    if (isNew) await relayRepo.insertConversation(trx, conversation);
    await relayRepo.insertRelayMessage(trx, {
      id: messageId,
      conversationId: conversation.id,
      author: "finder",
      text,
      latitude: null,
      longitude: null,
      createdAt: now,
      readAt: null,
    });
    if (!isNew) await relayRepo.touchConversation(trx, conversation.id, now);
    // The alerts commit with the message (decision 033).
    if (!digested) {
      await fanOutAlert(
        { ...deps, db: trx },
        {
          event: "finderMessage",
          itemId: item.id,
          itemName: item.name,
          conversationId: conversation.id,
          message: text,
          first: isNew,
          contact: "",
          location: null,
          paidNow,
          smsRef: conversation.smsRef ?? null,
        },
        now,
      );
    }
    const stored = { conversationId: conversation.id, messageId, itemId: item.id, text, first: isNew, at: now };
    await deps.events.emit("finderMessaged", stored, { ...deps, db: trx });
  });
  wakeOutbox();
  return true;
}

/**
 * An SMS that starts with a sticker's code. "unknown": no item carries it, or its relay is
 * closed (never paid, refunded): the caller sends the help text. Otherwise the reply (null:
 * none, e.g. a follow-up, the item's ceiling, or a guard said no).
 */
export async function openByCode(
  deps: InboundDeps,
  from: string,
  code: string,
  text: string,
  now: number,
): Promise<string | null | "unknown"> {
  const { db, config } = deps;
  const itemId = await findItemIdByCode(db, code);
  const item = itemId ? await findItemById(db, itemId) : undefined;
  const state = await relayState(db, item, now);
  if (!item || !state.open) return "unknown";
  const earlier = await latestFinderConversation(db, from, now - SMS_CONTINUE_MS, item.id);
  if (earlier) {
    const conversation = (await relayRepo.findConversationById(db, earlier.id))!;
    await storeFinderSms(deps, conversation, false, item, text, state.paidNow, now);
    return null;
  }
  const conversation: relayRepo.Conversation = {
    id: randomUUID(),
    itemId: item.id,
    ownerId: item.owner,
    // The private link exists as for every conversation; an SMS finder never gets it.
    finderToken: randomBytes(32).toString("base64url"),
    finderContact: "",
    finderLang: finderSmsLang(from),
    createdAt: now,
    lastMessageAt: now,
    returned: null,
    finderConfirmedAt: null,
    finderPhone: from,
    smsRef: newSmsRef(),
  };
  if (!(await storeFinderSms(deps, conversation, true, item, text, state.paidNow, now))) return null;
  // One reply, counted against the item's day and its paying account like the owner's alerts.
  if (!(await maySmsFinder(db, config, from))) return null;
  const admitted = await admitSms(db, config, { itemId: item.id, accountKey: payerOf(item) }, now);
  return admitted.ok ? getT(finderSmsLang(from))("smsFinder.received") : null;
}

/**
 * An SMS without a code from a number with a conversation of the last 30 days: continues
 * it, with no reply. "none": no such conversation, or its relay closed.
 */
export async function continueByNumber(
  deps: InboundDeps,
  from: string,
  text: string,
  now: number,
): Promise<null | "none"> {
  const { db } = deps;
  const latest = await latestFinderConversation(db, from, now - SMS_CONTINUE_MS);
  if (!latest) return "none";
  const item = await findItemById(db, latest.itemId);
  const state = await relayState(db, item, now);
  const conversation = await relayRepo.findConversationById(db, latest.id);
  if (!item || !state.open || !conversation) return "none";
  await storeFinderSms(deps, conversation, false, item, text, state.paidNow, now);
  return null;
}
