import type { Kysely } from "kysely";

/**
 * Orders and payments (decision 008): an order per checkout (items, period, language,
 * currency, amounts in minor units, the order's address), its items, the payment
 * provider events already applied (idempotency by event id) and one sticker shipment per
 * paid order. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    // 'test' | 'stripe'
    .addColumn("provider", "text", (c) => c.notNull())
    // 'pending' | 'paid'
    .addColumn("status", "text", (c) => c.notNull())
    // 'month' | 'year'
    .addColumn("period", "text", (c) => c.notNull())
    // 'en' | 'sv': the page language of the order (currency, receipt fallback)
    .addColumn("lang", "text", (c) => c.notNull())
    // 'SEK' | 'EUR'
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    // Amounts in minor units (öre, cents), as recomputed by the server.
    .addColumn("unitAmount", "integer", (c) => c.notNull())
    .addColumn("packageAmount", "integer", (c) => c.notNull())
    .addColumn("discountAmount", "integer", (c) => c.notNull())
    .addColumn("totalAmount", "integer", (c) => c.notNull())
    // JSON of the spec's Address entity: where the stickers go.
    .addColumn("adress", "text", (c) => c.notNull())
    .addColumn("checkoutId", "text")
    .addColumn("subscriptionId", "text")
    .addColumn("customerId", "text")
    .addColumn("paidAt", "bigint")
    .addColumn("paidUntil", "bigint")
    // paidAt + the minimum term (6 months): a cancelled renewal runs at least until then.
    .addColumn("minimumUntil", "bigint")
    // 0 | 1: the subscription renews at the end of each period.
    .addColumn("renewing", "integer", (c) => c.notNull().defaultTo(0))
    // When renewal was cancelled: the date the subscription ends.
    .addColumn("endsAt", "bigint")
    .addColumn("cancelledAt", "bigint")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("orders_user_idx").on("orders").columns(["userId", "createdAt"]).execute();
  await db.schema.createIndex("orders_subscription_idx").on("orders").column("subscriptionId").execute();

  await db.schema
    .createTable("order_items")
    .addColumn("orderId", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("productId", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("order_items_pk", ["orderId", "productId"])
    .execute();
  await db.schema.createIndex("order_items_product_idx").on("order_items").column("productId").execute();

  // Provider events already applied (Stripe event ids, 'test:<orderId>'): a replay is a no-op.
  await db.schema
    .createTable("payment_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("orderId", "text")
    .addColumn("receivedAt", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sticker_shipments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("orderId", "text", (c) => c.notNull().unique().references("orders.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    // JSON of the order's address at the time of payment.
    .addColumn("adress", "text", (c) => c.notNull())
    // 'pending' | 'shipped'
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("shippedAt", "bigint")
    .execute();
  await db.schema.createIndex("sticker_shipments_status_idx").on("sticker_shipments").column("status").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sticker_shipments").execute();
  await db.schema.dropTable("payment_events").execute();
  await db.schema.dropTable("order_items").execute();
  await db.schema.dropTable("orders").execute();
}
