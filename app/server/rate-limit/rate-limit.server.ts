/**
 * Fixed-window rate limits with counters in the database (app_rate_limits), so every
 * app instance behind a load balancer shares them. Feature code names its own rules:
 *
 *   const r = await hitRateLimit(db, { name: "contact:ip", limit: 5, windowMs: 15 * 60_000 }, ip);
 *   if (!r.ok) → 429 with r.retryAfterMinutes
 *
 * Honour config.rateLimitDisabled by calling `rateLimiter(config, db)` instead.
 */
import { sql } from "kysely";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";

export interface RateRule {
  /** Counter name, e.g. "contact:ip". */
  name: string;
  /** Allowed hits per window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  ok: boolean;
  /** Hits counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  retryAfterMs: number;
  /** Whole minutes until the window resets (at least 1), for messages. */
  retryAfterMinutes: number;
}

/**
 * Count one hit for `subject` under `rule` and say whether it is allowed. One atomic
 * upsert (insert, or bump/restart the window), so concurrent requests count correctly.
 */
export async function hitRateLimit(
  db: DB,
  rule: RateRule,
  subject: string,
  now = Date.now(),
): Promise<RateLimitResult> {
  const key = `${rule.name}:${subject.toLowerCase()}`;
  const expired = now - rule.windowMs;
  const row = await db
    .insertInto("app_rate_limits")
    .values({ key, windowStart: now, count: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql<number>`case when "app_rate_limits"."windowStart" <= ${expired} then 1 else "app_rate_limits"."count" + 1 end`,
        windowStart: sql<number>`case when "app_rate_limits"."windowStart" <= ${expired} then ${now} else "app_rate_limits"."windowStart" end`,
      }),
    )
    .returning(["count", "windowStart"])
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  const retryAfterMs = Math.max(0, Number(row.windowStart) + rule.windowMs - now);
  return {
    ok: count <= rule.limit,
    count,
    retryAfterMs,
    retryAfterMinutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)),
  };
}

/** Forget a subject's counter (e.g. after a successful sign-in). */
export async function resetRateLimit(db: DB, rule: RateRule, subject: string): Promise<void> {
  await db.deleteFrom("app_rate_limits").where("key", "=", `${rule.name}:${subject.toLowerCase()}`).execute();
}

/** hitRateLimit that always allows when RATE_LIMIT_DISABLED=1 (the e2e suite only). */
export function rateLimiter(config: Pick<Config, "rateLimitDisabled">, db: DB) {
  return (rule: RateRule, subject: string, now = Date.now()): Promise<RateLimitResult> =>
    config.rateLimitDisabled
      ? Promise.resolve({ ok: true, count: 0, retryAfterMs: 0, retryAfterMinutes: 0 })
      : hitRateLimit(db, rule, subject, now);
}
