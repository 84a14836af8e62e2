/** SQL for orders, their items, applied payment events and sticker shipments. */
import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../db/db.server";
import type { OrderTable, StickerShipmentTable } from "../db/schema";

export type OrderRow = Selectable<OrderTable>;

export async function insertOrder(db: DB, row: Insertable<OrderTable>, productIds: string[]) {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("orders").values(row).execute();
    await trx
      .insertInto("order_items")
      .values(productIds.map((productId) => ({ orderId: row.id, productId })))
      .execute();
  });
}

export function findOrder(db: DB, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
}

export function findOrderOfUser(db: DB, userId: string, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom("orders").selectAll().where("id", "=", id).where("userId", "=", userId).executeTakeFirst();
}

export function findOrderBySubscription(db: DB, subscriptionId: string): Promise<OrderRow | undefined> {
  return db.selectFrom("orders").selectAll().where("subscriptionId", "=", subscriptionId).executeTakeFirst();
}

export function updateOrder(db: DB, id: string, changes: Updateable<OrderTable>) {
  return db.updateTable("orders").set(changes).where("id", "=", id).execute();
}

export async function listOrderProductIds(db: DB, orderId: string): Promise<string[]> {
  const rows = await db.selectFrom("order_items").select("productId").where("orderId", "=", orderId).execute();
  return rows.map((r) => r.productId);
}

/** The items of an order with their names (receipt, confirmation page). */
export function listOrderProducts(db: DB, orderId: string) {
  return db
    .selectFrom("order_items")
    .innerJoin("products", "products.id", "order_items.productId")
    .select(["products.id", "products.name", "products.prodType", "products.payed", "products.paidUntil"])
    .where("order_items.orderId", "=", orderId)
    .orderBy("products.createdAt", "desc")
    .orderBy("products.id")
    .execute();
}

/** Paid orders of a user with the items they cover (dashboard status per item). */
export function listPaidOrderItemsOfUser(db: DB, userId: string) {
  return db
    .selectFrom("orders")
    .innerJoin("order_items", "order_items.orderId", "orders.id")
    .select([
      "order_items.productId",
      "orders.id as orderId",
      "orders.period",
      "orders.paidUntil",
      "orders.minimumUntil",
      "orders.renewing",
      "orders.endsAt",
    ])
    .where("orders.userId", "=", userId)
    .where("orders.status", "=", "paid")
    .execute();
}

/** Records a provider event; false when it was already recorded (a replay). */
export async function recordPaymentEvent(
  db: DB,
  event: { id: string; type: string; orderId: string | null },
): Promise<boolean> {
  // The primary key makes "apply once" atomic across app instances.
  const inserted = await db
    .insertInto("payment_events")
    .values({ ...event, receivedAt: Date.now() })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted !== undefined;
}

export function insertShipment(db: DB, row: Insertable<StickerShipmentTable>) {
  return db
    .insertInto("sticker_shipments")
    .values(row)
    .onConflict((oc) => oc.column("orderId").doNothing())
    .execute();
}

export function findShipmentOfOrder(db: DB, orderId: string) {
  return db.selectFrom("sticker_shipments").selectAll().where("orderId", "=", orderId).executeTakeFirst();
}

export function listProductsForPayment(db: DB, owner: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("products")
    .select(["id", "payed", "paidUntil"])
    .where("owner", "=", owner)
    .where("id", "in", ids)
    .execute();
}

export function setProductPaid(db: DB, id: string, changes: { paidUntil: number | null; payment: string }) {
  return db
    .updateTable("products")
    .set({ payed: 1, paidUntil: changes.paidUntil, payment: changes.payment, updatedAt: Date.now() })
    .where("id", "=", id)
    .execute();
}

export function findUserForReceipt(db: DB, userId: string) {
  return db.selectFrom("user").select(["email", "name", "language"]).where("id", "=", userId).executeTakeFirst();
}
