/**
 * Expand-then-contract (decision 048), on the suite's database (SQLite, or PostgreSQL in its
 * leg): every migration is applied alone on top of the ones before it, and a table or
 * column that vanishes (dropped, or renamed away from its old name) fails the test unless
 * the migration exports `contract` (app/server/db/migrations/contract.ts) naming an earlier
 * migration and what it drops. The old release still runs while the new one migrates; a
 * vanished column is its 500. Migrations that landed before the rule are listed below.
 */
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTables } from "../../app/server/backup/introspect.server";
import { parseBackupToolConfig } from "../../app/server/config.server";
import { migrateToLatest, openDatabase, type DatabaseHandle, type Dialect } from "../../app/server/db/db.server";
import { migrations } from "../../app/server/db/migrations";
import type { ContractStep } from "../../app/server/db/migrations/contract";
import { createTestDatabase, type TestDatabase } from "../support/database";

/**
 * Landed before the rule, each dropping or renaming in one release what an older one
 * used. Frozen: a new migration is never added here (it exports `contract` instead).
 */
const GRANDFATHERED: Record<string, string[]> = {
  // Push moved into the one outbox (decision 040) and its own queue went in the same release.
  "0035-push-in-outbox": ["push_outbox"],
};

type Shape = Map<string, Set<string>>;

async function shapeOf(db: Kysely<any>, dialect: Dialect): Promise<Shape> {
  const tables = await readTables(db, dialect);
  return new Map(tables.map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
}

/** Tables and columns in `before` that `after` lacks ("table", "table.column"). */
function vanished(before: Shape, after: Shape): string[] {
  const out: string[] = [];
  for (const [table, columns] of before) {
    const now = after.get(table);
    if (!now) out.push(table);
    else for (const c of columns) if (!now.has(c)) out.push(`${table}.${c}`);
  }
  return out.sort();
}

/** What a migration may make vanish: its contract's list, a grandfathered list, or nothing. */
function allowed(name: string, contract: ContractStep | undefined, names: string[]): string[] {
  if (!contract) return GRANDFATHERED[name] ?? [];
  expect(names.indexOf(contract.expandedIn), `${name}: contract.expandedIn names no earlier migration`).toBeLessThan(
    names.indexOf(name),
  );
  expect(names.indexOf(contract.expandedIn)).toBeGreaterThanOrEqual(0);
  return contract.drops;
}

let tdb: TestDatabase;
let handle: DatabaseHandle;
beforeAll(async () => {
  tdb = await createTestDatabase("migrule", { empty: true });
  handle = openDatabase(parseBackupToolConfig({ DATABASE_URL: tdb.url }).database);
});
afterAll(async () => {
  await handle?.close();
  await tdb?.drop();
});

describe("expand, then contract", () => {
  it("no migration drops or renames a table or column unless it is the contract step of an earlier expand", async () => {
    const names = Object.keys(migrations).sort();
    const violations: string[] = [];
    let shape = await shapeOf(handle.db, handle.dialect);
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      await migrateToLatest(handle.db, names.slice(0, i + 1));
      const next = await shapeOf(handle.db, handle.dialect);
      const contract = (migrations[name] as { contract?: ContractStep }).contract;
      const ok = new Set(allowed(name, contract, names));
      for (const gone of vanished(shape, next)) if (!ok.has(gone)) violations.push(`${name} drops ${gone}`);
      shape = next;
    }
    expect(violations).toEqual([]);
  }, 120_000);

  it("catches a migration that drops a column, and lets it pass as a marked contract step", async () => {
    const before: Shape = new Map([["products", new Set(["id", "name", "legacyNote"])]]);
    const after: Shape = new Map([["products", new Set(["id", "name"])]]);
    expect(vanished(before, after)).toEqual(["products.legacyNote"]);
    const names = ["0001-initial", "0050-note", "0060-drop-note"];
    expect(allowed("0060-drop-note", undefined, names)).toEqual([]);
    expect(allowed("0060-drop-note", { expandedIn: "0050-note", drops: ["products.legacyNote"] }, names)).toEqual([
      "products.legacyNote",
    ]);
    expect(() => allowed("0050-note", { expandedIn: "0060-drop-note", drops: [] }, names)).toThrow(
      /names no earlier migration/,
    );
  });
});
