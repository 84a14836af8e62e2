import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * Decision 042 (point 18): the scan log's rows no longer carry a foreign key to their item.
 * PostgreSQL checked the key once per inserted row, against a million items, and the check
 * was most of the cost of writing the scan log at scale; the flush now checks its items
 * once per batch, set-based (scans.repository.server.ts). What the key's ON DELETE
 * CASCADE did is a trigger: deleting items deletes their scans in the same statement, on
 * every path that deletes items (the owner, account erasure, an organisation's erasure, a
 * replacement sticker's move), so erasure cannot forget them.
 *
 * - PostgreSQL: the constraint is dropped; a statement-level trigger deletes the scans of
 *   every deleted item at once (its transition table), not once per item. It relies on
 *   READ COMMITTED, PostgreSQL's default and the app's: its delete sees the scans an
 *   insert committed while the deletion waited for the insert's lock.
 * - SQLite: a foreign key cannot be dropped, so the table is rebuilt without it (the same
 *   columns and indexes); a row-level trigger deletes a deleted item's scans.
 *
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const keys = await sql<{ conname: string }>`
      select conname from pg_constraint
      where conrelid = 'item_scans'::regclass and contype = 'f'`.execute(db);
    for (const { conname } of keys.rows) {
      await sql`alter table item_scans drop constraint ${sql.id(conname)}`.execute(db);
    }
    // EXECUTE: planned for each statement's own deleted rows. A static statement's plan
    // is kept for the connection, and one made for an organisation's 50,000 items would
    // then read all the scans for every single item deleted after it.
    await sql`
      create function hittad_delete_scans_of_items() returns trigger language plpgsql as $$
      begin
        execute 'delete from item_scans where "productId" in (select id from gone)';
        return null;
      end $$`.execute(db);
    await sql`
      create trigger products_delete_scans after delete on products
      referencing old table as gone for each statement
      execute function hittad_delete_scans_of_items()`.execute(db);
    return;
  }
  await inSavepoint(db, async () => {
    await rebuildScans(db, false);
    await sql`
      create trigger products_delete_scans after delete on products for each row
      begin
        delete from item_scans where "productId" = old.id;
      end`.execute(db);
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger products_delete_scans on products`.execute(db);
    await sql`drop function hittad_delete_scans_of_items()`.execute(db);
    await sql`delete from item_scans where not exists (select 1 from products where id = "productId")`.execute(db);
    await sql`alter table item_scans add foreign key ("productId") references products (id) on delete cascade`.execute(
      db,
    );
    return;
  }
  await inSavepoint(db, async () => {
    await sql`drop trigger products_delete_scans`.execute(db);
    await rebuildScans(db, true);
  });
}

/**
 * Kysely runs SQLite's migrations outside a transaction: a rebuild is one savepoint, so a
 * crash half-way leaves the old table as it was.
 */
async function inSavepoint(db: Kysely<any>, work: () => Promise<void>): Promise<void> {
  await sql`savepoint m0047`.execute(db);
  try {
    await work();
    await sql`release m0047`.execute(db);
  } catch (err) {
    await sql`rollback to m0047`.execute(db);
    await sql`release m0047`.execute(db);
    throw err;
  }
}

/**
 * SQLite: `item_scans` rebuilt with or without 0011's foreign key (SQLite can neither add
 * nor drop one): the same columns and indexes and every row; with the key, only the rows
 * of items that still exist, which the key requires.
 */
async function rebuildScans(db: Kysely<any>, withKey: boolean): Promise<void> {
  await sql`drop table if exists item_scans_rebuilt`.execute(db);
  await db.schema
    .createTable("item_scans_rebuilt")
    .addColumn("productId", "text", (c) =>
      withKey ? c.notNull().references("products.id").onDelete("cascade") : c.notNull(),
    )
    .addColumn("scannedAt", "bigint", (c) => c.notNull())
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("device", "text", (c) => c.notNull())
    .execute();
  await sql`insert into item_scans_rebuilt ("productId", "scannedAt", "lang", "device")
    select "productId", "scannedAt", "lang", "device" from item_scans
    ${withKey ? sql`where exists (select 1 from products where id = "productId")` : sql``}`.execute(db);
  await db.schema.dropTable("item_scans").execute();
  await sql`alter table item_scans_rebuilt rename to item_scans`.execute(db);
  await db.schema.createIndex("item_scans_product_idx").on("item_scans").columns(["productId", "scannedAt"]).execute();
  await db.schema.createIndex("item_scans_time_idx").on("item_scans").column("scannedAt").execute();
}
