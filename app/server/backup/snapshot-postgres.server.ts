/**
 * PostgreSQL's snapshot (decision 048): one REPEATABLE READ transaction exports its
 * snapshot; `pg_dump --format=custom --snapshot=…` and the table dump both read that
 * snapshot, so the native and the portable copy hold the same rows, taken without stopping
 * a writer. Timestamps are read as PostgreSQL's text in UTC (microseconds kept).
 */
import { spawn } from "node:child_process";
import { Kysely, PostgresDialect, sql } from "kysely";
import { PassThrough, type Readable } from "node:stream";
import pg from "pg";
import { PG_DUMP } from "./manifest.server";
import { readTables, type TableInfo } from "./introspect.server";
import { BATCH_ROWS, type Snapshot } from "./snapshot.server";

const TEXT_TYPES = new Set([1082, 1114, 1184]); // date, timestamp, timestamptz

const rawTimes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    TEXT_TYPES.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The URL without its password (for pg_dump's command line) and the password apart. */
export function splitPassword(url: string): { url: string; password?: string } {
  const u = new URL(url);
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  u.password = "";
  return { url: u.toString(), password };
}

export function pgDump(url: string, snapshotId?: string): Readable {
  const { url: bare, password } = splitPassword(url);
  const args = ["--format=custom", "--no-password", `--dbname=${bare}`];
  if (snapshotId) args.push(`--snapshot=${snapshotId}`);
  const child = spawn("pg_dump", args, {
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  // The stream ends only once pg_dump has exited 0: a dump cut short fails the backup
  // instead of leaving a short file that looks whole.
  const out = new PassThrough();
  child.stdout.pipe(out, { end: false });
  child.on("error", (err: NodeJS.ErrnoException) =>
    out.destroy(
      err.code === "ENOENT"
        ? new Error("pg_dump not found: install the PostgreSQL client tools of the server's major version")
        : err,
    ),
  );
  child.on("close", (code) => {
    if (code === 0) out.end();
    else out.destroy(new Error(`pg_dump failed (${code}): ${stderr.trim()}`));
  });
  return out;
}

export async function takePostgresSnapshot(url: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: url, types: rawTimes });
  await client.connect();
  client.on("error", () => undefined);
  await client.query("begin isolation level repeatable read, read only");
  await client.query("set local time zone 'UTC'");
  const { rows } = await client.query<{ id: string }>("select pg_export_snapshot() as id");
  const snapshotId = rows[0]!.id;
  // Kysely for the catalogue reads, on this one connection (inside the snapshot).
  const one = { query: client.query.bind(client), release() {} };
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: { connect: async () => one, end: async () => {} } as never }),
  });
  const migrations = (
    await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
  ).rows.map((r) => r.name);
  const tables = await readTables(db, "postgres");
  let cursor = 0;
  return {
    dialect: "postgres",
    migrations,
    tables,
    async *rows(table: TableInfo) {
      const name = `backup_${++cursor}`;
      const cols = table.columns.map((c) => client.escapeIdentifier(c.name)).join(", ");
      await client.query(
        `declare ${name} no scroll cursor for select ${cols} from ${client.escapeIdentifier(table.name)}`,
      );
      try {
        for (;;) {
          const r = await client.query<unknown[]>({ text: `fetch ${BATCH_ROWS} from ${name}`, rowMode: "array" });
          if (r.rows.length === 0) break;
          yield r.rows;
        }
      } finally {
        await client.query(`close ${name}`);
      }
    },
    native: () => ({ name: PG_DUMP, gzip: false, stream: async () => pgDump(url, snapshotId) }),
    async close() {
      await client.query("commit").catch(() => undefined);
      await client.end();
    },
  };
}
