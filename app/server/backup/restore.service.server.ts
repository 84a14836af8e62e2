/**
 * Restoring a backup (decision 048) into an empty database and photo storage: the backup is
 * checked whole first (verify.server.ts); a target with data is refused unless forced.
 * Then the schema is built as the backup's migrations made it, every table is loaded from
 * the portable dump in one transaction (parents first, each value turned into what the
 * target's column takes, so SQLite and PostgreSQL restore into each other), the row counts
 * are checked against the manifest, photo objects go back to S3 (or into the database when
 * the target has no S3), and the later migrations run. A failure part-way empties the
 * target again: it is never left half restored.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { sql, type Transaction } from "kysely";
import type { BackupToolConfig } from "../config.server";
import { migrateToLatest, openDatabase, type DatabaseHandle, type Dialect } from "../db/db.server";
import { objectKey } from "../photos/photo-store.server";
import { S3Client } from "../photos/s3.server";
import { countRows, dropEverything, loadOrder, readTables, resetSequences, type TableInfo } from "./introspect.server";
import { AUTH_SECRET_FILE, photoFile, tableFile } from "./manifest.server";
import { readAllStored, readStored } from "./sealing.server";
import { decodeValue, parseRow, type TableHeader } from "./table-codec.server";
import { BackupRefused, openBackup, type OpenedBackup } from "./verify.server";

export { BackupRefused } from "./verify.server";

export type RestoreTarget = Pick<BackupToolConfig, "database" | "dataDir" | "photos">;

export interface RestoreReport {
  tables: number;
  rows: number;
  /** Photo objects put back (into S3, or into the database). */
  photos: number;
  /** Migrations run after the load: the backup was older than this version. */
  migratedForward: string[];
  /** The backup's generated auth secret, written to the data folder (or undefined). */
  authSecretFile?: string;
}

const PHOTO_BLOBS = "photo_blobs";

export async function restoreBackup(
  target: RestoreTarget,
  backupDir: string,
  opts: { force: boolean; passphrase?: string },
): Promise<RestoreReport> {
  const backup = await openBackup(backupDir, opts.passphrase);
  await refuseUnlessEmpty(target, opts.force);
  if (target.database.kind === "sqlite") removeSqliteFiles(target.database.file);
  const handle = openDatabase(target.database);
  try {
    if (handle.dialect === "postgres") await dropEverything(handle.db);
    await migrateToLatest(handle.db, backup.manifest.migrations);
    const loaded = await loadTables(handle, backup, !target.photos.s3);
    if (handle.dialect === "postgres") await resetSequences(handle.db);
    const putBack = target.photos.s3 ? await putPhotos(target, backup) : loaded.photos;
    const forward = await migrateToLatest(handle.db);
    await handle.close();
    return {
      tables: loaded.tables,
      rows: loaded.rows,
      photos: putBack,
      migratedForward: (forward.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName),
      authSecretFile: await writeAuthSecret(target, backup),
    };
  } catch (err) {
    if (handle.dialect === "postgres") await dropEverything(handle.db).catch(() => undefined);
    await handle.close().catch(() => undefined);
    if (target.database.kind === "sqlite") removeSqliteFiles(target.database.file);
    const why = err instanceof Error ? err.message : String(err);
    throw new BackupRefused(`the restore failed and the target database was emptied again: ${why}`);
  }
}

/** Rows a database has right after its migrations (seeded rows such as the deleted-user account). */
let seeded: Promise<Map<string, number>> | undefined;
function seededRows(): Promise<Map<string, number>> {
  seeded ??= (async () => {
    const fresh = openDatabase({ kind: "sqlite", file: ":memory:", url: "file::memory:" });
    try {
      await migrateToLatest(fresh.db);
      const counts = new Map<string, number>();
      for (const t of await readTables(fresh.db, "sqlite")) counts.set(t.name, await countRows(fresh.db, t.name));
      return counts;
    } finally {
      await fresh.close();
    }
  })();
  return seeded;
}

/**
 * A target is empty when it has no tables or only what its migrations put there; anything
 * else is somebody's data, replaced only with --force.
 */
async function refuseUnlessEmpty(target: RestoreTarget, force: boolean): Promise<void> {
  if (target.database.kind === "sqlite" && !fs.existsSync(target.database.file)) return;
  const handle = openDatabase(target.database);
  try {
    const seeds = await seededRows();
    const filled: string[] = [];
    for (const t of await readTables(handle.db, handle.dialect)) {
      const n = await countRows(handle.db, t.name);
      if (n > (seeds.get(t.name) ?? 0)) filled.push(`${t.name}: ${n} rows`);
    }
    if (filled.length && !force) {
      throw new BackupRefused(
        `the target database is not empty (${filled.slice(0, 5).join(", ")}${filled.length > 5 ? ", …" : ""}): ` +
          "restore into an empty database, or add --force to replace everything in it",
      );
    }
  } finally {
    await handle.close();
  }
}

function removeSqliteFiles(file: string): void {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
}

async function loadTables(handle: DatabaseHandle, backup: OpenedBackup, inlinePhotos: boolean) {
  const { manifest } = backup;
  const tables = loadOrder(await readTables(handle.db, handle.dialect));
  const inBackup = Object.keys(manifest.tables).sort();
  const inTarget = tables.map((t) => t.name).sort();
  if (inBackup.join() !== inTarget.join()) {
    throw new Error(
      `the tables of the backup (${inBackup.length}) are not those its migrations make here (${inTarget.length}): ` +
        [...inBackup.filter((t) => !inTarget.includes(t)), ...inTarget.filter((t) => !inBackup.includes(t))].join(", "),
    );
  }
  let rows = 0;
  let photos = 0;
  await handle.db.transaction().execute(async (trx) => {
    // The migrations' own rows (the deleted-user account) come back with the backup's.
    for (const t of [...tables].reverse()) await sql`delete from ${sql.table(t.name)}`.execute(trx);
    for (const t of tables) {
      const loaded = await loadTable(trx, handle.dialect, t, backup, inlinePhotos && t.name === PHOTO_BLOBS);
      photos += loaded.photos;
      const expected = manifest.tables[t.name]!.rows;
      const counted = await countRows(trx, t.name);
      if (loaded.rows !== expected || counted !== expected) {
        throw new Error(`table ${t.name}: the manifest says ${expected} rows, ${counted} were restored`);
      }
      rows += counted;
    }
  });
  return { tables: tables.length, rows, photos };
}

async function loadTable(
  trx: Transaction<any>,
  dialect: Dialect,
  table: TableInfo,
  backup: OpenedBackup,
  inlinePhotos: boolean,
): Promise<{ rows: number; photos: number }> {
  const lines = readline.createInterface({
    input: await readStored(backup.dir, tableFile(table.name), { gzip: true, opener: backup.opener }),
    crlfDelay: Infinity,
  });
  let header: TableHeader | undefined;
  let kinds: TableInfo["columns"] = [];
  let batch: unknown[][] = [];
  let rows = 0;
  let photos = 0;
  let perBatch = 1;
  const flush = async () => {
    if (!batch.length || !header) return;
    const cols = sql.join(header.columns.map((c) => sql.id(c.name)));
    const values = sql.join(batch.map((r) => sql`(${sql.join(r)})`));
    await sql`insert into ${sql.table(table.name)} (${cols}) values ${values}`.execute(trx);
    batch = [];
  };
  for await (const line of lines) {
    if (!header) {
      header = JSON.parse(line) as TableHeader;
      kinds = matchColumns(table, header);
      perBatch = Math.max(1, Math.min(500, Math.floor(30_000 / kinds.length)));
      continue;
    }
    const row = parseRow(line).map((v, i) => decodeValue(v, kinds[i]!.kind, dialect));
    if (inlinePhotos && (await inlinePhoto(row, photoColumns(header), backup))) photos++;
    batch.push(row);
    rows++;
    if (batch.length >= perBatch) await flush();
  }
  await flush();
  return { rows, photos };
}

/** The target's columns in the dump's order; the same set, or the load stops. */
function matchColumns(table: TableInfo, header: TableHeader): TableInfo["columns"] {
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  const dumped = header.columns.map((c) => c.name);
  const differ =
    header.table !== table.name || dumped.length !== table.columns.length || dumped.some((name) => !byName.has(name));
  if (differ) {
    throw new Error(
      `table ${table.name}: the dump's columns (${dumped.join(", ")}) are not the table's (${table.columns.map((c) => c.name).join(", ")})`,
    );
  }
  return dumped.map((name) => byName.get(name)!);
}

const photoColumns = (header: TableHeader) => ({
  hash: header.columns.findIndex((c) => c.name === "hash"),
  data: header.columns.findIndex((c) => c.name === "data"),
});

/** A photo whose bytes were in S3 goes into its row when the target keeps photos in the database. */
async function inlinePhoto(
  row: unknown[],
  { hash, data }: ReturnType<typeof photoColumns>,
  backup: OpenedBackup,
): Promise<boolean> {
  if (row[data] !== null) return false;
  const bytes = await photoBytes(backup, String(row[hash]));
  if (!bytes) return false;
  row[data] = bytes;
  return true;
}

/** A backed-up photo object's bytes, checked against its content hash (its name). */
async function photoBytes(backup: OpenedBackup, hash: string): Promise<Buffer | undefined> {
  if (!backup.manifest.files[photoFile(hash)]) return undefined;
  const bytes = await readAllStored(backup.dir, photoFile(hash), { gzip: false, opener: backup.opener });
  if (createHash("sha256").update(bytes).digest("hex") !== hash) throw new Error(`${photoFile(hash)} is damaged`);
  return bytes;
}

async function putPhotos(target: RestoreTarget, backup: OpenedBackup): Promise<number> {
  const s3 = new S3Client(target.photos.s3!);
  const hashes = Object.keys(backup.manifest.files)
    .map((f) => /^photos\/([0-9a-f]+)\.webp$/.exec(f)?.[1])
    .filter((h): h is string => !!h);
  for (const hash of hashes) await s3.put(objectKey(hash), (await photoBytes(backup, hash))!, "image/webp");
  return hashes.length;
}

async function writeAuthSecret(target: RestoreTarget, backup: OpenedBackup): Promise<string | undefined> {
  if (!backup.manifest.files[AUTH_SECRET_FILE]) return undefined;
  const bytes = await readAllStored(backup.dir, AUTH_SECRET_FILE, { gzip: false, opener: backup.opener });
  const file = path.join(target.dataDir, "auth-secret");
  fs.mkdirSync(target.dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, bytes, { mode: 0o600 });
  return file;
}
