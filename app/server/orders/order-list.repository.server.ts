/**
 * SQL for the dashboard's order list (getBillingOverview): the owner's orders, their items
 * and which have a paid renewal, each in one read for all of them, not one per order.
 */
import type { DB } from "../db/db.server";
import { toOrder, type Order } from "./orders.repository.server";

/** The orders of `ids` that exist, in one read (the dashboard's order list). */
export async function findOrders(db: DB, ids: string[]): Promise<Order[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("orders").selectAll().where("id", "in", ids).execute();
  return rows.map(toOrder);
}

/** The items of each order of `ids` with their names, in one read, as `listItemsOfOrder` orders them. */
export async function listItemsOfOrders(
  db: DB,
  ids: string[],
): Promise<Map<string, Array<{ id: string; name: string }>>> {
  const out = new Map<string, Array<{ id: string; name: string }>>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom("order_items")
    .innerJoin("products", "products.id", "order_items.productId")
    .select(["order_items.orderId", "products.id", "products.name"])
    .where("order_items.orderId", "in", ids)
    .orderBy("order_items.orderId")
    .orderBy("products.createdAt", "desc")
    .orderBy("products.id")
    .execute();
  for (const r of rows) {
    const list = out.get(r.orderId) ?? [];
    list.push({ id: r.id, name: r.name });
    out.set(r.orderId, list);
  }
  return out;
}

/** Which orders of `ids` have a paid renewal that was not withdrawn, in one read. */
export async function ordersWithPaidRenewal(db: DB, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom("orders")
    .select("renewalOf")
    .where("renewalOf", "in", ids)
    .where("status", "=", "paid")
    .where("withdrawnAt", "is", null)
    .execute();
  return new Set(rows.flatMap((r) => (r.renewalOf == null ? [] : [r.renewalOf])));
}
