/**
 * `npm run db:migrate` applies every migration to DATABASE_URL (SQLite, or PostgreSQL
 * in the PostgreSQL leg), needs nothing but DATABASE_URL, and is idempotent.
 */
import { sql } from "kysely";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseDatabaseConfig } from "../../app/server/config.server";
import { openDatabase } from "../../app/server/db/db.server";
import { migrations } from "../../app/server/db/migrations";
import { createTestDatabase, type TestDatabase } from "../support/database";

const root = path.resolve(import.meta.dirname, "../..");
let db: TestDatabase | undefined;
afterAll(async () => {
  await db?.drop();
});

function migrate(databaseUrl: string) {
  // A shell's environment with only DATABASE_URL set (no AUTH_SECRET, even on PostgreSQL).
  const r = spawnSync("npm", ["run", "-s", "db:migrate"], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
  return { status: r.status, out: r.stdout.replace(/^npm warn.*\n/gm, ""), err: r.stderr };
}

describe("npm run db:migrate", () => {
  it("applies every migration once, then reports the database up to date", { timeout: 60_000 }, async () => {
    db = await createTestDatabase("migrate", { empty: true });
    const names = Object.keys(migrations).sort();

    const first = migrate(db.url);
    expect(first.status, first.err).toBe(0);
    expect(first.out.trim()).toBe(`Applied: ${names.join(", ")}`);

    const second = migrate(db.url);
    expect(second.status, second.err).toBe(0);
    expect(second.out.trim()).toBe("Database is up to date.");

    const handle = openDatabase(parseDatabaseConfig({ DATABASE_URL: db.url }));
    try {
      const done = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
      expect(done.rows.map((r) => r.name)).toEqual(names);
      const products = await sql<{ n: number }>`select count(*) as n from products`.execute(handle.db);
      expect(Number(products.rows[0]!.n)).toBe(0);
    } finally {
      await handle.close();
    }
  });

  it("stops with a message naming DATABASE_URL when it is not a database URL", () => {
    const r = migrate("mysql://nope");
    expect(r.status).toBe(1);
    expect(r.err).toContain("DATABASE_URL: must be a file: URL (SQLite) or a postgres:// URL");
  });
});
