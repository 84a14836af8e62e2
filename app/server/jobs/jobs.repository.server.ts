/**
 * Housekeeping deletes (decision 012, HTTP part). One query per function; each is
 * idempotent, so two instances running them at once delete nothing twice.
 */
import { sql } from "kysely";
import type { DB, Dialect } from "../db/db.server";

/** Sent mail (it holds addresses and reset links) sent before `before`. */
export async function deleteSentMailBefore(db: DB, before: number): Promise<number> {
  const r = await db
    .deleteFrom("mail_outbox")
    .where("status", "=", "sent")
    .where("sentAt", "<", before)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Payment events received before `before` (past the bookkeeping period). */
export async function deletePaymentEventsBefore(db: DB, before: number): Promise<number> {
  const r = await db.deleteFrom("payment_events").where("receivedAt", "<", before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Our advisory-lock key for the housekeeping run ("hittad-housekeeping", any stable bigint). */
const HOUSEKEEPING_LOCK = 7_428_115_001;

/**
 * Bookkeeping records past their 7 years (decision 041): receipts paid and credit notes issued before `before`, then
 * orders with nothing dated after it (made, paid until, refunded) and no receipt left, with
 * their lines and shipments. In batches of 500 orders. Answers how many records went.
 */
export async function deleteBookkeepingBefore(db: DB, before: number): Promise<number> {
  const receipts = await db.deleteFrom("receipts").where("paidAt", "<", before).executeTakeFirst();
  // Credit notes (decision 051) are bookkeeping records of the same kind, dated when issued.
  const notes = await db.deleteFrom("credit_notes").where("createdAt", "<", before).executeTakeFirst();
  let deleted = Number(receipts.numDeletedRows) + Number(notes.numDeletedRows);
  for (;;) {
    const ids = (
      await db
        .selectFrom("orders")
        .select("id")
        .where("createdAt", "<", before)
        .where((eb) => eb.or([eb("paidUntil", "is", null), eb("paidUntil", "<", before)]))
        .where((eb) => eb.or([eb("refundedAt", "is", null), eb("refundedAt", "<", before)]))
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom("receipts").select("id").whereRef("receipts.orderId", "=", "orders.id"))),
        )
        .limit(500)
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) return deleted;
    await db.deleteFrom("order_items").where("orderId", "in", ids).execute();
    await db.deleteFrom("sticker_shipments").where("orderId", "in", ids).execute();
    await db.updateTable("sticker_replacements").set({ orderId: null }).where("orderId", "in", ids).execute();
    const r = await db.deleteFrom("orders").where("id", "in", ids).executeTakeFirst();
    deleted += Number(r.numDeletedRows);
  }
}

/**
 * Run `work` while holding the housekeeping lock, or return null at once if another
 * instance holds it.
 */
export function withHousekeepingLock<T>(db: DB, dialect: Dialect, work: (db: DB) => Promise<T>): Promise<T | null> {
  return withJobLock(db, dialect, HOUSEKEEPING_LOCK, work);
}

/**
 * Run `work` while holding the job lock `key`, or return null at once if another instance
 * holds it. PostgreSQL: a session advisory lock on one pooled connection (released when the
 * work is done, or when a crashed instance's connection drops). SQLite is one server on one
 * file; its write lock already serialises the deletes.
 */
export async function withJobLock<T>(
  db: DB,
  dialect: Dialect,
  key: number,
  work: (db: DB) => Promise<T>,
): Promise<T | null> {
  if (dialect === "sqlite") return work(db);
  // A session lock on one connection, not a transaction: the deletes commit batch by batch
  // (a year of scans is millions of rows; decision 042), and the lock is held until the
  // last one is done.
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(${key}) as locked`.execute(conn);
    if (!rows[0]?.locked) return null;
    try {
      return await work(conn);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}
