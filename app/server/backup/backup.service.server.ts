/**
 * Making a backup (decision 048): a consistent snapshot of the running database, its
 * native copy and a portable dump of every table, the photo objects S3 holds, the
 * generated auth secret, and a manifest with the SHA-256 of every file. Written as
 * `<name>.partial` and renamed when whole, so a backup cut short is never taken for one.
 * Each attempt is logged in the `backups` table (for /metrics and /admin/backups).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { BackupToolConfig } from "../config.server";
import type { DB } from "../db/db.server";
import { logger } from "../logger.server";
import { objectKey } from "../photos/photo-store.server";
import { S3Client } from "../photos/s3.server";
import type { Clock } from "../service-deps.server";
import { recordBackup, type BackupRecord } from "./backups.repository.server";
import {
  AUTH_SECRET_FILE,
  BACKUP_FORMAT,
  backupName,
  KEY_FILE,
  MANIFEST,
  MANIFEST_SUM,
  manifestSumLine,
  PARTIAL,
  photoFile,
  sizeOfBackup,
  tableFile,
  type BackupManifest,
  type FileEntry,
} from "./manifest.server";
import { createSealer, storedName, writeStored, type Sealer } from "./sealing.server";
import type { Snapshot } from "./snapshot.server";
import { takePostgresSnapshot } from "./snapshot-postgres.server";
import { takeSqliteSnapshot } from "./snapshot-sqlite.server";
import { encodeRow } from "./table-codec.server";
import type { TableInfo } from "./introspect.server";

/** What a backup reads: the database, the data folder, the photo storage; where it writes. */
export type BackupSource = Pick<BackupToolConfig, "database" | "dataDir" | "backups" | "photos">;

export interface BackupResult {
  name: string;
  dir: string;
  sizeBytes: number;
  manifest: BackupManifest;
}

/** The table whose rows without bytes name photo objects in S3 (decision 035). */
const PHOTO_BLOBS = "photo_blobs";

export async function makeBackup(
  source: BackupSource,
  opts: { clock: Clock; trigger: "manual" | "scheduled"; log?: DB },
): Promise<BackupResult> {
  const startedAt = opts.clock();
  let name = backupName(startedAt);
  for (let n = 2; fs.existsSync(path.join(source.backups.dir, name)); n++) name = `${backupName(startedAt)}-${n}`;
  const work = path.join(source.backups.dir, `${name}${PARTIAL}`);
  try {
    fs.mkdirSync(source.backups.dir, { recursive: true, mode: 0o700 });
    fs.rmSync(work, { recursive: true, force: true });
    fs.mkdirSync(work, { mode: 0o700 });
    const manifest = await writeBackup(source, work, startedAt);
    const dir = path.join(source.backups.dir, name);
    fs.renameSync(work, dir);
    const sizeBytes = sizeOfBackup(dir);
    await log(opts.log, { name, trigger: opts.trigger, startedAt, finishedAt: opts.clock(), result: "ok", sizeBytes });
    if (manifest.missingPhotos.length) {
      logger.warn({ backup: name, missing: manifest.missingPhotos.length }, "photo objects missing from S3");
    }
    return { name, dir, sizeBytes, manifest };
  } catch (err) {
    fs.rmSync(work, { recursive: true, force: true });
    const error = err instanceof Error ? err.message : String(err);
    await log(opts.log, { name, trigger: opts.trigger, startedAt, finishedAt: opts.clock(), result: "failed", error });
    throw err;
  }
}

async function log(
  db: DB | undefined,
  r: Omit<BackupRecord, "sizeBytes" | "error"> & { sizeBytes?: number; error?: string },
) {
  if (!db) return;
  // A database too old for the log (no `backups` table yet) still gets its backup.
  await recordBackup(db, { ...r, sizeBytes: r.sizeBytes ?? null, error: r.error?.slice(0, 1000) ?? null }).catch(
    (err: unknown) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, "backup not logged"),
  );
}

async function writeBackup(source: BackupSource, work: string, startedAt: number): Promise<BackupManifest> {
  const sealer = source.backups.passphrase ? await createSealer(source.backups.passphrase) : undefined;
  if (sealer) fs.writeFileSync(path.join(work, KEY_FILE), sealer.keyFile, { mode: 0o600 });
  const files: Record<string, FileEntry> = {};
  const snapshot: Snapshot =
    source.database.kind === "sqlite"
      ? await takeSqliteSnapshot(source.database.file, work)
      : await takePostgresSnapshot(source.database.url);
  const tables: BackupManifest["tables"] = {};
  const inS3: string[] = [];
  try {
    for (const table of snapshot.tables) {
      const seen = table.name === PHOTO_BLOBS && source.photos.s3 ? photosWithoutBytes(table, inS3) : undefined;
      let rows = 0;
      const lines = async function* () {
        yield Buffer.from(`${JSON.stringify({ table: table.name, columns: table.columns })}\n`);
        for await (const batch of snapshot.rows(table)) {
          rows += batch.length;
          seen?.(batch);
          yield Buffer.from(batch.map((r) => `${encodeRow(r)}\n`).join(""));
        }
      };
      files[tableFile(table.name)] = await writeStored(work, tableFile(table.name), Readable.from(lines()), {
        gzip: true,
        sealer,
      });
      tables[table.name] = { rows, columns: table.columns };
    }
    const native = snapshot.native();
    files[native.name] = await writeStored(work, native.name, await native.stream(), { gzip: native.gzip, sealer });
  } finally {
    await snapshot.close();
  }
  const missingPhotos = await copyPhotoObjects(source, inS3, work, sealer, files);
  const secret = path.join(source.dataDir, "auth-secret");
  if (fs.existsSync(secret)) {
    files[AUTH_SECRET_FILE] = await writeStored(work, AUTH_SECRET_FILE, fs.createReadStream(secret), {
      gzip: false,
      sealer,
    });
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    app: appVersion(),
    createdAt: new Date(startedAt).toISOString(),
    dialect: snapshot.dialect,
    migrations: snapshot.migrations,
    tables,
    files,
    encrypted: !!sealer,
    missingPhotos,
  };
  const entry = await writeStored(work, MANIFEST, Readable.from([Buffer.from(JSON.stringify(manifest, null, 1))]), {
    gzip: false,
    sealer,
  });
  fs.writeFileSync(path.join(work, MANIFEST_SUM), manifestSumLine(entry.sha256, storedName(MANIFEST, !!sealer)));
  return manifest;
}

/** Collects the hashes of photo_blobs rows whose bytes are in S3 (`data` null). */
function photosWithoutBytes(table: TableInfo, into: string[]) {
  const hash = table.columns.findIndex((c) => c.name === "hash");
  const data = table.columns.findIndex((c) => c.name === "data");
  return (batch: unknown[][]) => {
    for (const row of batch) if (row[data] === null) into.push(String(row[hash]));
  };
}

/** Copies each photo object the snapshot names from S3; answers the ones S3 no longer has. */
async function copyPhotoObjects(
  source: BackupSource,
  hashes: string[],
  work: string,
  sealer: Sealer | undefined,
  files: Record<string, FileEntry>,
): Promise<string[]> {
  if (!source.photos.s3 || hashes.length === 0) return [];
  const s3 = new S3Client(source.photos.s3);
  const missing: string[] = [];
  const queue = [...hashes];
  const worker = async () => {
    for (let hash = queue.shift(); hash !== undefined; hash = queue.shift()) {
      const bytes = await s3.get(objectKey(hash));
      if (!bytes) {
        missing.push(hash);
        continue;
      }
      files[photoFile(hash)] = await writeStored(work, photoFile(hash), Readable.from([bytes]), {
        gzip: false,
        sealer,
      });
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return missing.sort();
}

function appVersion(): BackupManifest["app"] {
  let version = "unknown";
  try {
    version = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { version?: string }).version ?? version;
  } catch {
    // Not started from the project folder: the version stays unknown.
  }
  const git = spawnSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" });
  const commit = git.status === 0 ? git.stdout.trim() : undefined;
  return { version, commit };
}
