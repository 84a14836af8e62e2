import type { Kysely } from "kysely";

/**
 * Trusted contacts (docs/decisions/040-trusted-contacts-and-one-queue.md).
 * - trusted_contacts: up to three people an account names (name, email and/or mobile in
 *   E.164). Nothing reaches them before `confirmedAt` (the link they were sent, whose
 *   SHA-256 is `confirmTokenHash`), nothing after `stoppedAt` (the link in every message).
 *   Erased with the account (cascade); an unconfirmed one is forgotten after 30 days.
 * - trusted_contact_exclusions: an item whose alerts a contact does NOT get (the default
 *   is every item, so only the exceptions are stored).
 * - conversation_messages.contactId: a reply a trusted contact wrote through their link
 *   (the finder sees it as the owner's side; the owner sees who wrote it).
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("trusted_contacts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("phone", "text")
    // 'en' | 'sv': the language of their messages (the owner's when they were added).
    .addColumn("language", "text", (c) => c.notNull())
    .addColumn("confirmTokenHash", "text")
    .addColumn("confirmSentAt", "bigint")
    .addColumn("confirmedAt", "bigint")
    .addColumn("stoppedAt", "bigint")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("trusted_contacts_user_idx").on("trusted_contacts").column("userId").execute();
  await db.schema
    .createIndex("trusted_contacts_confirm_idx")
    .on("trusted_contacts")
    .column("confirmTokenHash")
    .execute();

  await db.schema
    .createTable("trusted_contact_exclusions")
    .addColumn("contactId", "text", (c) => c.notNull().references("trusted_contacts.id").onDelete("cascade"))
    .addColumn("itemId", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("trusted_contact_exclusions_pk", ["contactId", "itemId"])
    .execute();

  await db.schema.alterTable("conversation_messages").addColumn("contactId", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("conversation_messages").dropColumn("contactId").execute();
  await db.schema.dropTable("trusted_contact_exclusions").execute();
  await db.schema.dropTable("trusted_contacts").execute();
}
