import type { Kysely } from "kysely";

/**
 * Decision 051: a credit note (kreditfaktura) for each refund on
 * withdrawal, numbered from its own counter ("credit-note"), naming the receipt it
 * corrects. Bookkeeping records like receipts (decision 041: kept 7 years, the person
 * stripped when the account is erased). Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("credit_notes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("number", "integer", (c) => c.notNull().unique())
    .addColumn("orderId", "text", (c) => c.notNull().unique())
    .addColumn("receiptNumber", "integer")
    .addColumn("userId", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("totalAmount", "integer", (c) => c.notNull())
    .addColumn("vatAmount", "integer", (c) => c.notNull())
    .addColumn("reverseCharge", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("items", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("credit_notes_user_idx").on("credit_notes").column("userId").execute();
  await db.insertInto("counters").values({ name: "credit-note", value: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("counters").where("name", "=", "credit-note").execute();
  await db.schema.dropTable("credit_notes").execute();
}
