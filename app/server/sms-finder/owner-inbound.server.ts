/**
 * An owner answers a finder by SMS (decision 055), from their verified number: to the
 * conversation named by the reference their alert SMS carried ("#4821 …"), or to their one
 * open conversation with an SMS finder when there is only one. Stored and passed on exactly
 * as an answer at /messages (relay's storeOwnerSideReply: the finder gets it by SMS from
 * SMS_NUMBER, or by mail), under the same reply limit.
 */
import { getT } from "~/i18n/i18n";
import { findRecipientUser } from "../alerts/alerts.repository.server";
import { findItemById } from "../access/items.repository.server";
import { rateLimiter } from "../rate-limit/rate-limit.server";
import { RELAY_REPLY_RULE } from "../relay/relay-limits.server";
import { RelayError, storeOwnerSideReply } from "../relay/relay.service.server";
import { findConversationOfOwner } from "../relay/relay.repository.server";
import { admitSms } from "../sms/sms-guard.server";
import type { InboundDeps } from "./finder-inbound.server";
import { SMS_CONTINUE_MS } from "./finder-inbound.server";
import { maySmsFinder } from "./finder-sms.server";
import { splitOwnerRef } from "./message-code.server";
import { smsConversationsOf, usersOfVerifiedPhone } from "./sms-finder.repository.server";

/**
 * "notOwner": the number is no account's verified number (or names no conversation of
 * theirs while they have none open): the caller treats it as a finder's. Otherwise the
 * reply to the owner (null: none).
 */
export async function answerAsOwner(
  deps: InboundDeps,
  from: string,
  message: string,
  now: number,
): Promise<string | null | "notOwner"> {
  const { db, config } = deps;
  const users = await usersOfVerifiedPhone(db, from);
  if (users.length === 0) return "notOwner";
  const { ref, rest } = splitOwnerRef(message);
  // Without a #ref the loop reads each owner's open SMS conversations: whether any has one.
  let anyOpen = false;
  for (const userId of users) {
    // Two asked for either way: a reference two of their conversations share (four digits,
    // not unique) names neither, and the owner is told how to answer instead.
    const found = ref
      ? await smsConversationsOf(db, userId, { ref }, 2)
      : await smsConversationsOf(db, userId, { since: now - SMS_CONTINUE_MS }, 2);
    if (!ref && found.length > 0) anyOpen = true;
    if (found.length !== 1 || !rest) continue;
    const conversation = await findConversationOfOwner(db, userId, found[0]!.id);
    const item = conversation && (await findItemById(db, conversation.itemId));
    if (!conversation || !item) continue;
    const limited = await rateLimiter(config, db)(RELAY_REPLY_RULE, userId, now);
    if (!limited.ok) return null;
    try {
      await storeOwnerSideReply(deps, conversation, item, rest, null);
    } catch (err) {
      // The item's relay closed (refund): nothing to pass on, nothing to answer. Anything
      // else fails the webhook, which releases the message for 46elks' resend.
      if (err instanceof RelayError && err.code === "closed") return null;
      throw err;
    }
    return null;
  }
  // An owner whose answer names no conversation: told how, once per message, within the guards.
  if (!ref && !anyOpen) return "notOwner";
  if (!(await maySmsFinder(db, config, from))) return null;
  const admitted = await admitSms(db, config, { accountKey: `account:${users[0]}` }, now);
  if (!admitted.ok) return null;
  const user = await findRecipientUser(db, users[0]!);
  return getT(user?.language ?? "sv")("smsFinder.ownerHelp");
}
