import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * Decision 042 (point 13): the dashboard's name search compared `lower(name)` with the
 * search text for every item of the organisation, twice (the count and the page); at
 * 50,000 items lower() was two thirds of each pass. `nameFolded` is lower(name) computed
 * by the database on every write (a generated column: no write path can forget it), and
 * the organisation's covering index (0041) holds it instead of the name, and the page's
 * order (createdAt, id): a page of a search is then found in the index alone and only its
 * 50 rows are read from the table (listItemsOfOwnerPage). PostgreSQL stores
 * it; SQLite computes it when read (a column added to a table cannot be stored there) and
 * keeps it in the index. SQLite's lower() is JavaScript's (db.server.ts), so both databases
 * fold every letter the same way. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`alter table products add column "nameFolded" text generated always as (lower(name)) ${sql.raw(
    pg ? "stored" : "virtual",
  )}`.execute(db);
  await db.schema.dropIndex("products_organisation_counts_idx").execute();
  await db.schema
    .createIndex("products_organisation_search_idx")
    .on("products")
    .columns([
      "organisationId",
      "prodType",
      "payed",
      "paidUntil",
      "lostAt",
      "assignedTo",
      "nameFolded",
      "createdAt",
      "id",
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("products_organisation_search_idx").execute();
  await db.schema
    .createIndex("products_organisation_counts_idx")
    .on("products")
    .columns(["organisationId", "prodType", "payed", "paidUntil", "lostAt", "assignedTo", "name"])
    .execute();
  await db.schema.alterTable("products").dropColumn("nameFolded").execute();
}
