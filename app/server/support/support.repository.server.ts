import { sql } from "kysely";
import type { DB } from "../db/db.server";

export interface NewContactMessage {
  id: string;
  name: string;
  email: string;
  message: string;
  lang: string;
  createdAt: number;
  /** The signed-in sender's account (decision 028); absent or null: sent signed out. */
  userId?: string | null;
}

export async function insertMessage(db: DB, m: NewContactMessage): Promise<void> {
  await db
    .insertInto("contact_messages")
    .values({ ...m, userId: m.userId ?? null, readAt: null, handledAt: null, handledBy: null })
    .execute();
}

export async function countMessages(db: DB): Promise<{ total: number; unread: number }> {
  const row = await db
    .selectFrom("contact_messages")
    .select([
      (eb) => eb.fn.countAll<number>().as("total"),
      sql<number>`sum(case when "readAt" is null then 1 else 0 end)`.as("unread"),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), unread: Number(row.unread ?? 0) };
}

/** One page of the inbox, newest first (id breaks ties so pages never overlap). */
export async function listMessages(db: DB, limit: number, offset: number) {
  return db
    .selectFrom("contact_messages")
    .select(["id", "name", "email", "message", "createdAt", "readAt", "handledAt"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function findMessage(db: DB, id: string) {
  return db.selectFrom("contact_messages").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function markRead(db: DB, id: string, now: number): Promise<void> {
  await db
    .updateTable("contact_messages")
    .set({ readAt: now })
    .where("id", "=", id)
    .where("readAt", "is", null)
    .execute();
}

export async function setHandled(db: DB, id: string, handled: { at: number; by: string } | null): Promise<void> {
  await db
    .updateTable("contact_messages")
    .set({ handledAt: handled?.at ?? null, handledBy: handled?.by ?? null })
    .where("id", "=", id)
    .execute();
}

export async function insertReply(
  db: DB,
  r: { id: string; messageId: string; authorEmail: string; text: string; mailId: string; createdAt: number },
): Promise<void> {
  await db.insertInto("contact_replies").values(r).execute();
}

export async function listReplies(db: DB, messageId: string) {
  return db
    .selectFrom("contact_replies")
    .select(["id", "authorEmail", "text", "createdAt"])
    .where("messageId", "=", messageId)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
}
