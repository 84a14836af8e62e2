import type { Kysely } from "kysely";

/**
 * Subscriptions that run for years (decision 016): on orders, the last failed payment, the
 * renewal a reminder was sent for and when the subscription lapsed (items unpaid, owner
 * told); receipts with VAT, numbered from one counter row; named counters. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("paymentFailedAt", "bigint").execute();
  // paidUntil the yearly renewal reminder was sent for: each renewal is reminded once.
  await db.schema.alterTable("orders").addColumn("reminderFor", "bigint").execute();
  await db.schema.alterTable("orders").addColumn("lapsedAt", "bigint").execute();
  await db.schema.createIndex("orders_status_idx").on("orders").columns(["status", "paidUntil"]).execute();

  await db.schema
    .createTable("receipts")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Sequential, unique, never reused (bokföringslagen: löpande numrering).
    .addColumn("number", "integer", (c) => c.notNull().unique())
    .addColumn("orderId", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    // The payment it is for ('first:<orderId>', 'invoice:<in_…>', 'test:renewal:…'): one receipt each.
    .addColumn("paymentKey", "text", (c) => c.notNull().unique())
    // JSON: [{ name }] of the items at the time of payment.
    .addColumn("items", "text", (c) => c.notNull())
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("packageAmount", "integer", (c) => c.notNull())
    .addColumn("discountAmount", "integer", (c) => c.notNull())
    .addColumn("totalAmount", "integer", (c) => c.notNull())
    .addColumn("vatAmount", "integer", (c) => c.notNull())
    .addColumn("periodStart", "bigint", (c) => c.notNull())
    .addColumn("periodEnd", "bigint", (c) => c.notNull())
    .addColumn("paidAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("receipts_user_idx").on("receipts").columns(["userId", "number"]).execute();
  await db.schema.createIndex("receipts_order_idx").on("receipts").columns(["orderId", "number"]).execute();

  // Named counters (receipt numbers): an UPDATE … + 1 row lock serialises concurrent payments.
  await db.schema
    .createTable("counters")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "bigint", (c) => c.notNull())
    .execute();
  await db.insertInto("counters").values({ name: "receipt", value: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("counters").execute();
  await db.schema.dropTable("receipts").execute();
  await db.schema.dropIndex("orders_status_idx").execute();
  for (const c of ["lapsedAt", "reminderFor", "paymentFailedAt"]) {
    await db.schema.alterTable("orders").dropColumn(c).execute();
  }
}
