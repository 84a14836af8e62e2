/**
 * SQL of who may be messaged (decision 046): the suppression list and the "never contact
 * me again" links. Both hold fingerprints, never the address or number itself.
 */
import { createHash } from "node:crypto";
import type { DB } from "../db/db.server";

export type Channel = "email" | "sms";

/**
 * The fingerprint an address or number is kept under: SHA-256 of "email:<lower-case
 * address>" or "sms:<E.164>". Migration 0049 computes the same for contacts who had
 * stopped before the list existed: change both or neither.
 */
export function addressHash(channel: Channel, address: string): string {
  const key = channel === "email" ? address.trim().toLowerCase() : address;
  return createHash("sha256").update(`${channel}:${key}`).digest("hex");
}

export async function isSuppressed(db: DB, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom("recipient_suppressions")
    .select("addressHash")
    .where("addressHash", "=", hash)
    .executeTakeFirst();
  return row !== undefined;
}

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

export async function unsuppress(db: DB, hash: string): Promise<void> {
  await db.deleteFrom("recipient_suppressions").where("addressHash", "=", hash).execute();
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
