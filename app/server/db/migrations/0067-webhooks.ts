import type { Kysely } from "kysely";

/**
 * The organisations' signed webhooks (decision 061):
 * - `webhook_endpoints`: an organisation's URLs, each with its signing secret, its chosen
 *   event types, whether it is enabled (and why not) and since when it has been failing.
 * - `webhook_messages`: one event for one endpoint, its payload as sent; the primary key
 *   (endpointId, eventId) keeps a retried announcement from queueing it twice. The
 *   deliveries themselves are rows of the one outbox (channel 'webhook').
 * - `webhook_deliveries`: every attempt (time, status, duration, ok): the delivery log.
 * Expand-only. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organisationId", "text", (c) => c.notNull().references("organisations.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("disabledReason", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("createdBy", "text", (c) => c.notNull())
    .addColumn("failingSince", "bigint")
    .execute();
  await db.schema
    .createIndex("webhook_endpoints_organisation_idx")
    .on("webhook_endpoints")
    .columns(["organisationId", "createdAt"])
    .execute();
  await db.schema
    .createTable("webhook_messages")
    .addColumn("endpointId", "text", (c) => c.notNull().references("webhook_endpoints.id").onDelete("cascade"))
    .addColumn("eventId", "text", (c) => c.notNull())
    .addColumn("eventType", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("webhook_messages_pk", ["endpointId", "eventId"])
    .execute();
  await db.schema.createIndex("webhook_messages_created_idx").on("webhook_messages").column("createdAt").execute();
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("endpointId", "text", (c) => c.notNull().references("webhook_endpoints.id").onDelete("cascade"))
    .addColumn("eventId", "text", (c) => c.notNull())
    .addColumn("eventType", "text", (c) => c.notNull())
    .addColumn("attemptedAt", "bigint", (c) => c.notNull())
    .addColumn("statusCode", "integer")
    .addColumn("durationMs", "integer", (c) => c.notNull())
    .addColumn("ok", "integer", (c) => c.notNull())
    .addColumn("error", "text")
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_endpoint_idx")
    .on("webhook_deliveries")
    .columns(["endpointId", "attemptedAt"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhook_messages").execute();
  await db.schema.dropTable("webhook_endpoints").execute();
}
