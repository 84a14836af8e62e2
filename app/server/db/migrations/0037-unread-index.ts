import { sql, type Kysely } from "kysely";

/**
 * Decision 042: the unread count every signed-in page shows (countUnreadOfOwner) starts
 * from the finder messages not opened yet, a small set, instead of every item the user
 * manages (50,000 for a large organisation's admin took ~400 ms per page on PostgreSQL).
 * A partial index holds only those messages. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("conversation_messages_unread_idx")
    .on("conversation_messages")
    .column("conversationId")
    .where(sql.ref("author"), "=", "finder")
    .where(sql.ref("readAt"), "is", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("conversation_messages_unread_idx").execute();
}
