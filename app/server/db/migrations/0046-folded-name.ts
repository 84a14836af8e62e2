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
 * keeps it in the index, with JavaScript's toLowerCase (hittad_fold, registered by
 * db.server.ts), so both databases fold every letter the same way. Taking the table's lock
 * and rewriting it on PostgreSQL takes about 10 s at a million items (decision 042). Frozen
 * once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  // SQLite's fold is the app's own function (FOLD_FUNCTION in sqlite-writer.server.ts,
  // written out here: a migration is frozen); PostgreSQL's lower() folds every letter.
  await sql`alter table products add column "nameFolded" text generated always as (${sql.raw(
    pg ? "lower(name)) stored" : "hittad_fold(name)) virtual",
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
