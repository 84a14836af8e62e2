import SqliteDatabase from "better-sqlite3";
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase as KyselySqlite,
  type SqliteDialectConfig,
} from "kysely";
import { Migrator, type MigrationResultSet } from "kysely/migration";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { DatabaseTarget } from "../config.server";
import { logger } from "../logger.server";
import { migrations, vacuumAfter } from "./migrations";
import { FOLD_FUNCTION, openSqliteWriter, SQLITE_PRAGMAS, type SqliteWriter } from "./sqlite-writer.server";
import type { Database } from "./schema";

export type DB = Kysely<Database>;
export type Dialect = DatabaseTarget["kind"];

// int8 (bigint) columns hold epoch milliseconds, which fit a JS number exactly.
pg.types.setTypeParser(20, (v) => Number(v));

export interface DatabaseHandle {
  db: DB;
  dialect: Dialect;
  /** SQLite in a file: bulk writes on a thread of their own (sqlite-writer.server.ts). */
  writer?: SqliteWriter;
  /** Cheap reachability check for /readyz. */
  ping(): Promise<void>;
  /** PostgreSQL's pool use, for the metrics; SQLite has one connection and no pool. */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** A boolean column as read from either database: better-auth's are true/false on PostgreSQL, 1/0 on SQLite. */
export const readBool = (v: unknown): boolean => v === true || Number(v) === 1;

export function openDatabase(target: DatabaseTarget): DatabaseHandle {
  if (target.kind === "sqlite") {
    if (target.file !== ":memory:") {
      // The data folder and database hold accounts and sessions: owner-only. SQLite
      // creates its -wal and -shm files with the database file's permissions.
      fs.mkdirSync(path.dirname(target.file), { recursive: true, mode: 0o700 });
      fs.closeSync(fs.openSync(target.file, "a", 0o600));
    }
    const sqlite = new SqliteDatabase(target.file === ":memory:" && target.image ? target.image : target.file);
    for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
    // SQLite's own lower() folds only ASCII; PostgreSQL's folds every letter. A query must
    // find "Äppelklocka" from "äpp" on both (decision 021), so lower() here is JavaScript's
    // (overriding a built-in is SQLite's rule), and so is the fold of products.nameFolded,
    // the name search's column (FOLD_FUNCTION, migration 0046).
    const fold = (s: unknown) => (typeof s === "string" ? s.toLowerCase() : s);
    sqlite.function("lower", { deterministic: true }, fold);
    sqlite.function(FOLD_FUNCTION, { deterministic: true }, fold);
    const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
    const writer = target.file === ":memory:" ? undefined : openSqliteWriter(target.file);
    return {
      db,
      dialect: "sqlite",
      writer,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: async () => {
        await writer?.close();
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
  });
  // A connection lost while idle (the pool reports it) or while checked out (the client
  // itself emits 'error', and only idle clients have the pool's listener) must not crash
  // the process: the query running on it fails, the pool drops the client on release,
  // and the request answers 503 (tests/integration/database-outage.pg.test.ts).
  const lost = (err: Error) => logger.warn({ err: err.message }, "database connection lost");
  pool.on("error", lost);
  pool.on("connect", (client) => {
    client.on("error", lost);
    keepNamedStatements(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: "postgres",
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

/**
 * SQL texts PostgreSQL keeps prepared, by name, on each connection that runs them
 * (`keepPreparedOnPostgres`): a few hot statements that PostgreSQL would otherwise parse
 * and plan again for every request (decision 045, point 6). Kysely's driver sends every
 * query unnamed; a text registered here goes to node-postgres as `{ name, text, values }`
 * instead, so the connection parses it once and PostgreSQL reuses its plan.
 */
const namedStatements = new Map<string, { base: string; name: string; generation: number }>();

/**
 * PostgreSQL: run `text` as the prepared statement `name` on every connection (SQLite
 * keeps every statement prepared already: withStatementCache). One name per text.
 */
export function keepPreparedOnPostgres(text: string, name: string): void {
  const kept = namedStatements.get(text);
  if (kept?.base === name) return;
  if (kept || [...namedStatements.values()].some((s) => s.base === name))
    throw new Error(`prepared statement ${name}: one name per SQL text`);
  namedStatements.set(text, { base: name, name, generation: 0 });
}

/**
 * "cached plan must not change result type": a statement a connection prepared before a
 * migration changed its result's columns (a column added to a table it selects `*` of)
 * fails on that connection from then on, as long as the connection lives. During a rolling
 * deploy the new version's migration runs under the old version's open connections.
 */
const CACHED_PLAN_CHANGED = "0A000";

type Query = (...args: unknown[]) => Promise<unknown>;

/** A new connection's `query` sends the texts of `namedStatements` by name (openDatabase). */
function keepNamedStatements(client: pg.PoolClient) {
  const query = client.query.bind(client) as Query;
  client.query = ((text: unknown, ...rest: unknown[]) => {
    const kept = typeof text === "string" && rest.length === 1 ? namedStatements.get(text) : undefined;
    return kept ? runNamed(query, kept, text as string, rest[0]) : query(text, ...rest);
  }) as typeof client.query;
}

/**
 * The statement by its name; on "cached plan must not change result type" again under a
 * new name, which this connection (and every other one, when it next runs the text)
 * prepares afresh for the schema as it is now. The old one stays prepared, unused, until
 * the connection closes. Not in a transaction: the error has aborted it (the hot
 * statements run outside one).
 */
async function runNamed(
  query: Query,
  kept: { base: string; name: string; generation: number },
  text: string,
  values: unknown,
) {
  const name = kept.name;
  try {
    return await query({ name, text, values });
  } catch (err) {
    const { code, message } = err as { code?: unknown; message?: unknown };
    // 0A000 is every "feature not supported": only this one is retried.
    if (code !== CACHED_PLAN_CHANGED || !/cached plan must not change result type/.test(String(message))) throw err;
    // Another connection may have renamed it already: then this one prepares that name.
    if (kept.name === name) kept.name = `${kept.base}_${++kept.generation}`;
    logger.info({ statement: kept.name }, "prepared statement renamed after a schema change");
    return await query({ name: kept.name, text, values });
  }
}

/** Prepared statements kept per connection (SQL texts the app runs: a few hundred). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 for Kysely, with its prepared statements kept (decision 021). Kysely's
 * SQLite driver prepares every query anew: SQLite parses and plans the same text each
 * time (for the scan log's 100-row insert that was more of the insert's cost than the
 * writing). Here a statement is prepared once per SQL text and reused, least recently
 * used first out. A statement still being iterated (Kysely's `stream()`) is busy: such a
 * text gets a fresh statement. A schema change (a migration) makes SQLite re-prepare a
 * kept statement by itself.
 */
export function withStatementCache(sqlite: SqliteDatabase.Database, size = STATEMENT_CACHE_SIZE): KyselySqlite {
  const kept = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      const found = kept.get(text);
      if (found && !found.busy) {
        kept.delete(text); // most recently used last
        kept.set(text, found);
        return found;
      }
      const statement = sqlite.prepare(text);
      if (found) return statement; // the kept one is busy: this one is used once
      kept.set(text, statement);
      if (kept.size > size) kept.delete(kept.keys().next().value!);
      return statement;
    },
  };
}

/**
 * SQLite with transactions that take the write lock when they begin. Kysely begins them
 * with a plain (deferred) `begin`: a transaction that reads first holds a snapshot, and if
 * another connection (the scan writer thread) commits before it writes, its first write
 * fails at once with SQLITE_BUSY_SNAPSHOT; SQLite cannot wait that out. `begin immediate`
 * waits (busy_timeout) for the other writer instead, and then nothing can commit under it.
 * The app's transactions are there to write, and on one connection they run one at a
 * time anyway.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

/**
 * Applies every migration not yet applied; with `only`, just those named (a restore builds
 * the schema a backup was made at, then loads it, then migrates forward; decision 048).
 */
export async function migrateToLatest(db: Kysely<any>, only?: readonly string[]): Promise<MigrationResultSet> {
  const chosen = only ? Object.fromEntries(only.map((name) => [name, migrations[name]!])) : migrations;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => chosen },
    migrationTableName: "kysely_migration",
    migrationLockTableName: "kysely_migration_lock",
    // Work lands from parallel branches: a migration numbered below one a database already
    // ran (0032 after 0035) is applied, not refused. Each migration touches only its own
    // tables and columns, so their order between branches does not matter.
    allowUnorderedMigrations: true,
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const applied = (result.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
    for (const table of new Set(applied.flatMap((name) => vacuumAfter[name] ?? []))) {
      // The migration is recorded already: a vacuum that fails (no right to it) is said,
      // not fatal, and is not tried again by a later start.
      await sql`vacuum (analyze) ${sql.table(table)}`
        .execute(db)
        .catch((err: unknown) =>
          logger.warn(
            { table, err: err instanceof Error ? err.message : String(err) },
            `vacuum after a migration failed: run "vacuum analyze ${table}" by hand`,
          ),
        );
    }
  }
  return result;
}
