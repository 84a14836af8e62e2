/**
 * SQL of the organisations' webhooks (decision 061): endpoints, the messages queued for
 * them (one per event and endpoint), the delivery log, and the rows their payloads read.
 * The same queries on SQLite and PostgreSQL.
 */
import type { Selectable } from "kysely";
import type { DB } from "../db/db.server";
import { readBool } from "../db/db.server";
import type { WebhookDeliveryTable, WebhookEndpointTable } from "../db/schema";
import type { ItemRowForApi } from "../api/representation.server";

export type EndpointRow = Selectable<WebhookEndpointTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;

const num = (v: unknown): number | null => (v == null ? null : Number(v));

function endpointOf(row: EndpointRow): EndpointRow {
  return {
    ...row,
    enabled: readBool(row.enabled) ? 1 : 0,
    createdAt: Number(row.createdAt),
    failingSince: num(row.failingSince),
  };
}

/** The role of `userId` in the organisation, or undefined for an outsider. */
export async function findRole(db: DB, organisationId: string, userId: string) {
  const row = await db
    .selectFrom("organisation_members as m")
    .innerJoin("organisations as o", "o.id", "m.organisationId")
    .innerJoin("user as u", "u.id", "m.userId")
    .select(["m.role", "o.name", "u.emailVerified"])
    .where("m.organisationId", "=", organisationId)
    .where("m.userId", "=", userId)
    .executeTakeFirst();
  return (
    row && {
      role: row.role as "admin" | "member",
      organisationName: row.name,
      emailVerified: readBool(row.emailVerified),
    }
  );
}

export async function listEndpoints(db: DB, organisationId: string): Promise<EndpointRow[]> {
  const rows = await db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("organisationId", "=", organisationId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map(endpointOf);
}

export async function findEndpoint(db: DB, id: string): Promise<EndpointRow | undefined> {
  const row = await db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id).executeTakeFirst();
  return row && endpointOf(row);
}

export async function insertEndpoint(db: DB, row: EndpointRow): Promise<void> {
  await db.insertInto("webhook_endpoints").values(row).execute();
}

/** Enabled (its failing forgotten) or disabled with a reason; only a change of state is written. */
export async function setEnabled(
  db: DB,
  id: string,
  enabled: boolean,
  reason: "admin" | "failing" | null,
): Promise<boolean> {
  const r = await db
    .updateTable("webhook_endpoints")
    .set(enabled ? { enabled: 1, disabledReason: null, failingSince: null } : { enabled: 0, disabledReason: reason })
    .where("id", "=", id)
    .where("enabled", "=", enabled ? 0 : 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Deletes the endpoint with its messages and its log. */
export async function deleteEndpoint(db: DB, id: string): Promise<void> {
  await db.deleteFrom("webhook_deliveries").where("endpointId", "=", id).execute();
  await db.deleteFrom("webhook_messages").where("endpointId", "=", id).execute();
  await db.deleteFrom("webhook_endpoints").where("id", "=", id).execute();
}

/** The enabled endpoints of an organisation (each chose its own types: the caller filters). */
export async function listEnabledEndpoints(db: DB, organisationId: string): Promise<EndpointRow[]> {
  const rows = await db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("organisationId", "=", organisationId)
    .where("enabled", "=", 1)
    .execute();
  return rows.map(endpointOf);
}

/** A failed delivery: failing since now, unless it already was. Answers since when. */
export async function markFailing(db: DB, id: string, now: number): Promise<number> {
  await db
    .updateTable("webhook_endpoints")
    .set({ failingSince: now })
    .where("id", "=", id)
    .where("failingSince", "is", null)
    .execute();
  const row = await db.selectFrom("webhook_endpoints").select("failingSince").where("id", "=", id).executeTakeFirst();
  return num(row?.failingSince) ?? now;
}

/** A delivery succeeded: not failing any more. */
export async function clearFailing(db: DB, id: string): Promise<void> {
  await db
    .updateTable("webhook_endpoints")
    .set({ failingSince: null })
    .where("id", "=", id)
    .where("failingSince", "is not", null)
    .execute();
}

/** Queues the message unless this endpoint has it already; true when it was new. */
export async function insertMessage(
  db: DB,
  m: { endpointId: string; eventId: string; eventType: string; payload: string; createdAt: number },
): Promise<boolean> {
  const r = await db
    .insertInto("webhook_messages")
    .values(m)
    .onConflict((oc) => oc.columns(["endpointId", "eventId"]).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function findMessage(db: DB, endpointId: string, eventId: string) {
  return db
    .selectFrom("webhook_messages")
    .select(["eventId", "eventType", "payload"])
    .where("endpointId", "=", endpointId)
    .where("eventId", "=", eventId)
    .executeTakeFirst();
}

/** The events and delivery attempts older than `cutoff` (housekeeping, RETENTION_MS.webhooks). */
export async function deleteWebhookRecordsBefore(db: DB, cutoff: number): Promise<number> {
  const attempts = await db.deleteFrom("webhook_deliveries").where("attemptedAt", "<", cutoff).executeTakeFirst();
  const messages = await db.deleteFrom("webhook_messages").where("createdAt", "<", cutoff).executeTakeFirst();
  return Number(attempts.numDeletedRows) + Number(messages.numDeletedRows);
}

export async function insertDelivery(db: DB, row: DeliveryRow): Promise<void> {
  await db.insertInto("webhook_deliveries").values(row).execute();
}

/** The endpoint's latest attempts, newest first. */
export async function listDeliveries(db: DB, endpointId: string, limit: number): Promise<DeliveryRow[]> {
  const rows = await db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("endpointId", "=", endpointId)
    .orderBy("attemptedAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    attemptedAt: Number(r.attemptedAt),
    statusCode: num(r.statusCode),
    durationMs: Number(r.durationMs),
    ok: readBool(r.ok) ? 1 : 0,
  }));
}

/** What an item's API representation reads, and the organisation it belongs to. */
export async function findItemForApi(
  db: DB,
  id: string,
): Promise<(ItemRowForApi & { organisationId: string | null }) | undefined> {
  const row = await db
    .selectFrom("products")
    .select([
      "id",
      "code",
      "name",
      "prodType",
      "findFee",
      "currency",
      "contactVisibility",
      "payed",
      "paidUntil",
      "active",
      "lostAt",
      "lastScannedAt",
      "assignedTo",
      "createdAt",
      "updatedAt",
      "organisationId",
    ])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    findFee: Number(row.findFee),
    payed: readBool(row.payed) ? 1 : 0,
    active: readBool(row.active) ? 1 : 0,
    paidUntil: num(row.paidUntil),
    lostAt: num(row.lostAt),
    lastScannedAt: num(row.lastScannedAt),
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
  };
}

/** What an order's representation in a payload reads. */
export async function findOrderForPayload(db: DB, id: string) {
  const row = await db
    .selectFrom("orders")
    .select([
      "id",
      "organisationId",
      "status",
      "method",
      "paymentKind",
      "period",
      "currency",
      "count",
      "totalAmount",
      "invoiceNumber",
      "dueAt",
      "paidAt",
      "paidUntil",
      "createdAt",
    ])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    count: Number(row.count),
    totalAmount: Number(row.totalAmount),
    dueAt: num(row.dueAt),
    paidAt: num(row.paidAt),
    paidUntil: num(row.paidUntil),
    createdAt: Number(row.createdAt),
  };
}

/** The ids of an order's items. */
export async function listOrderItemIds(db: DB, orderId: string): Promise<string[]> {
  const rows = await db.selectFrom("order_items").select("productId").where("orderId", "=", orderId).execute();
  return rows.map((r) => r.productId);
}

/** The organisation's admins with a verified address, for the "endpoint disabled" mail. */
export async function listAdminsToMail(db: DB, organisationId: string) {
  const rows = await db
    .selectFrom("organisation_members as m")
    .innerJoin("user as u", "u.id", "m.userId")
    .select(["u.name", "u.email", "u.emailVerified", "u.language"])
    .where("m.organisationId", "=", organisationId)
    .where("m.role", "=", "admin")
    .orderBy("u.id")
    .execute();
  return rows.filter((r) => readBool(r.emailVerified));
}

export async function findOrganisationName(db: DB, id: string): Promise<string | undefined> {
  const row = await db.selectFrom("organisations").select("name").where("id", "=", id).executeTakeFirst();
  return row?.name;
}
