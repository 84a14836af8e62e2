/**
 * SQL the REST API needs beyond the features' own (decision 054): an organisation's
 * conversations by cursor, an item's scans since a time, and the Idempotency-Key rows.
 * The same queries on SQLite and PostgreSQL.
 */
import type { DB } from "../db/db.server";

export interface ConversationOfOrganisation {
  id: string;
  itemId: string;
  createdAt: number;
  lastMessageAt: number;
  bySms: boolean;
  returned: boolean;
}

/** The organisation's conversations (optionally of one item), latest message first, after a position. */
export async function listConversationsOfOrganisation(
  db: DB,
  organisationId: string,
  itemId: string | null,
  after: { at: number; id: string } | null,
  limit: number,
): Promise<ConversationOfOrganisation[]> {
  let q = db
    .selectFrom("conversations as c")
    .innerJoin("products as p", "p.id", "c.itemId")
    .select(["c.id", "c.itemId", "c.createdAt", "c.lastMessageAt", "c.finderPhone", "c.returnedAt"])
    .where("p.organisationId", "=", organisationId);
  if (itemId !== null) q = q.where("c.itemId", "=", itemId);
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb("c.lastMessageAt", "<", after.at),
        eb.and([eb("c.lastMessageAt", "=", after.at), eb("c.id", ">", after.id)]),
      ]),
    );
  }
  const rows = await q.orderBy("c.lastMessageAt", "desc").orderBy("c.id").limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    itemId: r.itemId,
    createdAt: Number(r.createdAt),
    lastMessageAt: Number(r.lastMessageAt),
    bySms: r.finderPhone != null,
    returned: r.returnedAt != null,
  }));
}

/** One conversation, when its item is the organisation's. */
export async function findConversationOfOrganisation(
  db: DB,
  organisationId: string,
  id: string,
): Promise<ConversationOfOrganisation | undefined> {
  const row = await db
    .selectFrom("conversations as c")
    .innerJoin("products as p", "p.id", "c.itemId")
    .select(["c.id", "c.itemId", "c.createdAt", "c.lastMessageAt", "c.finderPhone", "c.returnedAt"])
    .where("c.id", "=", id)
    .where("p.organisationId", "=", organisationId)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      itemId: row.itemId,
      createdAt: Number(row.createdAt),
      lastMessageAt: Number(row.lastMessageAt),
      bySms: row.finderPhone != null,
      returned: row.returnedAt != null,
    }
  );
}

/** An item's scans at or after `since`, oldest first. */
export async function listScansSince(db: DB, itemId: string, since: number, limit: number) {
  const rows = await db
    .selectFrom("item_scans")
    .select(["scannedAt", "lang", "device"])
    .where("productId", "=", itemId)
    .where("scannedAt", ">=", since)
    .orderBy("scannedAt", "asc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ at: Number(r.scannedAt), lang: r.lang, device: r.device }));
}

export interface IdempotencyRow {
  requestHash: string;
  status: number | null;
  body: string | null;
  createdAt: number;
}

/**
 * Claims an Idempotency-Key for this request: inserts its row, or takes over a row older
 * than `expiredBefore` (a day-old key is free again). True when this request owns it now;
 * the primary key decides between concurrent requests on any instance.
 */
export async function claimIdempotencyKey(
  db: DB,
  row: { keyId: string; idempotencyKey: string; requestHash: string; createdAt: number },
  expiredBefore: number,
): Promise<boolean> {
  const inserted = await db
    .insertInto("api_idempotency")
    .values({ ...row, status: null, body: null })
    .onConflict((oc) =>
      oc
        .columns(["keyId", "idempotencyKey"])
        .doUpdateSet({ requestHash: row.requestHash, status: null, body: null, createdAt: row.createdAt })
        .where("api_idempotency.createdAt", "<", expiredBefore),
    )
    .returning("keyId")
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findIdempotencyKey(db: DB, keyId: string, idempotencyKey: string) {
  const row = await db
    .selectFrom("api_idempotency")
    .select(["requestHash", "status", "body", "createdAt"])
    .where("keyId", "=", keyId)
    .where("idempotencyKey", "=", idempotencyKey)
    .executeTakeFirst();
  return (
    row && {
      requestHash: row.requestHash,
      status: row.status == null ? null : Number(row.status),
      body: row.body,
      createdAt: Number(row.createdAt),
    }
  );
}

/** Keeps the answer of the request that owns the key. */
export async function storeIdempotentAnswer(
  db: DB,
  keyId: string,
  idempotencyKey: string,
  answer: { status: number; body: string },
): Promise<void> {
  await db
    .updateTable("api_idempotency")
    .set(answer)
    .where("keyId", "=", keyId)
    .where("idempotencyKey", "=", idempotencyKey)
    .execute();
}

/** Lets the key go again (the work failed unexpectedly: a retry may try afresh). */
export async function releaseIdempotencyKey(db: DB, keyId: string, idempotencyKey: string): Promise<void> {
  await db
    .deleteFrom("api_idempotency")
    .where("keyId", "=", keyId)
    .where("idempotencyKey", "=", idempotencyKey)
    .where("status", "is", null)
    .execute();
}

/** Rows older than `before` (the housekeeping job). */
export async function deleteIdempotencyKeysBefore(db: DB, before: number): Promise<number> {
  const res = await db.deleteFrom("api_idempotency").where("createdAt", "<", before).executeTakeFirst();
  return Number(res.numDeletedRows);
}
