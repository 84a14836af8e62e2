/**
 * The suppression list as the senders read it (decision 046): the fingerprints of an
 * address or number, and whether any is on the list. Here, below the recipients' rules,
 * so the SMS sender checks the list at sending time without importing the feature that
 * keeps it (decision 053); recipients.repository.server.ts re-exports these.
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
