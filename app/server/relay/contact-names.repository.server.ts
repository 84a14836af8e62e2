/**
 * The trusted contacts' names a conversation shows beside their replies. Read here, by the
 * relay, rather than imported from the trusted contacts, which import the relay to send
 * their replies (decision 053).
 */
import type { DB } from "../db/db.server";

/** Names of contacts by id (for the owner's conversation view). */
export async function contactNamesOf(db: DB, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("trusted_contacts")
    .select(["id", "name"])
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
