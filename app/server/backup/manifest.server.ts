/**
 * What a backup is on disk (decision 048): one folder under BACKUP_DIR named after the
 * moment it began, holding the database's native snapshot, a portable dump of every
 * table, the photo objects kept in S3, the generated auth secret, and a manifest with the
 * SHA-256 of every file. `<name>.partial` while it is written; renamed when complete.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Dialect } from "../db/db.server";
import type { ColumnSpec } from "./table-codec.server";

export const BACKUP_FORMAT = 1;
export const MANIFEST = "manifest.json";
/** `sha256sum` format: the manifest's own checksum, so a damaged manifest is told apart. */
export const MANIFEST_SUM = "manifest.json.sha256";
/** The backup's age identity, encrypted with BACKUP_PASSPHRASE (encrypted backups only). */
export const KEY_FILE = "key.age";
export const PARTIAL = ".partial";
export const SQLITE_SNAPSHOT = "database.sqlite.gz";
export const PG_DUMP = "database.pgdump";
export const AUTH_SECRET_FILE = "files/auth-secret";
export const tableFile = (table: string) => `tables/${table}.ndjson.gz`;
export const photoFile = (hash: string) => `photos/${hash}.webp`;

export interface FileEntry {
  /** Of the file as stored (encrypted if the backup is). */
  sha256: string;
  bytes: number;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  app: { version: string; commit?: string };
  /** When the snapshot was taken (ISO). */
  createdAt: string;
  dialect: Dialect;
  /** The migrations the database had, sorted: its schema level. */
  migrations: string[];
  /** Every table but Kysely's own, with its rows in the snapshot. */
  tables: Record<string, { rows: number; columns: ColumnSpec[] }>;
  /** Every file of the backup but the manifest, its checksum and the key. */
  files: Record<string, FileEntry>;
  encrypted: boolean;
  /** Photo objects in S3 the database names but S3 no longer had (a warning, not a failure). */
  missingPhotos: string[];
}

/** hittad-2026-11-28T06-00-00Z: sorts by time, no colon (safe on every file system). */
export function backupName(at: number): string {
  return `hittad-${new Date(at).toISOString().slice(0, 19).replace(/:/g, "-")}Z`;
}

const NAME = /^hittad-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z(?:-\d+)?$/;

/** The moment in a backup's name, or undefined for a folder that is not a backup. */
export function timeOfBackupName(name: string): number | undefined {
  const m = NAME.exec(name);
  return m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : undefined;
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** A `sha256sum` line for the manifest as stored (manifest.json, or manifest.json.age). */
export const manifestSumLine = (sha256: string, stored: string) => `${sha256}  ${stored}\n`;

/** Total bytes of the files of a backup folder. */
export function sizeOfBackup(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
  }
  return total;
}
