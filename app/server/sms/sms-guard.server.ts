/**
 * What every SMS passes before it is queued (decisions 033, 046): the country its number is
 * in (SMS_COUNTRIES), and three counters, each one atomic upsert that counts before it
 * decides (the rate limiter's way, decision 029) — the item's day
 * (SMS_LIMIT_PER_ITEM_DAY, alerts only), the paying account's 30 days
 * (SMS_LIMIT_PER_ACCOUNT_MONTH: codes and invitations too) and Hittad's UTC day
 * (SMS_DAILY_BUDGET, every account together). A counter that refuses gives back what the
 * ones before it counted.
 */
import { DAY_MS } from "~/lib/domain/dates";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { hitSmsQuota, undoSmsQuota } from "./sms-quota.repository.server";

export const SMS_ACCOUNT_WINDOW_MS = 30 * DAY_MS;
export const SMS_ITEM_WINDOW_MS = DAY_MS;

/** Whether SMS may go to this E.164 number (its calling code is one the operator allows). */
export function smsCountryAllowed(config: Pick<Config, "sms">, e164: string): boolean {
  // Calling codes are a prefix code (ITU-T E.164): no allowed code is the start of another country's.
  return config.sms.countries.some((code) => e164.startsWith(code));
}

/** The budget's counter for the UTC day of `now`. */
export function budgetKey(now: number): string {
  return `budget:${new Date(now).toISOString().slice(0, 10)}`;
}

export type SmsRefusal = { ok: false; key: string; windowStart: number; why: "item" | "account" | "budget" };

/**
 * Counts one SMS against the item (when it is an alert about one), the paying account
 * (`account:{id}` or `org:{id}`) and the day's budget. Call in the transaction that queues it.
 */
export async function admitSms(
  db: DB,
  config: Pick<Config, "sms">,
  payer: { itemId?: string; accountKey: string },
  now: number,
): Promise<{ ok: true } | SmsRefusal> {
  const counters: { key: string; limit: number; windowMs: number; why: SmsRefusal["why"] }[] = [
    ...(payer.itemId
      ? [
          {
            key: `item:${payer.itemId}`,
            limit: config.sms.limitPerItemDay,
            windowMs: SMS_ITEM_WINDOW_MS,
            why: "item" as const,
          },
        ]
      : []),
    {
      key: payer.accountKey,
      limit: config.sms.limitPerAccountMonth,
      windowMs: SMS_ACCOUNT_WINDOW_MS,
      why: "account",
    },
    { key: budgetKey(now), limit: config.sms.dailyBudget, windowMs: DAY_MS, why: "budget" },
  ];
  const counted: string[] = [];
  for (const c of counters) {
    const hit = await hitSmsQuota(db, c.key, c.limit, c.windowMs, now);
    if (!hit.ok) {
      // Not sent: the counters before this one give it back.
      for (const key of counted) await undoSmsQuota(db, key);
      return { ok: false, key: c.key, windowStart: hit.windowStart, why: c.why };
    }
    counted.push(c.key);
  }
  return { ok: true };
}

/** SMS counted today against the budget, and the budget (the `/metrics` gauges). */
export async function smsBudgetToday(db: DB, config: Pick<Config, "sms">, now: number) {
  const row = await db.selectFrom("sms_quotas").select("count").where("key", "=", budgetKey(now)).executeTakeFirst();
  // A refused SMS leaves the counter at limit + 1; what went is at most the budget.
  return { used: Math.min(Number(row?.count ?? 0), config.sms.dailyBudget), limit: config.sms.dailyBudget };
}
