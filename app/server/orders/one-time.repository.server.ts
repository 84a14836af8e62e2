/**
 * SQL for years paid at once (decision 056): where a renewal's year starts, the paid years
 * ending soon (the reminders) with their claim, and the provider's payment of an order.
 */
import type { DB } from "../db/db.server";
import { toOrder, type Order, type PaymentFailure } from "./orders.repository.server";

/**
 * Per item, the latest end of another paid, not lapsed order covering it beyond `now`:
 * where a renewal's year starts (one order's items end together, so this is its end).
 */
export async function latestCoverEnds(
  db: DB,
  itemIds: readonly string[],
  orderId: string,
  now: number,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < itemIds.length; i += 1000) {
    const rows = await db
      .selectFrom("order_items")
      .innerJoin("orders", "orders.id", "order_items.orderId")
      .select(["order_items.productId as id", (eb) => eb.fn.max("orders.paidUntil").as("end")])
      .where("order_items.productId", "in", itemIds.slice(i, i + 1000))
      .where("orders.id", "<>", orderId)
      .where("orders.status", "=", "paid")
      .where("orders.lapsedAt", "is", null)
      .where("orders.withdrawnAt", "is", null)
      .where("orders.paidUntil", ">", now)
      .groupBy("order_items.productId")
      .execute();
    for (const r of rows) if (r.end != null) out.set(r.id, Number(r.end));
  }
  return out;
}

/**
 * Paid-once years ending in (from, to] that no paid renewal follows yet (decision 056):
 * the reminder job's candidates, at most 500 a run.
 */
export async function listYearsEnding(db: DB, window: { from: number; to: number }): Promise<Order[]> {
  const rows = await db
    .selectFrom("orders as o")
    .selectAll("o")
    .where("o.paymentKind", "<>", "subscription")
    .where("o.status", "=", "paid")
    .where("o.lapsedAt", "is", null)
    .where("o.withdrawnAt", "is", null)
    .where("o.paidUntil", ">", window.from)
    .where("o.paidUntil", "<=", window.to)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("orders as r")
            .select("r.id")
            .whereRef("r.renewalOf", "=", "o.id")
            .where("r.status", "=", "paid")
            .where("r.withdrawnAt", "is", null),
        ),
      ),
    )
    .orderBy("o.paidUntil")
    .limit(500)
    .execute();
  return rows.map(toOrder);
}

/** Claims one reminder (order, lead); false when it was sent already (another instance, another run). */
export async function claimYearReminder(trx: DB, orderId: string, leadDays: number, now: number): Promise<boolean> {
  const row = await trx
    .insertInto("year_reminders")
    .values({ orderId, leadDays, sentAt: now })
    .onConflict((oc) => oc.columns(["orderId", "leadDays"]).doNothing())
    .returning("orderId")
    .executeTakeFirst();
  return row !== undefined;
}

/** The provider's payment of a one-time order, recorded once (the first event that names it). */
export async function recordPaymentIntent(db: DB, orderId: string, paymentIntentId: string): Promise<void> {
  await db
    .updateTable("orders")
    .set({ paymentIntentId })
    .where("id", "=", orderId)
    .where("paymentIntentId", "is", null)
    .execute();
}

/**
 * A one-time payment did not go through: a pending order records why; `final` (the
 * checkout is over: failed asynchronously, declined, expired) also cancels it, so nothing
 * is activated and the order page says why. A paid order is never touched. True when changed.
 */
export async function markPaymentFailure(
  db: DB,
  orderId: string,
  failure: PaymentFailure,
  final: boolean,
  now: number,
): Promise<boolean> {
  const r = await db
    .updateTable("orders")
    .set({ paymentFailure: failure, ...(final ? { status: "cancelled" } : {}), updatedAt: now })
    .where("id", "=", orderId)
    .where("status", "=", "pending")
    .where("paymentKind", "<>", "subscription")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
