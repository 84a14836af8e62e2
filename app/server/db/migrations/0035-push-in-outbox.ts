import type { Kysely } from "kysely";

/**
 * Push goes through the one durable queue (docs/decisions/040-trusted-contacts-and-one-queue.md):
 * a notification is a `mail_outbox` row with channel 'push' (`to`: the subscription's id,
 * `text`: the payload), claimed, retried and recorded like mail and SMS. The separate
 * push_outbox of migration 0030 and its worker are gone; rows still waiting in it are
 * dropped (a notification hours late is noise; mail carried the same alert).
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("push_outbox").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("push_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("subscriptionId", "text", (c) => c.notNull().references("push_subscriptions.id").onDelete("cascade"))
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("nextAttemptAt", "bigint", (c) => c.notNull())
    .addColumn("lockedUntil", "bigint")
    .addColumn("lastError", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("push_outbox_due_idx").on("push_outbox").columns(["status", "nextAttemptAt"]).execute();
  await db.schema.createIndex("push_outbox_subscription_idx").on("push_outbox").column("subscriptionId").execute();
}
