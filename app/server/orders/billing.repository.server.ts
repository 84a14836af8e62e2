/**
 * SQL for the subscription lifecycle (decision 016): receipts and their numbers, the orders the
 * periodic jobs look at (lapses, reminders, abandoned checkouts) and the conditional
 * updates that let exactly one instance act on each.
 */
import { sql, type Selectable } from "kysely";
import { toCurrency, type Currency } from "~/lib/domain/currency";
import { toPeriod, type Period } from "~/lib/domain/pricing";
import type { DB, Dialect } from "../db/db.server";
import type { ReceiptTable } from "../db/schema";
import { num, toOrder, type Order } from "./orders.repository.server";

export interface Receipt {
  id: string;
  number: number;
  orderId: string;
  userId: string;
  paymentKey: string;
  items: Array<{ name: string }>;
  period: Period;
  currency: Currency;
  count: number;
  packageAmount: number;
  discountAmount: number;
  totalAmount: number;
  vatAmount: number;
  periodStart: number;
  periodEnd: number;
  paidAt: number;
  /** No VAT: the reverse-charge note (decision 027). */
  reverseCharge: boolean;
}

function parseItems(json: string): Array<{ name: string }> {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v)
      ? v.filter((x): x is { name: string } => !!x && typeof (x as { name?: unknown }).name === "string")
      : [];
  } catch {
    return [];
  }
}

function toReceipt(row: Selectable<ReceiptTable>): Receipt {
  return {
    ...row,
    number: Number(row.number),
    items: parseItems(row.items),
    period: toPeriod(row.period),
    currency: toCurrency(row.currency),
    count: Number(row.count),
    packageAmount: Number(row.packageAmount),
    discountAmount: Number(row.discountAmount),
    totalAmount: Number(row.totalAmount),
    vatAmount: Number(row.vatAmount),
    periodStart: Number(row.periodStart),
    periodEnd: Number(row.periodEnd),
    paidAt: Number(row.paidAt),
    reverseCharge: Number(row.reverseCharge) === 1,
  };
}

/**
 * Inserts the receipt of one payment with the next receipt number, unless that payment
 * already has one (null). The counter row's lock (UPDATE … + 1) serialises concurrent
 * payments, and a payment that already has its receipt gives its number back while still
 * holding the lock, so numbers have no gaps and no duplicates.
 */
export async function insertReceiptOnce(trx: DB, row: Omit<Receipt, "number">): Promise<Receipt | null> {
  const taken = await trx
    .updateTable("counters")
    .set({ value: sql`value + 1` })
    .where("name", "=", "receipt")
    .returning("value")
    .executeTakeFirstOrThrow();
  const existing = await trx
    .selectFrom("receipts")
    .select("id")
    .where("paymentKey", "=", row.paymentKey)
    .executeTakeFirst();
  if (existing) {
    await trx
      .updateTable("counters")
      .set({ value: sql`value - 1` })
      .where("name", "=", "receipt")
      .execute();
    return null;
  }
  const receipt: Receipt = { ...row, number: Number(taken.value) };
  await trx
    .insertInto("receipts")
    .values({ ...receipt, items: JSON.stringify(receipt.items), reverseCharge: receipt.reverseCharge ? 1 : 0 })
    .execute();
  return receipt;
}

export async function listReceiptsOfUser(db: DB, userId: string): Promise<Receipt[]> {
  const rows = await db
    .selectFrom("receipts")
    .selectAll()
    .where("userId", "=", userId)
    .orderBy("number", "desc")
    .limit(200)
    .execute();
  return rows.map(toReceipt);
}

/**
 * An order's receipt: a given number, else the latest (or with `which` "first", the first
 * payment's). The caller checks who may see it.
 */
export async function findReceiptOfOrder(
  db: DB,
  orderId: string,
  number: number | null,
  which: "latest" | "first" = "latest",
): Promise<Receipt | undefined> {
  let q = db.selectFrom("receipts").selectAll().where("orderId", "=", orderId);
  if (number != null) q = q.where("number", "=", number);
  const row = await q.orderBy("number", which === "first" ? "asc" : "desc").executeTakeFirst();
  return row && toReceipt(row);
}

/** The receipts of some orders (an organisation's invoice list), newest first. */
export async function listReceiptsOfOrders(db: DB, orderIds: string[]): Promise<Receipt[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .selectFrom("receipts")
    .selectAll()
    .where("orderId", "in", orderIds)
    .orderBy("number", "desc")
    .execute();
  return rows.map(toReceipt);
}

/** The owner's receipt of an order: a given number, else the latest. */
export async function findReceiptOfUser(
  db: DB,
  userId: string,
  orderId: string,
  number: number | null,
): Promise<Receipt | undefined> {
  let q = db.selectFrom("receipts").selectAll().where("userId", "=", userId).where("orderId", "=", orderId);
  if (number != null) q = q.where("number", "=", number);
  const row = await q.orderBy("number", "desc").executeTakeFirst();
  return row && toReceipt(row);
}

/**
 * Paid orders whose paid period has passed and invoices past their due date (decision 027)
 * that have not lapsed yet (the job decides which lapse).
 */
export async function listLapseCandidates(db: DB, now: number): Promise<Order[]> {
  const rows = await db
    .selectFrom("orders")
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "paid"), eb("paidUntil", "<=", now)]),
        eb.and([eb("status", "=", "invoiced"), eb("dueAt", "<=", now)]),
      ]),
    )
    .where("lapsedAt", "is", null)
    .orderBy("paidUntil")
    .limit(500)
    .execute();
  return rows.map(toOrder);
}

/**
 * Marks an order lapsed; false when it already was (another instance, or a replay). With
 * `ifDue` (the lapse job) also false when it is no longer due: a payment that arrived after
 * the job read it (paid on, or an invoice paid) must not be undone. `invoiceDueBy`: an
 * unpaid invoice lapses when its due date is at or before this (now minus the grace).
 */
export async function claimLapse(
  trx: DB,
  orderId: string,
  now: number,
  ifDue?: { invoiceDueBy: number },
): Promise<boolean> {
  let q = trx
    .updateTable("orders")
    .set({ lapsedAt: now, renewing: 0, updatedAt: now })
    .where("id", "=", orderId)
    .where("lapsedAt", "is", null);
  if (ifDue) {
    q = q.where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "paid"), eb("paidUntil", "<=", now)]),
        eb.and([eb("status", "=", "invoiced"), eb("dueAt", "<=", ifDue.invoiceDueBy)]),
      ]),
    );
  }
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Renewing yearly orders whose renewal falls in (now, now + lead]. */
export async function listReminderCandidates(db: DB, now: number, lead: number): Promise<Order[]> {
  const rows = await db
    .selectFrom("orders")
    .selectAll()
    .where("status", "=", "paid")
    .where("period", "=", "year")
    .where("renewing", "=", 1)
    .where("lapsedAt", "is", null)
    .where("paidUntil", ">", now)
    .where("paidUntil", "<=", now + lead)
    .limit(500)
    .execute();
  return rows.map(toOrder);
}

/** Records that the reminder for this renewal is sent; false when it already was. */
export async function claimReminder(trx: DB, orderId: string, paidUntil: number): Promise<boolean> {
  const r = await trx
    .updateTable("orders")
    .set({ reminderFor: paidUntil })
    .where("id", "=", orderId)
    .where("paidUntil", "=", paidUntil)
    .where((eb) => eb.or([eb("reminderFor", "is", null), eb("reminderFor", "<>", paidUntil)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Pending orders created before `before` become cancelled; returns how many. */
export async function cancelPendingBefore(db: DB, before: number, now: number): Promise<number> {
  const r = await db
    .updateTable("orders")
    .set({ status: "cancelled", updatedAt: now })
    .where("status", "=", "pending")
    .where("createdAt", "<", before)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Items of this order still covered by another paid, not lapsed order after `now`. */
export async function listItemsCoveredElsewhere(
  db: DB,
  itemIds: string[],
  orderId: string,
  now: number,
): Promise<Set<string>> {
  if (itemIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("order_items")
    .innerJoin("orders", "orders.id", "order_items.orderId")
    .select("order_items.productId")
    .where("order_items.productId", "in", itemIds)
    .where("orders.id", "<>", orderId)
    // An invoice not yet paid covers its items too (decision 027: active on invoice).
    .where("orders.status", "in", ["paid", "invoiced"])
    .where("orders.lapsedAt", "is", null)
    .where("orders.paidUntil", ">", now)
    .execute();
  return new Set(rows.map((r) => r.productId));
}

/** The order's items stop being paid (a lapsed subscription); `until` is when they ended. */
export async function setItemsUnpaid(db: DB, ids: string[], until: number, now: number) {
  if (ids.length === 0) return;
  await db.updateTable("products").set({ payed: 0, paidUntil: until, updatedAt: now }).where("id", "in", ids).execute();
}

/** Orders a staff member looks at (newest first), with the owner's email. */
export async function listRecentOrders(
  db: DB,
  limit: number,
): Promise<
  Array<
    Order & { email: string; itemNames: string[]; shipmentReleasedAt: number | null; creditClearedAt: number | null }
  >
> {
  const rows = await db
    .selectFrom("orders")
    .innerJoin("user", "user.id", "orders.userId")
    .selectAll("orders")
    .select("user.email as email")
    // Lapsed invoices too, voided ones included: staff clear them (decision 028).
    .where((eb) =>
      eb.or([
        eb("orders.status", "in", ["paid", "pending", "invoiced"]),
        eb.and([eb("orders.method", "=", "invoice"), eb("orders.lapsedAt", "is not", null)]),
      ]),
    )
    .orderBy("orders.createdAt", "desc")
    .limit(limit)
    .execute();
  const ids = rows.map((r) => r.id);
  const names =
    ids.length === 0
      ? []
      : await db
          .selectFrom("order_items")
          .innerJoin("products", "products.id", "order_items.productId")
          .select(["order_items.orderId", "products.name"])
          .where("order_items.orderId", "in", ids)
          .execute();
  return rows.map((r) => ({
    ...toOrder(r),
    email: r.email,
    itemNames: names.filter((n) => n.orderId === r.id).map((n) => n.name),
    shipmentReleasedAt: r.shipmentReleasedAt == null ? null : Number(r.shipmentReleasedAt),
    creditClearedAt: r.creditClearedAt == null ? null : Number(r.creditClearedAt),
  }));
}

/**
 * Staff clear an unpaid invoice (decision 028): it no longer stops the organisation's next
 * invoice. Once; false when the order is no unpaid invoice or was cleared already.
 */
export async function clearInvoiceCredit(db: DB, orderId: string, by: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable("orders")
    .set({ creditClearedAt: now, creditClearedBy: by, updatedAt: now })
    .where("id", "=", orderId)
    .where("method", "=", "invoice")
    .where("status", "!=", "paid")
    .where("creditClearedAt", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Our advisory-lock key for the billing jobs (any stable bigint, distinct from housekeeping's). */
const BILLING_LOCK = 7_428_115_016;

/**
 * Run `work` holding the billing-jobs lock, or return null at once when another instance
 * holds it. PostgreSQL: a session advisory lock on one pooled connection (released after
 * the work, or when a crashed instance's connection drops), so the work itself may open its
 * own short transactions, one per order. Each step also claims its row with a conditional
 * update, so even two runs at once never act twice on one order. SQLite: one server.
 */
export async function withBillingLock<T>(db: DB, dialect: Dialect, work: () => Promise<T>): Promise<T | null> {
  if (dialect === "sqlite") return work();
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${BILLING_LOCK}) as locked`.execute(
      conn,
    );
    if (!rows[0]?.locked) return null;
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${BILLING_LOCK})`.execute(conn);
    }
  });
}

export { num };

/** The next value of a named counter (simulated invoice numbers): the row lock serialises callers. */
export async function nextCounter(trx: DB, name: string): Promise<number> {
  const row = await trx
    .updateTable("counters")
    .set({ value: sql`value + 1` })
    .where("name", "=", name)
    .returning("value")
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/** An organisation's orders (invoices and card payments made in its scope), newest first. */
export async function listOrdersOfOrganisation(db: DB, organisationId: string, limit = 200): Promise<Order[]> {
  const rows = await db
    .selectFrom("orders")
    .selectAll()
    .where("organisationId", "=", organisationId)
    .where("status", "in", ["invoiced", "paid", "cancelled"])
    .orderBy("createdAt", "desc")
    .limit(limit)
    .execute();
  return rows.map(toOrder).filter((o) => o.status !== "cancelled" || o.invoiceNumber != null);
}
