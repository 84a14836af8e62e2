/** The relay's rate limits (decision 029), counted by relay.service.server.ts. */
import type { Config } from "../config.server";
import { peekedState, rateLimitKey, type RateRule } from "../rate-limit/rate-limit.server";

/** Per client IP: a finder with a follow-up or two, not a spam run. */
export const RELAY_IP_RULE: RateRule = { name: "relay:ip", limit: 5, windowMs: 15 * 60_000 };
/**
 * Per item, the flood threshold (decision 029): more than a few finders of one item in
 * an hour is already unusual. Past it nobody is refused for it: every further sender solves
 * the captcha (without JavaScript the form says so and shows how to hand the item in), and
 * the owners get a digest per quarter hour instead of a mail per message.
 */
export const RELAY_ITEM_RULE: RateRule = { name: "relay:item", limit: 10, windowMs: 60 * 60_000 };
/**
 * Per item, the hard ceiling of stored messages, captcha or not: 100 rows of at most 2,000
 * characters an hour per item bounds what a captcha-solving flood can write, and is more
 * than an owner can read (decision 029). Counted only for messages about to be stored, so
 * refused attempts never use it up.
 */
export const RELAY_ITEM_CEILING: RateRule = { name: "relay:item-max", limit: 100, windowMs: 60 * 60_000 };
/** Owner replies per user (a stolen session must not turn the relay into a mailer). */
export const RELAY_REPLY_RULE: RateRule = { name: "relay:reply", limit: 30, windowMs: 60 * 60_000 };

/** The counter key of an item's flood threshold: what RELAY_ITEM_RULE counts under for the item. */
export const relayFloodKey = (itemId: string) => rateLimitKey(RELAY_ITEM_RULE, itemId);
/**
 * What every flood key starts with: an item's is this and its id in lower case
 * (rateLimitKey), for a read that joins the counters of several items at once.
 */
export const RELAY_FLOOD_KEY_PREFIX = relayFloodKey("");

/**
 * isRelayFlooded (relay.service.server.ts) for the item's flood counter already read by
 * `relayFloodKey` (null: no counter): the same rule, RATE_LIMIT_DISABLED=1 included.
 */
export function isFloodedBy(
  config: Pick<Config, "rateLimitDisabled">,
  counter: { count: number; windowStart: number } | null,
  now: number,
): boolean {
  return !config.rateLimitDisabled && !peekedState(RELAY_ITEM_RULE, counter, now).ok;
}
