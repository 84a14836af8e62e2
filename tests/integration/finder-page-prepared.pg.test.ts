/**
 * The finder page's one read runs on PostgreSQL as a named prepared statement (decision
 * 045, point 6): parsed and planned once per connection, not once per page. A statement
 * that selects every column of `products` and was prepared before a migration added one
 * fails on that connection with "cached plan must not change result type" (0A000), which
 * is what a rolling deploy does to the old version's open connections: the read must
 * then prepare it again under a new name and answer, not fail every finder page on that
 * connection until it closes.
 * PostgreSQL only (*.pg.test.ts): SQLite re-prepares a kept statement after a schema change by itself.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { readFinderPages } from "../../app/server/items/finder-page.repository.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { insertItemRow } from "../support/item-rows";
import { createUser } from "../support/users";

let db: TestDatabase;
let rt: Runtime;
let itemId: string;

beforeAll(async () => {
  db = await createTestDatabase("finderprepared");
  rt = await createTestRuntime(testEnv(db));
  const owner = await createUser(rt, { name: "Prepared Owner" });
  itemId = await insertItemRow(rt, {
    id: "Prep000001",
    code: "ZPREP0001",
    owner: owner.id,
    name: "Umbrella",
    findFee: 100,
    contactInfo: "Call me",
  });
});
afterAll(async () => {
  await rt?.database.close();
  await db?.drop();
});

/** The finder page's read of the item alone (the statement's size for one item, `finder_page`). */
const readFinderPage = async () => (await readFinderPages(rt.database.db, [itemId], "relay:flood:none:")).get(itemId);

/**
 * The statements prepared on the pool's most recently used connection: the pool hands its
 * idle connections out last in, first out, so with nothing else running this is the
 * connection the read before ran on.
 */
async function preparedHere(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(
    rt.database.db,
  );
  return rows.map((r) => r.name);
}

it("the finder page's read is prepared once per connection and survives a column added under it by a migration", async () => {
  const before = await readFinderPage();
  expect(before?.item.name).toBe("Umbrella");
  expect(await preparedHere()).toContain("finder_page");
  // Again on the same connection: by its name, without preparing anew.
  expect((await readFinderPage())?.item.name).toBe("Umbrella");

  // A rolling deploy: the new version's migration adds a column to products while this
  // version's connections hold the statement prepared for the old columns.
  await sql`alter table products add column "addedByANewerVersion" text`.execute(rt.database.db);
  const after = await readFinderPage();
  expect(after?.item.name).toBe("Umbrella");
  // The same connection now runs it under a new name, prepared for the table as it is.
  const names = await preparedHere();
  expect(names).toContain("finder_page_1");
  expect((await readFinderPage())?.item.name).toBe("Umbrella");
  expect(await preparedHere()).toEqual(names);
});
