import type { Kysely } from "kysely";

/**
 * The support inbox (contact messages and staff replies), single-use captcha solutions
 * and admin grants made with `npm run admin:grant`. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("contact_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    // The sender's page language ('en' | 'sv'): replies are written in it.
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("readAt", "bigint")
    .addColumn("handledAt", "bigint")
    .addColumn("handledBy", "text")
    .execute();
  // The inbox lists newest first; id breaks ties so pages never overlap.
  await db.schema
    .createIndex("contact_messages_created_idx")
    .on("contact_messages")
    .columns(["createdAt", "id"])
    .execute();

  await db.schema
    .createTable("contact_replies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("messageId", "text", (c) => c.notNull().references("contact_messages.id").onDelete("cascade"))
    .addColumn("authorEmail", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("mailId", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("contact_replies_message_idx")
    .on("contact_replies")
    .columns(["messageId", "createdAt"])
    .execute();

  // One row per accepted captcha solution (ALTCHA challenge nonce): a replay hits the key.
  await db.schema
    .createTable("captcha_solutions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("captcha_solutions_expires_idx").on("captcha_solutions").column("expiresAt").execute();

  // Keyed by email (lower case) so a grant can be made before the person signs up.
  await db.schema
    .createTable("admin_grants")
    .addColumn("email", "text", (c) => c.primaryKey())
    .addColumn("grantedAt", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["admin_grants", "captcha_solutions", "contact_replies", "contact_messages"]) {
    await db.schema.dropTable(t).execute();
  }
}
