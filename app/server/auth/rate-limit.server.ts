import { sql } from "kysely";
import type { DB } from "../db/db.server";

export interface RateRule {
  /** Counter name, e.g. "signin:ip". */
  name: string;
  limit: number;
  windowMs: number;
}

const MIN = 60_000;

/** Limits for the account forms; counters live in app_rate_limits, shared by all instances. */
export const RULES = {
  signInIp: { name: "signin:ip", limit: 30, windowMs: 15 * MIN },
  signInAccount: { name: "signin:account", limit: 8, windowMs: 15 * MIN },
  signUpIp: { name: "signup:ip", limit: 10, windowMs: 60 * MIN },
  resetIp: { name: "reset:ip", limit: 10, windowMs: 60 * MIN },
  resetAccount: { name: "reset:account", limit: 3, windowMs: 60 * MIN },
} satisfies Record<string, RateRule>;

export interface RateLimitResult {
  ok: boolean;
  /** Whole minutes until the window resets (at least 1) when refused. */
  retryAfterMinutes: number;
}

/**
 * Count one attempt for `subject` under `rule` (fixed window) and say whether it is
 * allowed. One atomic upsert, so concurrent requests and instances count correctly.
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
  const ok = Number(row.count) <= rule.limit;
  const resetIn = Number(row.windowStart) + rule.windowMs - now;
  return { ok, retryAfterMinutes: Math.max(1, Math.ceil(resetIn / MIN)) };
}

/** Check several rules at once; the first refusal wins. Every rule is counted. */
export async function hitRateLimits(
  db: DB,
  checks: Array<[RateRule, string]>,
  disabled: boolean,
): Promise<RateLimitResult> {
  if (disabled) return { ok: true, retryAfterMinutes: 0 };
  let worst: RateLimitResult = { ok: true, retryAfterMinutes: 0 };
  for (const [rule, subject] of checks) {
    const r = await hitRateLimit(db, rule, subject);
    if (!r.ok && (worst.ok || r.retryAfterMinutes > worst.retryAfterMinutes)) worst = r;
  }
  return worst;
}
