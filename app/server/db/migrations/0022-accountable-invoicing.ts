import { sql, type Kysely } from "kysely";

/**
 * docs/decisions/028-accountable-invoicing.md: invoicing only for
 * accountable organisations.
 *
 * - `organisations`: the billing email is confirmed by a mailed link before the first
 *   invoice. `billingEmailConfirmed` is the address the link was opened for (confirmation
 *   holds while the billing email is that address); the pending link is kept as a hash
 *   with its address and expiry (one at a time).
 * - `orders.shipmentReleasedAt`: an invoiced order's stickers ship once its invoice is paid
 *   or staff release them; set by one conditional update, so payment and release at once
 *   queue one shipment. Invoice orders before this migration shipped when invoiced.
 * - `orders.creditClearedAt` / `creditClearedBy`: staff cleared an overdue or lapsed invoice
 *   on /admin/orders, so it no longer stops the organisation's next invoice.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("organisations").addColumn("billingEmailConfirmed", "text").execute();
  await db.schema.alterTable("organisations").addColumn("billingEmailConfirmedAt", "bigint").execute();
  await db.schema.alterTable("organisations").addColumn("billingConfirmTokenHash", "text").execute();
  await db.schema.alterTable("organisations").addColumn("billingConfirmEmail", "text").execute();
  await db.schema.alterTable("organisations").addColumn("billingConfirmExpiresAt", "bigint").execute();
  await db.schema.createIndex("organisations_org_number_idx").on("organisations").column("orgNumber").execute();
  await db.schema
    .createIndex("organisations_billing_token_idx")
    .on("organisations")
    .column("billingConfirmTokenHash")
    .execute();
  await db.schema.alterTable("orders").addColumn("shipmentReleasedAt", "bigint").execute();
  await db.schema.alterTable("orders").addColumn("creditClearedAt", "bigint").execute();
  await db.schema.alterTable("orders").addColumn("creditClearedBy", "text").execute();
  await db
    .updateTable("orders")
    .set({ shipmentReleasedAt: sql`"createdAt"` })
    .where("method", "=", "invoice")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ["creditClearedBy", "creditClearedAt", "shipmentReleasedAt"])
    await db.schema.alterTable("orders").dropColumn(c).execute();
  await db.schema.dropIndex("organisations_billing_token_idx").execute();
  await db.schema.dropIndex("organisations_org_number_idx").execute();
  for (const c of [
    "billingConfirmExpiresAt",
    "billingConfirmEmail",
    "billingConfirmTokenHash",
    "billingEmailConfirmedAt",
    "billingEmailConfirmed",
  ])
    await db.schema.alterTable("organisations").dropColumn(c).execute();
}
