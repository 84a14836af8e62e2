/**
 * Fresh, migrated databases for tests. SQLite by default; PostgreSQL when the suite
 * runs with DATABASE_URL=postgres://… (each call creates and later drops its own
 * database, so parallel workers never share state).
 *
 * A database comes already migrated, copied from a template that the migrations made once
 * for this set of migration files (PostgreSQL: `create database … template`; SQLite: a
 * copy of the file): migrating a fresh PostgreSQL database took 1.5–3 s, and the service
 * tests of the PostgreSQL leg make one per test. Tests of migrations and restores ask for
 * `{ empty: true }`. The server still runs its migrations at start (they find nothing to do).
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import { parseConfig, parseDatabaseConfig, type Config } from "../../app/server/config.server";
import { migrateToLatest, openDatabase } from "../../app/server/db/db.server";
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

export interface TestDatabaseOptions {
  /** No tables at all (tests of the migrations themselves, and restore targets). */
  empty?: boolean;
}

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../app/server/db/migrations");

let hashed: string | undefined;
/**
 * Names the migrations as they are now: a changed or added migration makes a new template.
 * Read once per test process (each database made asks for it).
 */
function migrationsHash(): string {
  if (hashed) return hashed;
  const hash = createHash("sha256");
  for (const dir of [MIGRATIONS_DIR, path.dirname(MIGRATIONS_DIR)]) {
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (!fs.statSync(file).isFile()) continue;
      hash.update(name).update(fs.readFileSync(file));
    }
  }
  return (hashed = hash.digest("hex").slice(0, 16));
}

async function migrate(url: string) {
  const handle = openDatabase(parseDatabaseConfig({ DATABASE_URL: url } as NodeJS.ProcessEnv));
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
}

let postgresTemplate: Promise<string> | undefined;
/**
 * The migrated template database on this PostgreSQL, made once per set of migrations by
 * whichever test process gets there first (an advisory lock serialises them; the template
 * appears under its name only once complete). Older templates of this suite are dropped.
 */
function templateOnPostgres(admin: URL): Promise<string> {
  return (postgresTemplate ??= (async () => {
    const name = `hittad_tpl_${migrationsHash()}`;
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query("select pg_advisory_lock(7304119)");
      const found = await client.query("select 1 from pg_database where datname = $1", [name]);
      if (!found.rowCount) {
        const building = `${name}_b${process.pid}`;
        await client.query(`drop database if exists "${building}"`);
        await client.query(`create database "${building}"`);
        const url = new URL(admin.toString());
        url.pathname = `/${building}`;
        await migrate(url.toString());
        await client.query(`alter database "${building}" rename to "${name}"`);
        const old = await client.query<{ datname: string }>(
          "select datname from pg_database where datname like 'hittad\\_tpl\\_%' and datname <> $1",
          [name],
        );
        for (const { datname } of old.rows) await client.query(`drop database if exists "${datname}"`).catch(() => {});
      }
      return name;
    } finally {
      await client.query("select pg_advisory_unlock(7304119)").catch(() => {});
      await client.end();
    }
  })());
}

/** The migrated template file for SQLite, made once per set of migrations (renamed into place whole). */
async function templateOnSqlite(): Promise<string> {
  const file = path.join(os.tmpdir(), `hittad-tpl-${migrationsHash()}.sqlite`);
  if (fs.existsSync(file)) return file;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-tpl-"));
  const building = path.join(dir, "db.sqlite");
  await migrate(`file:${building}`);
  fs.renameSync(building, file);
  fs.rmSync(dir, { recursive: true, force: true });
  return file;
}

let sqliteImage: Promise<Buffer> | undefined;
/**
 * The SQLite template's contents, serialized once per test process: an in-memory database
 * opened from it (the service tests') starts migrated, ~90 ms sooner than migrating (460 ms).
 * Undefined with TEST_DB_TEMPLATE=0.
 */
export function sqliteTemplateImage(): Promise<Buffer | undefined> {
  if (noTemplate()) return Promise.resolve(undefined);
  return (sqliteImage ??= templateOnSqlite().then((file) => {
    // A database in WAL mode cannot be opened from its bytes: a copy leaves WAL first.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-img-"));
    const copy = path.join(dir, "db.sqlite");
    fs.copyFileSync(file, copy);
    const db = new SqliteDatabase(copy);
    try {
      db.pragma("journal_mode = DELETE");
      return db.serialize();
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }));
}

/** TEST_DB_TEMPLATE=0: every database migrated from nothing, as before the templates (to compare, or to rule them out). */
const noTemplate = () => process.env.TEST_DB_TEMPLATE === "0";

export async function createTestDatabase(label = "t", options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const suffix = `${label.replace(/\W/g, "_").slice(0, 20)}_${process.pid}_${randomBytes(4).toString("hex")}`;
  if (usingPostgres()) {
    const admin = new URL(process.env.DATABASE_URL!);
    const name = `hittad_${suffix}`.toLowerCase();
    const template = options.empty || noTemplate() ? null : await templateOnPostgres(admin);
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`create database "${name}"${template ? ` template "${template}"` : ""}`);
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
  if (!options.empty && !noTemplate()) fs.copyFileSync(await templateOnSqlite(), path.join(dir, "db.sqlite"));
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
