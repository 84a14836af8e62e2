/**
 * Fixed-window rate limits with counters in the database (app_rate_limits), so every
 * app instance behind a load balancer shares them. The one limiter of the app: feature
 * code names its own rules:
 *
 *   const r = await hitRateLimit(db, { name: "contact:ip", limit: 5, windowMs: 15 * 60_000 }, ip);
 *   if (!r.ok) → 429 with r.retryAfterMinutes
 *
 * Honour config.rateLimitDisabled by calling `rateLimiter(config, db)` instead.
 * Count first, then act (decision 029): a rule is checked by the hit that counts it, never by
 * a read before the work, or concurrent requests all pass the read. A hit that turns out
 * not to count (a successful sign-in) is given back with `undoRateLimitHit`.
 * A refused hit is not counted (the counter stops at limit + 1), so hammering a locked
 * key writes nothing and does not push the lock further out.
 */
import { sql } from "kysely";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { systemClock } from "../clock.server";

export interface RateRule {
  /** Counter name, e.g. "contact:ip". */
  name: string;
  /** Allowed hits per window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  ok: boolean;
  /** Hits counted in the current window, this one included (at most limit + 1). */
  count: number;
  /** Milliseconds until the window resets. */
  retryAfterMs: number;
  /** Whole minutes until the window resets (at least 1), for messages. */
  retryAfterMinutes: number;
  /** Start of the window that counted this hit (for `undoRateLimitHit`). */
  windowStart: number;
}

const ALLOWED: RateLimitResult = { ok: true, count: 0, retryAfterMs: 0, retryAfterMinutes: 0, windowStart: 0 };

function keyOf(rule: RateRule, subject: string) {
  return `${rule.name}:${subject.toLowerCase()}`;
}
/** The app_rate_limits key of `subject` under `rule` (a read joining the counter to other rows). */
export const rateLimitKey = keyOf;

function resultOf(rule: RateRule, count: number, windowStart: number, now: number, ok: boolean): RateLimitResult {
  const retryAfterMs = Math.max(0, windowStart + rule.windowMs - now);
  return { ok, count, retryAfterMs, retryAfterMinutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)), windowStart };
}

/**
 * Where `subject` stands under `rule` without counting anything: not ok once the
 * current window holds `limit` hits. For display only (the finder page says an item is
 * flooded): a decision to let something through always counts first with `hitRateLimit`,
 * so concurrent requests cannot all read "allowed" before any of them counts (decision 029).
 */
export async function peekRateLimit(db: DB, rule: RateRule, subject: string, now: number): Promise<RateLimitResult> {
  const row = await db
    .selectFrom("app_rate_limits")
    .select(["count", "windowStart"])
    .where("key", "=", keyOf(rule, subject))
    .executeTakeFirst();
  return peekedState(rule, row ?? null, now);
}

/** peekRateLimit's answer for a counter row already read (null: no row), by `rateLimitKey`. */
export function peekedState(
  rule: RateRule,
  row: { count: number | string; windowStart: number | string } | null,
  now: number,
): RateLimitResult {
  if (!row || Number(row.windowStart) <= now - rule.windowMs) return { ...ALLOWED, windowStart: now };
  const count = Number(row.count);
  return resultOf(rule, count, Number(row.windowStart), now, count < rule.limit);
}

/**
 * Count one hit for `subject` under `rule` and say whether it is allowed: one atomic
 * upsert (insert, bump, or restart the window), so concurrent requests count exactly and
 * no more than `limit` of them are ever allowed in a window. The counter stops at
 * limit + 1: once there, the upsert's WHERE leaves the row alone (a refused key writes
 * nothing and its window does not move), returns no row, and only then is the row read
 * for the time to wait.
 */
export async function hitRateLimit(
  db: DB,
  rule: RateRule,
  subject: string,
  now = systemClock(),
): Promise<RateLimitResult> {
  const key = keyOf(rule, subject);
  const expired = now - rule.windowMs;
  const cap = rule.limit + 1;
  const row = await db
    .insertInto("app_rate_limits")
    .values({ key, windowStart: now, count: 1 })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet({
          count: sql<number>`case when "app_rate_limits"."windowStart" <= ${expired} then 1 else "app_rate_limits"."count" + 1 end`,
          windowStart: sql<number>`case when "app_rate_limits"."windowStart" <= ${expired} then ${now} else "app_rate_limits"."windowStart" end`,
        })
        .where(sql<boolean>`("app_rate_limits"."windowStart" <= ${expired} or "app_rate_limits"."count" < ${cap})`),
    )
    .returning(["count", "windowStart"])
    .executeTakeFirst();
  if (row) return resultOf(rule, Number(row.count), Number(row.windowStart), now, Number(row.count) <= rule.limit);
  // Already refused in this window: nothing was written.
  const seen = await db
    .selectFrom("app_rate_limits")
    .select(["count", "windowStart"])
    .where("key", "=", key)
    .executeTakeFirst();
  return resultOf(rule, cap, seen ? Number(seen.windowStart) : now, now, false);
}

/**
 * Give back one allowed hit (`hit` is what `hitRateLimit` answered): for an attempt that
 * turned out not to be what the rule counts, e.g. a sign-in that succeeded (only failures
 * count) or one refused for a missing captcha before the password was checked. Only in
 * the window that counted it; a counter at limit + 1 (refusals happened after it) drops to
 * limit - 1, the hits allowed less this one. Atomic, so concurrent give-backs add up.
 */
export async function undoRateLimitHit(db: DB, rule: RateRule, subject: string, hit: RateLimitResult): Promise<void> {
  if (!hit.ok || hit.count === 0) return;
  await db
    .updateTable("app_rate_limits")
    .set({
      count: sql<number>`case when "count" > ${rule.limit} then ${rule.limit - 1} else "count" - 1 end`,
    })
    .where("key", "=", keyOf(rule, subject))
    .where("windowStart", "=", hit.windowStart)
    .where("count", ">", 0)
    .execute();
}

/** Forget a subject's counter (e.g. after a successful sign-in). */
export async function resetRateLimit(db: DB, rule: RateRule, subject: string): Promise<void> {
  await db.deleteFrom("app_rate_limits").where("key", "=", keyOf(rule, subject)).execute();
}

/**
 * Delete counters whose window ended before `now - maxWindowMs` (the longest window of
 * any rule; default one day). For the periodic purge job. Returns how many went.
 */
export async function deleteExpiredRateLimits(db: DB, now: number, maxWindowMs = 24 * 60 * 60_000): Promise<number> {
  const res = await db
    .deleteFrom("app_rate_limits")
    .where("windowStart", "<", now - maxWindowMs)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** hitRateLimit that always allows when RATE_LIMIT_DISABLED=1 (the e2e suite only). */
export function rateLimiter(config: Pick<Config, "rateLimitDisabled">, db: DB) {
  return (rule: RateRule, subject: string, now = systemClock()): Promise<RateLimitResult> =>
    config.rateLimitDisabled ? Promise.resolve({ ...ALLOWED }) : hitRateLimit(db, rule, subject, now);
}

/** hit, undo, peek and reset together, all inert when RATE_LIMIT_DISABLED=1. */
export function rateLimits(config: Pick<Config, "rateLimitDisabled">, db: DB) {
  const off = config.rateLimitDisabled;
  return {
    hit: (rule: RateRule, subject: string, now: number): Promise<RateLimitResult> =>
      off ? Promise.resolve({ ...ALLOWED }) : hitRateLimit(db, rule, subject, now),
    undo: (rule: RateRule, subject: string, hit: RateLimitResult): Promise<void> =>
      off ? Promise.resolve() : undoRateLimitHit(db, rule, subject, hit),
    peek: (rule: RateRule, subject: string, now: number): Promise<RateLimitResult> =>
      off ? Promise.resolve({ ...ALLOWED }) : peekRateLimit(db, rule, subject, now),
    reset: (rule: RateRule, subject: string): Promise<void> =>
      off ? Promise.resolve() : resetRateLimit(db, rule, subject),
  };
}
