import type { Kysely } from "kysely";

/**
 * docs/decisions/033-reach-the-owner.md: one alert fan-out with recorded
 * deliveries, SMS through the mail outbox, the owner's verified mobile number, the alert
 * settings and the SMS cost guard. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // The outbox carries every channel: a row is an email (as before), an SMS or a push.
  await db.schema
    .alterTable("mail_outbox")
    .addColumn("channel", "text", (c) => c.notNull().defaultTo("email"))
    .execute();
  // The alert delivery a row carries (null: a mail outside the fan-out, e.g. a receipt).
  await db.schema.alterTable("mail_outbox").addColumn("deliveryId", "text").execute();
  // What a channel needs beyond `to` and `text` (JSON): an SMS's delivery-report URL.
  await db.schema.alterTable("mail_outbox").addColumn("meta", "text").execute();

  // One row per recipient × channel of an alert, shown to the owner in the conversation.
  await db.schema
    .createTable("alert_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    // The account whose alert it is (the item's owner or manager): who sees the record.
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("itemId", "text", (c) => c.references("products.id").onDelete("cascade"))
    .addColumn("conversationId", "text", (c) => c.references("conversations.id").onDelete("cascade"))
    // finderMessage | reply | lostScan | scan | returned
    .addColumn("event", "text", (c) => c.notNull())
    // email | sms | push
    .addColumn("channel", "text", (c) => c.notNull())
    // owner | contact
    .addColumn("recipientKind", "text", (c) => c.notNull())
    // A trusted contact's id (recipientKind contact), else null.
    .addColumn("contactId", "text")
    // The recipient as shown to the owner, masked ("+46 70…", "a…@example.se").
    .addColumn("recipientLabel", "text", (c) => c.notNull())
    // queued | sent | delivered | failed | blocked (the SMS cost guard stopped it)
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lastError", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("sentAt", "bigint")
    // From the provider's delivery report (46elks' whendelivered).
    .addColumn("deliveredAt", "bigint")
    // SHA-256 of the per-message secret in the delivery-report URL (SMS only).
    .addColumn("reportTokenHash", "text")
    // The provider's message id (46elks' "id").
    .addColumn("providerId", "text")
    .execute();
  await db.schema
    .createIndex("alert_deliveries_conversation_idx")
    .on("alert_deliveries")
    .columns(["conversationId", "createdAt"])
    .execute();
  await db.schema.createIndex("alert_deliveries_user_idx").on("alert_deliveries").column("userId").execute();
  await db.schema.createIndex("alert_deliveries_report_idx").on("alert_deliveries").column("reportTokenHash").execute();

  // The owner's mobile number: verified by a six-digit code by SMS.
  await db.schema
    .createTable("user_phones")
    .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    // E.164, the number alerts go to once verified (null: none verified yet).
    .addColumn("phone", "text")
    .addColumn("verifiedAt", "bigint")
    // The number waiting for its code, the code's hash, expiry and tries left.
    .addColumn("pendingPhone", "text")
    .addColumn("codeHash", "text")
    .addColumn("codeExpiresAt", "bigint")
    .addColumn("codeAttempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  // Event × channel choices (JSON); no row: the defaults.
  await db.schema
    .createTable("alert_settings")
    .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("settings", "text", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .execute();

  // The SMS cost guard's counters (fixed windows of a day per item, 30 days per account):
  // not app_rate_limits, whose housekeeping forgets counters after a day.
  await db.schema
    .createTable("sms_quotas")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("windowStart", "bigint", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    // When the owner was last told that the guard stopped an SMS in this window.
    .addColumn("noticeAt", "bigint")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sms_quotas").execute();
  await db.schema.dropTable("alert_settings").execute();
  await db.schema.dropTable("user_phones").execute();
  await db.schema.dropTable("alert_deliveries").execute();
  await db.schema.alterTable("mail_outbox").dropColumn("meta").execute();
  await db.schema.alterTable("mail_outbox").dropColumn("deliveryId").execute();
  await db.schema.alterTable("mail_outbox").dropColumn("channel").execute();
}
