/**
 * Bulk writes to a SQLite file on a worker thread (decision 021). better-sqlite3 runs
 * every statement on the thread that calls it; the scan log's flush under load (thousands
 * of rows a second) took a fifth of the finder page's CPU on the event loop that serves
 * it. Here the rows go to a second connection to the same file, on its own thread, and
 * the event loop only waits for the answer. WAL lets the app's connection read meanwhile;
 * writers take turns (busy_timeout on both sides).
 *
 * All the rows of one `run` are written in one immediate transaction: all or nothing, as
 * on the app's connection. An in-memory database cannot be shared: it has no writer, and
 * its callers write on the app's connection.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/** The connection settings of every SQLite connection the app opens (db.server.ts). */
export const SQLITE_PRAGMAS = [
  "journal_mode = WAL",
  "foreign_keys = ON",
  "busy_timeout = 5000",
  // WAL + NORMAL is durable across process crashes (kill -9); only an OS crash can
  // lose the last transactions, which FULL would prevent at a large write cost.
  "synchronous = NORMAL",
] as const;

export interface SqliteWriter {
  /** Runs `sql` once per parameter list, all in one transaction; resolves with the rows changed. */
  run(sql: string, rows: readonly (readonly unknown[])[]): Promise<number>;
  /** Waits for the writes under way, then ends the thread. */
  close(): Promise<void>;
}

/**
 * SQLite's name for the fold of products.nameFolded (migration 0046): JavaScript's
 * toLowerCase, registered on every connection the app opens. A name of the app's own,
 * not an override of lower(): a connection without it (the sqlite3 shell) is refused with
 * "no such function" instead of writing an index entry folded another way.
 */
export const FOLD_FUNCTION = "hittad_fold";

// The worker's whole program (plain JavaScript: it is not built by Vite). Statements are
// prepared once per text; an error answers the one request and keeps the thread.
const WORKER_SOURCE = `(async () => {
  const { parentPort, workerData } = await import("node:worker_threads");
  const Database = (await import(workerData.driver)).default;
  const db = new Database(workerData.file);
  for (const pragma of workerData.pragmas) db.pragma(pragma);
  // products.nameFolded is computed by this function (db.server.ts, migration 0046).
  db.function("${FOLD_FUNCTION}", { deterministic: true }, (s) => (typeof s === "string" ? s.toLowerCase() : s));
  const statements = new Map();
  parentPort.on("message", ({ id, sql, rows }) => {
    try {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = db.prepare(sql)));
      let changes = 0;
      db.transaction(() => {
        for (const row of rows) changes += statement.run(row).changes;
      }).immediate();
      parentPort.postMessage({ id, changes });
    } catch (err) {
      parentPort.postMessage({ id, error: String((err && err.message) || err), code: err && err.code });
    }
  });
})();`;

interface Pending {
  resolve: (changes: number) => void;
  reject: (err: Error) => void;
}

/** A running thread and the writes it holds. */
interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** A writer thread for the SQLite database in `file` (started on the first write). */
export function openSqliteWriter(file: string): SqliteWriter {
  const driver = pathToFileURL(createRequire(import.meta.url).resolve("better-sqlite3")).href;
  let thread: Thread | undefined;
  let nextId = 1;
  let closed = false;
  const inFlight = new Set<Promise<unknown>>();

  const start = (): Thread => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, pragmas: SQLITE_PRAGMAS } });
    const pending = new Map<number, Pending>();
    const self: Thread = { worker, pending };
    worker.on("message", (m: { id: number; changes?: number; error?: string; code?: string }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (pending.size === 0) worker.unref();
      if (m.error === undefined) p.resolve(m.changes ?? 0);
      else p.reject(Object.assign(new Error(m.error), { code: m.code }));
    });
    // A thread that died (it cannot open the file, or crashed) fails what it held, and
    // only that; the next write starts a new one.
    const end = (err: Error) => {
      if (thread === self) thread = undefined;
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    };
    worker.on("error", end);
    worker.on("exit", (code) => end(new Error(`SQLite writer thread exited (${code})`)));
    return self;
  };

  return {
    run(sql, rows) {
      if (closed) return Promise.reject(new Error("SQLite writer is closed"));
      if (rows.length === 0) return Promise.resolve(0);
      const { worker, pending } = (thread ??= start());
      const id = nextId++;
      // The thread keeps the process alive only while it holds a write.
      worker.ref();
      const answer = new Promise<number>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, sql, rows });
      });
      const forget = () => void inFlight.delete(settled);
      const settled: Promise<void> = answer.then(forget, forget);
      inFlight.add(settled);
      return answer;
    },
    async close() {
      closed = true;
      const current = thread;
      thread = undefined;
      if (!current) return;
      await Promise.all([...inFlight]);
      await current.worker.terminate();
    },
  };
}
