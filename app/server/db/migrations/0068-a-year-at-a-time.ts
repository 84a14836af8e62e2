import type { Kysely } from "kysely";

/**
 * A year paid at once (decision 056): how an order is paid (`paymentKind`: 'subscription',
 * the card that renews, or a one-time method such as 'swish'), the order a renewal renews
 * (`renewalOf`), the provider's payment (`paymentIntentId`, Stripe pi_…, refunded on
 * withdrawal) and why a one-time payment failed (`paymentFailure`). `year_reminders`: one
 * row per order and lead (30 or 7 days before the paid year ends), inserted in the
 * reminder mail's transaction, so several instances send each mail once. Expand only;
 * frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("orders")
    .addColumn("paymentKind", "text", (c) => c.notNull().defaultTo("subscription"))
    .execute();
  await db.schema.alterTable("orders").addColumn("renewalOf", "text").execute();
  await db.schema.alterTable("orders").addColumn("paymentIntentId", "text").execute();
  await db.schema.alterTable("orders").addColumn("paymentFailure", "text").execute();
  await db.schema.createIndex("orders_renewal_of").on("orders").column("renewalOf").execute();
  await db.schema
    .createTable("year_reminders")
    .addColumn("orderId", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("leadDays", "integer", (c) => c.notNull())
    .addColumn("sentAt", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("year_reminders_pk", ["orderId", "leadDays"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("year_reminders").execute();
  await db.schema.dropIndex("orders_renewal_of").execute();
  await db.schema.alterTable("orders").dropColumn("paymentFailure").execute();
  await db.schema.alterTable("orders").dropColumn("paymentIntentId").execute();
  await db.schema.alterTable("orders").dropColumn("renewalOf").execute();
  await db.schema.alterTable("orders").dropColumn("paymentKind").execute();
}
