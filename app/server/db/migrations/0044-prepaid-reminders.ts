import type { Kysely } from "kysely";

/**
 * The reminders sent before a prepaid sticker's months end (decision 036): one row per
 * item and lead (30 or 7 days), inserted by the job that sends the mail in the same
 * transaction; the primary key makes a second instance's insert change nothing, so each
 * mail goes once. No personal data (an item id, a number, a time); rows go with the item.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("prepaid_reminders")
    .addColumn("productId", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("leadDays", "integer", (c) => c.notNull())
    .addColumn("sentAt", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("prepaid_reminders_pk", ["productId", "leadDays"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("prepaid_reminders").execute();
}
