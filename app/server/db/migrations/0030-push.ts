import type { Kysely } from "kysely";

/**
 * Web push on the owner's devices (docs/decisions/034-push-notifications.md).
 * - server_keys: key pairs the service makes for itself once and every instance shares
 *   (the VAPID pair when VAPID_* is not set); written insert-if-absent.
 * - push_subscriptions: one row per browser that asked for notifications: the push
 *   service's endpoint and the browser's public keys (RFC 8291), a short device label.
 *   Deleted with the user, by "remove", and when the push service answers 404/410.
 * - push_outbox: notifications waiting to be sent (the mail outbox's pattern: claimed with a
 *   conditional update, retried with back-off, deleted once sent or given up).
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("server_keys")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("push_subscriptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    // One browser, one row: a second account subscribing the same browser takes it over.
    .addColumn("endpoint", "text", (c) => c.notNull().unique())
    .addColumn("p256dh", "text", (c) => c.notNull())
    .addColumn("auth", "text", (c) => c.notNull())
    // "Chrome on Android": from the User-Agent when subscribing, the full header is not kept.
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("lastSentAt", "bigint")
    .execute();
  await db.schema.createIndex("push_subscriptions_user_idx").on("push_subscriptions").column("userId").execute();

  await db.schema
    .createTable("push_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("subscriptionId", "text", (c) => c.notNull().references("push_subscriptions.id").onDelete("cascade"))
    // JSON {title, body, url, tag, lang}: what the service worker shows.
    .addColumn("payload", "text", (c) => c.notNull())
    // 'pending' | 'sending' (claimed until lockedUntil)
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

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("push_outbox").execute();
  await db.schema.dropTable("push_subscriptions").execute();
  await db.schema.dropTable("server_keys").execute();
}
