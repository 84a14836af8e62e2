/**
 * Schema drift on PostgreSQL (decision 039): an empty PostgreSQL database migrated to the
 * latest has exactly the tables and columns of the `Database` interface, as the SQLite
 * check in tests/quality/schema-drift.test.ts asks of SQLite. Runs in the PostgreSQL leg
 * only (*.pg.test.ts); the test creates and drops its own database.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "~/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { declaredSchema, migratedSchema } from "../quality/schema";

describe("schema drift on PostgreSQL", () => {
  let db: TestDatabase;
  let rt: Runtime;

  beforeAll(async () => {
    db = await createTestDatabase("drift", { empty: true });
    rt = await createTestRuntime(testEnv(db));
  });
  afterAll(async () => {
    await rt?.database.close();
    await db?.drop();
  });

  it("an empty database migrated to the latest has exactly the tables and columns of db/schema.ts", async () => {
    expect(db.dialect).toBe("postgres");
    const declared = declaredSchema();
    expect(await migratedSchema(rt.database.db, declared)).toEqual(declared);
  });

  it("a table a migration rewrote is vacuumed once it is applied, so index-only scans serve it at once", async () => {
    const { rows } = await sql<{ last_vacuum: Date | null }>`
      select last_vacuum from pg_stat_user_tables where relname = 'products'`.execute(rt.database.db);
    expect(rows[0]?.last_vacuum).toBeInstanceOf(Date);
  });
});
