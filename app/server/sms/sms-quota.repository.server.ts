/**
 * The SMS cost guard's counters (decision 046): one row per key and window in sms_quotas.
 * Here, beside the guard, so the recipients' limits and the guard count the same way
 * without importing the alerts (decision 053).
 */
import { sql } from "kysely";
import type { DB } from "../db/db.server";

/**
 * Counts one SMS under a cost-guard counter and says whether it may go: one atomic upsert
 * (as the rate limiter's), capped at limit + 1 so a stopped key writes nothing more.
 */
export async function hitSmsQuota(
  db: DB,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<{ ok: boolean; windowStart: number }> {
  const expired = now - windowMs;
  const row = await db
    .insertInto("sms_quotas")
    .values({ key, windowStart: now, count: 1, noticeAt: null })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet({
          count: sql<number>`case when "sms_quotas"."windowStart" <= ${expired} then 1 else "sms_quotas"."count" + 1 end`,
          windowStart: sql<number>`case when "sms_quotas"."windowStart" <= ${expired} then ${now} else "sms_quotas"."windowStart" end`,
        })
        .where(sql<boolean>`("sms_quotas"."windowStart" <= ${expired} or "sms_quotas"."count" <= ${limit})`),
    )
    .returning(["count", "windowStart"])
    .executeTakeFirst();
  if (row) return { ok: Number(row.count) <= limit, windowStart: Number(row.windowStart) };
  const seen = await db.selectFrom("sms_quotas").select("windowStart").where("key", "=", key).executeTakeFirst();
  return { ok: false, windowStart: seen ? Number(seen.windowStart) : now };
}

/** Give back one counted SMS (the guard's second counter stopped it after the first counted). */
export async function undoSmsQuota(db: DB, key: string): Promise<void> {
  await db
    .updateTable("sms_quotas")
    .set({ count: sql<number>`"count" - 1` })
    .where("key", "=", key)
    .where("count", ">", 0)
    .execute();
}
