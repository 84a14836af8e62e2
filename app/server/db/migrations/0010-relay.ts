import type { Kysely } from "kysely";

/**
 * The finder-to-owner relay (decision 013): per-item contact visibility, conversations
 * (one per finder, reached by the finder through a private token) and their messages.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // 'public' (the spec's behaviour, contact info on the item page) | 'private' (relay only).
  await db.schema
    .alterTable("products")
    .addColumn("contactVisibility", "text", (c) => c.notNull().defaultTo("public"))
    .execute();

  await db.schema
    .createTable("conversations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("itemId", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("ownerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    // The finder's private link /m/{token}: 256 random bits, the finder's only key.
    .addColumn("finderToken", "text", (c) => c.notNull().unique())
    // What the finder typed under "your email or phone" ('' when nothing).
    .addColumn("finderContact", "text", (c) => c.notNull())
    // 'en' | 'sv': the finder's page language; mails to the finder are written in it.
    .addColumn("finderLang", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    // Newest first in /messages; retention counts 180 days from it.
    .addColumn("lastMessageAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("conversations_owner_idx")
    .on("conversations")
    .columns(["ownerId", "lastMessageAt"])
    .execute();
  await db.schema.createIndex("conversations_last_idx").on("conversations").column("lastMessageAt").execute();
  await db.schema.createIndex("conversations_item_idx").on("conversations").column("itemId").execute();

  await db.schema
    .createTable("conversation_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversationId", "text", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    // 'finder' | 'owner'
    .addColumn("author", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    // The finder's shared position (both or neither), degrees.
    .addColumn("latitude", "double precision")
    .addColumn("longitude", "double precision")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    // Read by the other side: the owner for finder messages (unread counts), the finder for replies.
    .addColumn("readAt", "bigint")
    .execute();
  await db.schema
    .createIndex("conversation_messages_conv_idx")
    .on("conversation_messages")
    .columns(["conversationId", "createdAt"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("conversation_messages").execute();
  await db.schema.dropTable("conversations").execute();
  await db.schema.alterTable("products").dropColumn("contactVisibility").execute();
}
