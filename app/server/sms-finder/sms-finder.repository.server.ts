/**
 * SQL of finders who only have SMS (decision 055): the incoming SMS already handled
 * (46elks resends), the conversations a number or an owner's phone points to. One query per
 * function, the same on SQLite and PostgreSQL.
 */
import type { DB } from "../db/db.server";
import { canManage } from "../access/item-access.repository.server";

/**
 * Claims 46elks' id for this handling: true the first time, false when it was (or is being)
 * handled already — a resend.
 */
export async function claimIncoming(db: DB, id: string, now: number): Promise<boolean> {
  const row = await db
    .insertInto("elks_incoming")
    .values({ id, receivedAt: now, reply: null })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives a claim back (the handling failed before it stored anything): 46elks' resend is handled afresh. */
export async function releaseIncoming(db: DB, id: string): Promise<void> {
  await db.deleteFrom("elks_incoming").where("id", "=", id).execute();
}

/** Marks the SMS handled, with its reply ("" when none: `reply` null means still being handled). */
export async function setIncomingReply(db: DB, id: string, reply: string | null): Promise<void> {
  await db
    .updateTable("elks_incoming")
    .set({ reply: reply ?? "" })
    .where("id", "=", id)
    .execute();
}

/** A handled SMS's reply ("" none), null while its first handling is still running or gone. */
export async function incomingReplyOf(db: DB, id: string): Promise<string | null> {
  const row = await db.selectFrom("elks_incoming").select("reply").where("id", "=", id).executeTakeFirst();
  return row?.reply ?? null;
}

export async function deleteIncomingBefore(db: DB, before: number): Promise<number> {
  const res = await db.deleteFrom("elks_incoming").where("receivedAt", "<", before).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** The newest conversation this number opened by SMS since `since` (about `itemId`, when given). */
export async function latestFinderConversation(
  db: DB,
  phone: string,
  since: number,
  itemId?: string,
): Promise<{ id: string; itemId: string } | undefined> {
  let q = db
    .selectFrom("conversations")
    .select(["id", "itemId"])
    .where("finderPhone", "=", phone)
    .where("lastMessageAt", ">=", since);
  if (itemId) q = q.where("itemId", "=", itemId);
  return q.orderBy("lastMessageAt", "desc").orderBy("id", "desc").limit(1).executeTakeFirst();
}

/** Accounts whose verified mobile number this is. */
export async function usersOfVerifiedPhone(db: DB, phone: string): Promise<string[]> {
  const rows = await db
    .selectFrom("user_phones")
    .select("userId")
    .where("phone", "=", phone)
    .where("verifiedAt", "is not", null)
    .execute();
  return rows.map((r) => r.userId);
}

/**
 * Conversations opened by SMS about items the user manages, newest first: with `ref`, those
 * carrying it; without, those still open (a message since `since`, not returned).
 */
export async function smsConversationsOf(
  db: DB,
  userId: string,
  filter: { ref: string } | { since: number },
  limit: number,
): Promise<{ id: string }[]> {
  let q = db
    .selectFrom("conversations as c")
    .innerJoin("products as p", "p.id", "c.itemId")
    .select("c.id")
    .where("c.finderPhone", "is not", null)
    .where(canManage(userId, "p"));
  q =
    "ref" in filter
      ? q.where("c.smsRef", "=", filter.ref)
      : q.where("c.lastMessageAt", ">=", filter.since).where("c.returnedAt", "is", null);
  return q.orderBy("c.lastMessageAt", "desc").orderBy("c.id", "desc").limit(limit).execute();
}
