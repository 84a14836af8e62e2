import type { Kysely } from "kysely";

/**
 * Mail is written here first and delivered by a worker, so a mail-server outage
 * delays mail but never loses it. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("to", "text", (c) => c.notNull())
    .addColumn("replyTo", "text")
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("html", "text")
    // pending → sending → sent, or back to pending with a later nextAttemptAt; failed after the last try
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("nextAttemptAt", "bigint", (c) => c.notNull())
    .addColumn("lockedUntil", "bigint")
    .addColumn("lastError", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("sentAt", "bigint")
    .execute();
  await db.schema.createIndex("mail_outbox_due_idx").on("mail_outbox").columns(["status", "nextAttemptAt"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("mail_outbox").execute();
}
