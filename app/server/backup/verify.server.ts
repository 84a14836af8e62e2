/**
 * Opening a backup for a restore (decision 048): everything is checked before anything is
 * written. The manifest against its own checksum, then every file it lists against its
 * SHA-256 and size; a missing file, a flipped byte or a wrong passphrase is refused with a
 * message that names it.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { migrations as known } from "../db/migrations";
import {
  BACKUP_FORMAT,
  KEY_FILE,
  MANIFEST,
  MANIFEST_SUM,
  PARTIAL,
  sha256OfFile,
  tableFile,
  type BackupManifest,
} from "./manifest.server";
import { openKeyFile, readAllStored, storedName, type Opener } from "./sealing.server";

/** A backup that cannot be restored as it is; the message says what is wrong. */
export class BackupRefused extends Error {
  override name = "BackupRefused";
}

export interface OpenedBackup {
  dir: string;
  manifest: BackupManifest;
  opener?: Opener;
}

const column = z.object({
  name: z.string(),
  kind: z.enum(["text", "integer", "real", "boolean", "bytes", "timestamp", "json"]),
});
const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  app: z.object({ version: z.string(), commit: z.string().optional() }),
  createdAt: z.string(),
  dialect: z.enum(["sqlite", "postgres"]),
  migrations: z.array(z.string()),
  tables: z.record(z.string(), z.object({ rows: z.number().int().min(0), columns: z.array(column) })),
  files: z.record(z.string(), z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int() })),
  encrypted: z.boolean(),
  missingPhotos: z.array(z.string()),
});

export async function openBackup(dir: string, passphrase: string | undefined): Promise<OpenedBackup> {
  const at = path.resolve(dir);
  if (!fs.existsSync(at) || !fs.statSync(at).isDirectory()) throw new BackupRefused(`${dir} is not a backup folder`);
  if (at.endsWith(PARTIAL)) throw new BackupRefused(`${dir} is a backup that did not finish (it ends in ${PARTIAL})`);
  const encrypted = fs.existsSync(path.join(at, storedName(MANIFEST, true)));
  const manifestName = storedName(MANIFEST, encrypted);
  if (!fs.existsSync(path.join(at, manifestName))) {
    throw new BackupRefused(`${MANIFEST} is missing from ${dir}: not a Hittad backup, or damaged`);
  }
  const sumFile = path.join(at, MANIFEST_SUM);
  if (!fs.existsSync(sumFile)) throw new BackupRefused(`${MANIFEST_SUM} is missing from ${dir}`);
  const expected = fs.readFileSync(sumFile, "utf8").split(/\s+/)[0];
  if (expected !== (await sha256OfFile(path.join(at, manifestName)))) {
    throw new BackupRefused(`${manifestName} is damaged: its SHA-256 does not match ${MANIFEST_SUM}`);
  }
  let opener: Opener | undefined;
  if (encrypted) {
    if (!passphrase)
      throw new BackupRefused("this backup is encrypted: set BACKUP_PASSPHRASE to the passphrase it was made with");
    if (!fs.existsSync(path.join(at, KEY_FILE))) throw new BackupRefused(`${KEY_FILE} is missing from ${dir}`);
    try {
      opener = await openKeyFile(passphrase, fs.readFileSync(path.join(at, KEY_FILE)));
    } catch (err) {
      throw new BackupRefused(err instanceof Error ? err.message : String(err));
    }
  }
  let manifest: BackupManifest;
  try {
    const text = (await readAllStored(at, MANIFEST, { gzip: false, opener })).toString("utf8");
    manifest = manifestSchema.parse(JSON.parse(text)) as BackupManifest;
  } catch (err) {
    throw new BackupRefused(`${manifestName} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (manifest.encrypted !== encrypted) throw new BackupRefused(`${manifestName} does not say the backup is encrypted`);
  const problems = await checkFiles(at, manifest);
  if (problems.length) {
    throw new BackupRefused(`the backup is damaged, nothing was restored:\n  ${problems.join("\n  ")}`);
  }
  const unknown = manifest.migrations.filter((m) => !(m in known));
  if (unknown.length) {
    throw new BackupRefused(
      `the backup was made by a newer Hittad (migrations unknown here: ${unknown.join(", ")}): restore it with that version or later`,
    );
  }
  return { dir: at, manifest, opener };
}

/** Every listed file is there, of its size and SHA-256; every table has its dump. */
async function checkFiles(dir: string, manifest: BackupManifest): Promise<string[]> {
  const problems: string[] = [];
  for (const table of Object.keys(manifest.tables)) {
    if (!manifest.files[tableFile(table)]) problems.push(`the manifest lists table ${table} but no file for it`);
  }
  for (const [name, entry] of Object.entries(manifest.files)) {
    const stored = storedName(name, manifest.encrypted);
    const file = path.join(dir, stored);
    if (!fs.existsSync(file)) {
      problems.push(`${stored} is missing`);
      continue;
    }
    const size = fs.statSync(file).size;
    if (size !== entry.bytes) {
      problems.push(`${stored} is damaged: ${size} bytes, the manifest says ${entry.bytes}`);
      continue;
    }
    if ((await sha256OfFile(file)) !== entry.sha256) {
      problems.push(`${stored} is damaged: its SHA-256 does not match the manifest`);
    }
  }
  return problems;
}
