import type { Kysely } from "kysely";

/**
 * docs/decisions/028-accountable-invoicing.md: a contact message sent
 * while signed in is linked to the account that sent it, so it belongs to that account
 * whatever address was typed; messages without a user (sent signed out) belong to an
 * account only once it has verified their address. Null for every message sent before.
 * No foreign key: erasing the account deletes its messages itself (privacy.service).
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("contact_messages").addColumn("userId", "text").execute();
  await db.schema.createIndex("contact_messages_user_idx").on("contact_messages").column("userId").execute();
  // Export and erasure look messages up by address too.
  await db.schema.createIndex("contact_messages_email_idx").on("contact_messages").column("email").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("contact_messages_email_idx").execute();
  await db.schema.dropIndex("contact_messages_user_idx").execute();
  await db.schema.alterTable("contact_messages").dropColumn("userId").execute();
}
