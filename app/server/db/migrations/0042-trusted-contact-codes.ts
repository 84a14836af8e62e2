import type { Kysely } from "kysely";

/**
 * Trusted contacts, second round (decision 040):
 * - trusted_contacts.confirmCode*: a contact who gave only a mobile number confirms with a
 *   six-digit code sent by SMS (an HMAC of it is stored, valid 10 minutes, five tries
 *   counted in the statement that checks them), typed on the page their SMS links to.
 * - trusted_contact_links: the short stop and reply links an SMS carries (both fit one
 *   part). The codes are derived from AUTH_SECRET and the ids, so only their SHA-256 is
 *   stored, to find the contact (and conversation) a short link opens. They go with the
 *   contact and with the conversation.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("trusted_contacts").addColumn("confirmCodeHash", "text").execute();
  await db.schema.alterTable("trusted_contacts").addColumn("confirmCodeExpiresAt", "bigint").execute();
  await db.schema
    .alterTable("trusted_contacts")
    .addColumn("confirmCodeAttempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("trusted_contact_links")
    .addColumn("codeHash", "text", (c) => c.primaryKey())
    // 'stop' | 'reply'
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("contactId", "text", (c) => c.notNull().references("trusted_contacts.id").onDelete("cascade"))
    .addColumn("conversationId", "text", (c) => c.references("conversations.id").onDelete("cascade"))
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("trusted_contact_links_contact_idx")
    .on("trusted_contact_links")
    .column("contactId")
    .execute();
  await db.schema
    .createIndex("trusted_contact_links_conversation_idx")
    .on("trusted_contact_links")
    .column("conversationId")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("trusted_contact_links").execute();
  await db.schema.alterTable("trusted_contacts").dropColumn("confirmCodeAttempts").execute();
  await db.schema.alterTable("trusted_contacts").dropColumn("confirmCodeExpiresAt").execute();
  await db.schema.alterTable("trusted_contacts").dropColumn("confirmCodeHash").execute();
}
