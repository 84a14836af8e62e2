import type { Kysely } from "kysely";

/**
 * The organisations' REST API (decision 054):
 * - `api_keys`: an organisation's keys. Only the SHA-256 of the key is kept (`hash`, unique:
 *   the look-up by hash is the comparison), with a short `hint` (its first characters) to
 *   tell keys apart on the page; `scope` read | read-write; who made it and when; its last
 *   use; `revokedAt` once revoked (the row stays for the page's history).
 * - `api_idempotency`: a POST's `Idempotency-Key` per API key, claimed by inserting the row
 *   first (the primary key is the lock, on every instance), with the body's hash and, once
 *   done, the answer given, replayed for 24 hours; the housekeeping job deletes older rows.
 * Expand-only. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organisationId", "text", (c) => c.notNull().references("organisations.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull().unique())
    .addColumn("hint", "text", (c) => c.notNull())
    .addColumn("createdBy", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("lastUsedAt", "bigint")
    .addColumn("revokedAt", "bigint")
    .execute();
  await db.schema
    .createIndex("api_keys_organisation_idx")
    .on("api_keys")
    .columns(["organisationId", "createdAt"])
    .execute();
  await db.schema
    .createTable("api_idempotency")
    .addColumn("keyId", "text", (c) => c.notNull())
    .addColumn("idempotencyKey", "text", (c) => c.notNull())
    .addColumn("requestHash", "text", (c) => c.notNull())
    .addColumn("status", "integer")
    .addColumn("body", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("api_idempotency_pk", ["keyId", "idempotencyKey"])
    .execute();
  await db.schema.createIndex("api_idempotency_created_idx").on("api_idempotency").column("createdAt").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_idempotency").execute();
  await db.schema.dropTable("api_keys").execute();
}
