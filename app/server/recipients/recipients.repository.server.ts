/**
 * SQL of who may be messaged (decision 046): the suppression list and the "never contact
 * me again" links. Both hold fingerprints, never the address or number itself.
 */
import { createHash } from "node:crypto";
import type { DB } from "../db/db.server";

export type Channel = "email" | "sms";

/**
 * The fingerprint of the exact form an address or number is kept under: SHA-256 of
 * "email:<lower-case address>" or "sms:<E.164>". Migration 0049 computes the same for
 * contacts who had stopped before the list existed: change both or neither.
 */
export function addressHash(channel: Channel, address: string): string {
  const key = channel === "email" ? address.trim().toLowerCase() : address;
  return createHash("sha256").update(`${channel}:${key}`).digest("hex");
}

/** Mail providers that ignore dots in the local part; googlemail.com is gmail.com (decision 058). */
const DOTLESS_DOMAINS = new Set(["gmail.com"]);
const DOMAIN_ALIASES: Record<string, string> = { "googlemail.com": "gmail.com" };

/**
 * The mailbox an address reaches (decision 058): lower case, without a "+tag" (any
 * domain), googlemail.com as gmail.com, and without dots at Gmail. `victim+x@gmail.com`,
 * `v.ictim@googlemail.com` and `victim@gmail.com` are one mailbox and one recipient. A
 * number is already canonical (E.164).
 */
export function canonicalAddress(channel: Channel, address: string): string {
  if (channel === "sms") return address;
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf("@");
  if (at <= 0) return lower;
  const domain = DOMAIN_ALIASES[lower.slice(at + 1)] ?? lower.slice(at + 1);
  let local = lower.slice(0, at);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) local = local.replaceAll(".", "") || local;
  return `${local}@${domain}`;
}

/**
 * The fingerprint of the canonical form: the same formula as addressHash, so for an
 * address already canonical (most) the two are one, and rows stored before decision 058
 * cover every spelling of it. Limits count on this one.
 */
export function canonicalHash(channel: Channel, address: string): string {
  return addressHash(channel, canonicalAddress(channel, address));
}

/** Both fingerprints of an address (one when it is canonical): the list is checked for either. */
export function fingerprintsOf(channel: Channel, address: string): string[] {
  return [...new Set([addressHash(channel, address), canonicalHash(channel, address)])];
}

/** Whether any of these fingerprints is on the list. */
export async function isSuppressed(db: DB, hashes: string | string[]): Promise<boolean> {
  const all = typeof hashes === "string" ? [hashes] : hashes;
  const row = await db
    .selectFrom("recipient_suppressions")
    .select("addressHash")
    .where("addressHash", "in", all)
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
