import type { Kysely } from "kysely";

/**
 * Invoice payment for organisations (docs/decisions/027-invoice-payment.md).
 * Frozen once landed.
 *
 * orders:
 * - organisationId: the organisation in whose scope the order was made (null: personal);
 *   its admins see the order's invoice and receipts.
 * - method: 'card' (a checkout, as before) | 'invoice' (30 days net).
 * - invoiceId / invoiceNumber / invoiceUrl: the provider's invoice (Stripe in_…, its number
 *   and hosted page; the test provider's simulated invoice TEST-N and its page).
 * - dueAt: when the invoice falls due. voidedAt: the invoice was voided (or written off).
 * - vatAmount: the VAT in totalAmount (null for orders before this: 25 % of the total).
 * - reverseCharge: 1 when the buyer accounts for the VAT (EU business outside Sweden).
 * - invoiceTo: JSON of the buyer as invoiced (name, organisation number, address, VAT number).
 * receipts.reverseCharge: the receipt carries the reverse-charge note.
 * counters 'invoice': numbers of the simulated invoices.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("organisationId", "text").execute();
  await db.schema
    .alterTable("orders")
    .addColumn("method", "text", (c) => c.notNull().defaultTo("card"))
    .execute();
  await db.schema.alterTable("orders").addColumn("invoiceId", "text").execute();
  await db.schema.alterTable("orders").addColumn("invoiceNumber", "text").execute();
  await db.schema.alterTable("orders").addColumn("invoiceUrl", "text").execute();
  await db.schema.alterTable("orders").addColumn("dueAt", "bigint").execute();
  await db.schema.alterTable("orders").addColumn("voidedAt", "bigint").execute();
  await db.schema.alterTable("orders").addColumn("vatAmount", "integer").execute();
  await db.schema
    .alterTable("orders")
    .addColumn("reverseCharge", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("orders").addColumn("invoiceTo", "text").execute();
  await db.schema
    .createIndex("orders_organisation_idx")
    .on("orders")
    .columns(["organisationId", "createdAt"])
    .execute();
  await db.schema.createIndex("orders_invoice_idx").on("orders").column("invoiceId").execute();
  await db.schema
    .alterTable("receipts")
    .addColumn("reverseCharge", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.insertInto("counters").values({ name: "invoice", value: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("counters").where("name", "=", "invoice").execute();
  await db.schema.alterTable("receipts").dropColumn("reverseCharge").execute();
  await db.schema.dropIndex("orders_invoice_idx").execute();
  await db.schema.dropIndex("orders_organisation_idx").execute();
  for (const c of [
    "invoiceTo",
    "reverseCharge",
    "vatAmount",
    "voidedAt",
    "dueAt",
    "invoiceUrl",
    "invoiceNumber",
    "invoiceId",
    "method",
    "organisationId",
  ]) {
    await db.schema.alterTable("orders").dropColumn(c).execute();
  }
}
