/**
 * SQL of who may be messaged (decision 046): the suppression list and the "never contact
 * me again" links. Both hold fingerprints, never the address or number itself.
 */
import type { DB } from "../db/db.server";

export {
  addressHash,
  canonicalAddress,
  canonicalHash,
  fingerprintsOf,
  isSuppressed,
  type Channel,
} from "../channels/suppressions.repository.server";
import type { Channel } from "../channels/suppressions.repository.server";

/** Of these fingerprints, the ones on the list. */
export async function suppressedOf(db: DB, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .selectFrom("recipient_suppressions")
    .select("addressHash")
    .where("addressHash", "in", [...new Set(hashes)])
    .execute();
  return new Set(rows.map((r) => r.addressHash));
}

export async function suppress(db: DB, hash: string, channel: Channel, now: number): Promise<void> {
  await db
    .insertInto("recipient_suppressions")
    .values({ addressHash: hash, channel, createdAt: now })
    .onConflict((oc) => oc.column("addressHash").doNothing())
    .execute();
}

export async function unsuppress(db: DB, hashes: string | string[]): Promise<void> {
  const all = typeof hashes === "string" ? [hashes] : hashes;
  await db.deleteFrom("recipient_suppressions").where("addressHash", "in", all).execute();
}

/** A per-recipient counter's count in its current window (0 when none or expired); reads only. */
export async function counterOf(db: DB, key: string, windowMs: number, now: number): Promise<number> {
  const row = await db
    .selectFrom("sms_quotas")
    .select(["count", "windowStart"])
    .where("key", "=", key)
    .executeTakeFirst();
  return row && Number(row.windowStart) > now - windowMs ? Number(row.count) : 0;
}

/** Remembers that a message carrying this never link is queued (one row per address). */
export async function rememberNeverLink(
  db: DB,
  link: { codeHash: string; addressHash: string; channel: Channel },
  now: number,
): Promise<void> {
  await db
    .insertInto("never_links")
    .values({ ...link, lastSentAt: now })
    .onConflict((oc) => oc.column("codeHash").doUpdateSet({ lastSentAt: now }))
    .execute();
}

export async function findNeverLink(db: DB, codeHash: string) {
  return db
    .selectFrom("never_links")
    .select(["addressHash", "channel"])
    .where("codeHash", "=", codeHash)
    .executeTakeFirst();
}

/** Housekeeping: links not sent since `before`, unless their address is suppressed (its link undoes that). */
export async function deleteNeverLinksBefore(db: DB, before: number): Promise<number> {
  const res = await db
    .deleteFrom("never_links")
    .where("lastSentAt", "<", before)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("recipient_suppressions as s")
            .select("s.addressHash")
            .whereRef("s.addressHash", "=", "never_links.addressHash"),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
