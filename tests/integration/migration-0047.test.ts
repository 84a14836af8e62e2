/**
 * Migration 0047 (decision 042 point 18) on a database that already holds scans: SQLite
 * rebuilds `item_scans` without its foreign key and PostgreSQL drops the key; either way
 * every scan is kept, the indexes are back, and deleting an item deletes its scans; its
 * down puts the key back, keeping the rows.
 */
import { sql, type Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { afterAll, expect, it } from "vitest";
import { parseDatabaseConfig } from "../../app/server/config.server";
import { migrateToLatest, openDatabase } from "../../app/server/db/db.server";
import { migrations } from "../../app/server/db/migrations";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { rowOf } from "../support/migration-rows";

let db: TestDatabase | undefined;
afterAll(async () => {
  await db?.drop();
});

const BEFORE = "0046-folded-name";

/** How many foreign keys `item_scans` has. */
async function scanForeignKeys(k: Kysely<any>, dialect: string): Promise<number> {
  const r =
    dialect === "postgres"
      ? await sql<{ n: number }>`select count(*) as n from pg_constraint
          where conrelid = 'item_scans'::regclass and contype = 'f'`.execute(k)
      : await sql<{ n: number }>`select count(*) as n from pragma_foreign_key_list('item_scans')`.execute(k);
  return Number(r.rows[0]!.n);
}

/** The names of `item_scans`' indexes, sorted. */
async function scanIndexes(k: Kysely<any>, dialect: string): Promise<string[]> {
  const r =
    dialect === "postgres"
      ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'item_scans'`.execute(k)
      : await sql<{ name: string }>`select name from pragma_index_list('item_scans')`.execute(k);
  return r.rows.map((i) => i.name).sort();
}

it("0047 keeps every scan of a database that has them, and deleting an item then deletes its scans; down puts the key back", async () => {
  db = await createTestDatabase("m0047", { empty: true });
  const handle = openDatabase(parseDatabaseConfig({ DATABASE_URL: db.url }));
  const k = handle.db as Kysely<any>;
  try {
    const migrator = new Migrator({
      db: k,
      provider: { getMigrations: async () => migrations },
      migrationTableName: "kysely_migration",
      migrationLockTableName: "kysely_migration_lock",
      allowUnorderedMigrations: true,
    });
    const upTo = await migrator.migrateTo(BEFORE);
    expect(upTo.error).toBeUndefined();

    await k
      .insertInto("user")
      .values(await rowOf(k, db.dialect, "user", { id: "u1", email: "m@example.test" }))
      .execute();
    for (const id of ["ItemA0001", "ItemB0001"]) {
      await k
        .insertInto("products")
        .values(await rowOf(k, db.dialect, "products", { id, code: `~${id}`, owner: "u1", name: id }))
        .execute();
    }
    const scans = [
      { productId: "ItemA0001", scannedAt: 1_000, lang: "sv", device: "phone" },
      { productId: "ItemA0001", scannedAt: 2_000, lang: "en", device: "desktop" },
      { productId: "ItemB0001", scannedAt: 3_000, lang: "sv", device: "tablet" },
    ];
    await k.insertInto("item_scans").values(scans).execute();

    await migrateToLatest(k);

    const kept = await k
      .selectFrom("item_scans")
      .select(["productId", "scannedAt", "lang", "device"])
      .orderBy("scannedAt")
      .execute();
    expect(kept.map((r) => ({ ...r, scannedAt: Number(r.scannedAt) }))).toEqual(scans);
    expect(await scanIndexes(k, db.dialect)).toEqual(["item_scans_product_idx", "item_scans_time_idx"]);

    // The key is gone and the trigger is there (else the checks here would pass on 0046 too).
    expect(await scanForeignKeys(k, db.dialect)).toBe(0);
    const triggers =
      db.dialect === "postgres"
        ? (
            await sql<{ name: string }>`select tgname as name from pg_trigger where tgrelid = 'products'::regclass
            and not tgisinternal`.execute(k)
          ).rows
        : (await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(k)).rows;
    expect(triggers.map((t) => t.name)).toContain("products_delete_scans");

    await k.deleteFrom("products").where("id", "=", "ItemA0001").execute();
    const left = await k.selectFrom("item_scans").select("productId").execute();
    expect(left).toEqual([{ productId: "ItemB0001" }]);

    // And back down: 0011's key again, the rows and indexes kept.
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    expect(await scanForeignKeys(k, db.dialect)).toBe(1);
    expect(await scanIndexes(k, db.dialect)).toEqual(["item_scans_product_idx", "item_scans_time_idx"]);
    expect(await k.selectFrom("item_scans").select("productId").execute()).toEqual([{ productId: "ItemB0001" }]);
  } finally {
    await handle.close();
  }
});
