/**
 * Fresh, migrated databases for tests. SQLite by default; PostgreSQL when the suite
 * runs with DATABASE_URL=postgres://… (each call creates and later drops its own
 * database, so parallel workers never share state).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { parseConfig, type Config } from "../../app/server/config.server";
import { createRuntime, type Runtime } from "../../app/server/runtime.server";

export const TEST_AUTH_SECRET = "test-secret-0123456789abcdef0123456789abcdef";

export function usingPostgres() {
  return /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
}

export interface TestDatabase {
  url: string;
  dialect: "sqlite" | "postgres";
  drop(): Promise<void>;
}

export async function createTestDatabase(label = "t"): Promise<TestDatabase> {
  const suffix = `${label.replace(/\W/g, "_").slice(0, 20)}_${process.pid}_${randomBytes(4).toString("hex")}`;
  if (usingPostgres()) {
    const admin = new URL(process.env.DATABASE_URL!);
    const name = `hittad_${suffix}`.toLowerCase();
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`create database "${name}"`);
    await client.end();
    const url = new URL(admin.toString());
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      dialect: "postgres",
      async drop() {
        const c = new pg.Client({ connectionString: admin.toString() });
        await c.connect();
        await c.query(`drop database if exists "${name}" with (force)`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-test-"));
  return {
    url: `file:${path.join(dir, "db.sqlite")}`,
    dialect: "sqlite",
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The environment a test server and a test-side runtime share. */
export function testEnv(db: TestDatabase, extra: Record<string, string> = {}): Record<string, string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-data-"));
  return {
    DATABASE_URL: db.url,
    AUTH_SECRET: TEST_AUTH_SECRET,
    MAIL_OUTBOX_DIR: path.join(dataDir, "outbox"),
    SMS_OUTBOX_DIR: path.join(dataDir, "sms-outbox"),
    LOG_LEVEL: "warn",
    // The servers under test run with NODE_ENV=production, which refuses test payments
    // without it (decision 012); the Stripe suites set PAYMENTS=stripe.
    ALLOW_TEST_PAYMENTS: "1",
    ...extra,
  };
}

/** A runtime in the test process, on the same database as the server under test. */
export async function createTestRuntime(env: Record<string, string>): Promise<Runtime> {
  const config: Config = parseConfig({ NODE_ENV: "test", ...env } as NodeJS.ProcessEnv);
  return createRuntime(config);
}
