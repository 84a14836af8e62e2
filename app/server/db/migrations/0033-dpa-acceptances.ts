import type { Kysely } from "kysely";

/**
 * docs/decisions/030-lawful-to-sell.md: who accepted which version of
 * the data processing agreement for an organisation, and when. One row per organisation and
 * version; the accepting admin's name and email are kept as they were (the record must
 * outlive the account). Deleted with the organisation. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("dpa_acceptances")
    .addColumn("organisationId", "text", (c) => c.notNull().references("organisations.id").onDelete("cascade"))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("acceptedAt", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("dpa_acceptances_pk", ["organisationId", "version"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("dpa_acceptances").execute();
}
