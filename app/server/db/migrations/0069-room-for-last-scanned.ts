import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * Room on each page of `products` for its rows' next versions (PostgreSQL only; decision
 * 045, "Point 6: room for last scanned"). Every flush of the scan log sets "last scanned"
 * on the items scanned: with the pages full (fillfactor 100, PostgreSQL's default for a
 * table), each such update puts the row's new version on another page and adds an entry
 * to each of the table's six indexes. With a tenth of each page free, the new version
 * stays on its page and no index changes (a heap-only update: no indexed column moves).
 * New pages are filled to 90 %; pages written before keep their rows until they move.
 * SQLite has no such setting. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table products set (fillfactor = 90)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table products reset (fillfactor)`.execute(db);
}
