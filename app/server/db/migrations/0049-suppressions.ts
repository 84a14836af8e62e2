import { createHash } from "node:crypto";
import type { Kysely } from "kysely";

/**
 * Who asked never to be contacted (decision 046):
 * - `recipient_suppressions`: one row per address or number that said "never contact me
 *   again" (or stopped as a trusted contact). Keyed by a fingerprint, the SHA-256 of
 *   "email:<lower-case address>" or "sms:<E.164 number>" — the same as
 *   `addressHash` in app/server/recipients/recipients.repository.server.ts — so the list
 *   answers "is this one suppressed?" without keeping the address itself. Held until the
 *   person allows messages again themselves.
 * - `never_links`: the "never contact me again" link every consent request carries
 *   (`/t/n/{code}`): the SHA-256 of its code and the fingerprint it suppresses.
 * Contacts who had stopped before this list existed are put on it, every address and
 * number they had (the stop then was theirs, whichever way it came). Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("recipient_suppressions")
    .addColumn("addressHash", "text", (c) => c.primaryKey())
    // 'email' | 'sms'
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("never_links")
    .addColumn("codeHash", "text", (c) => c.primaryKey())
    .addColumn("addressHash", "text", (c) => c.notNull())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("lastSentAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("never_links_sent_idx").on("never_links").column("lastSentAt").execute();

  const fingerprint = (channel: string, address: string) =>
    createHash("sha256").update(`${channel}:${address}`).digest("hex");
  const stopped = await db
    .selectFrom("trusted_contacts")
    .select(["email", "phone", "stoppedAt"])
    .where("stoppedAt", "is not", null)
    .execute();
  const rows = new Map<string, { addressHash: string; channel: string; createdAt: number }>();
  for (const c of stopped) {
    const at = Number(c.stoppedAt);
    if (c.email) {
      const addressHash = fingerprint("email", String(c.email).toLowerCase());
      rows.set(addressHash, { addressHash, channel: "email", createdAt: at });
    }
    if (c.phone) {
      const addressHash = fingerprint("sms", String(c.phone));
      rows.set(addressHash, { addressHash, channel: "sms", createdAt: at });
    }
  }
  const all = [...rows.values()];
  for (let i = 0; i < all.length; i += 500) {
    await db
      .insertInto("recipient_suppressions")
      .values(all.slice(i, i + 500))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("never_links").execute();
  await db.schema.dropTable("recipient_suppressions").execute();
}
