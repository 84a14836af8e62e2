/**
 * SQLite's snapshot (decision 048): better-sqlite3's backup() on a thread of its own, all
 * pages in one step. Step by step, SQLite restarts a backup whenever another connection
 * writes, and the scan log writes every second: one step reads the whole file in one read
 * transaction, which WAL lets run beside the writers. The copy is then read for the table
 * dump, in batches that leave the event loop free for the pages the server is serving.
 */
import SqliteDatabase from "better-sqlite3";
import { Kysely, sql, SqliteDialect } from "kysely";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { SQLITE_SNAPSHOT } from "./manifest.server";
import { readTables, type TableInfo } from "./introspect.server";
import { BATCH_ROWS, type Snapshot } from "./snapshot.server";

const WORKER_SOURCE = `(async () => {
  const { parentPort, workerData } = await import("node:worker_threads");
  const Database = (await import(workerData.driver)).default;
  try {
    const db = new Database(workerData.file, { fileMustExist: true });
    db.pragma("busy_timeout = 5000");
    await db.backup(workerData.target, { progress: () => 0x7fffffff });
    db.close();
    parentPort.postMessage({ ok: true });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
})();`;

function backupOnThread(file: string, target: string): Promise<void> {
  const driver = pathToFileURL(createRequire(import.meta.url).resolve("better-sqlite3")).href;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, target } });
    worker.once("message", (m: { ok?: true; error?: string }) => {
      void worker.terminate();
      if (m.ok) resolve();
      else reject(new Error(`SQLite backup of ${file} failed: ${m.error}`));
    });
    worker.once("error", reject);
  });
}

export async function takeSqliteSnapshot(file: string, workDir: string): Promise<Snapshot> {
  if (!fs.existsSync(file)) throw new Error(`no SQLite database at ${file}`);
  const copy = path.join(workDir, "snapshot.sqlite");
  await backupOnThread(file, copy);
  const conn = new SqliteDatabase(copy, { readonly: true });
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: conn }) });
  const migrations = (
    await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
  ).rows.map((r) => r.name);
  const tables = await readTables(db, "sqlite");
  return {
    dialect: "sqlite",
    migrations,
    tables,
    async *rows(table: TableInfo) {
      const cols = table.columns.map((c) => `"${c.name.replace(/"/g, '""')}"`).join(", ");
      const statement = conn.prepare(`select ${cols} from "${table.name.replace(/"/g, '""')}"`).raw(true);
      let batch: unknown[][] = [];
      for (const row of statement.iterate() as IterableIterator<unknown[]>) {
        batch.push(row);
        if (batch.length < BATCH_ROWS) continue;
        yield batch;
        batch = [];
        await new Promise((r) => setImmediate(r));
      }
      if (batch.length) yield batch;
    },
    native: () => ({ name: SQLITE_SNAPSHOT, gzip: true, stream: async () => fs.createReadStream(copy) }),
    async close() {
      await db.destroy();
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${copy}${suffix}`, { force: true });
    },
  };
}
