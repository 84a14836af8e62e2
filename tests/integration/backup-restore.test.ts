/**
 * Backups and restores (decision 048) on the suite's database (SQLite, or PostgreSQL in its
 * leg): a backup restores into an empty database with every row; a damaged backup (a
 * flipped byte, a missing file, a wrong passphrase) is refused naming what is wrong and
 * writes nothing; a target with data is refused unless forced; an older backup is migrated
 * forward.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBackup, type BackupResult } from "../../app/server/backup/backup.service.server";
import { countRows, readTables } from "../../app/server/backup/introspect.server";
import { BackupRefused, restoreBackup, type RestoreTarget } from "../../app/server/backup/restore.service.server";
import { parseBackupToolConfig } from "../../app/server/config.server";
import { migrateToLatest, openDatabase } from "../../app/server/db/db.server";
import { migrations } from "../../app/server/db/migrations";
import type { Runtime } from "../../app/server/runtime.server";
import { readEverything, seedEverything } from "../support/backup-fixtures";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";

const dropped: TestDatabase[] = [];
const dirs: string[] = [];
let source: TestDatabase;
let rt: Runtime;
let plain: BackupResult;

const tmp = (label: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `hittad-${label}-`));
  dirs.push(d);
  return d;
};

async function freshTarget(label: string): Promise<{ db: TestDatabase; target: RestoreTarget }> {
  const db = await createTestDatabase(label, { empty: true });
  dropped.push(db);
  const target = parseBackupToolConfig({ DATABASE_URL: db.url, BACKUP_DIR: tmp("bk") }, tmp("data"));
  return { db, target };
}

function backupOf(url: string, extra: Record<string, string> = {}) {
  const cfg = parseBackupToolConfig({ DATABASE_URL: url, BACKUP_DIR: tmp("backups"), ...extra }, tmp("data"));
  return makeBackup(cfg, { clock: Date.now, trigger: "manual" });
}

async function tablesWithRows(url: string) {
  const handle = openDatabase(parseBackupToolConfig({ DATABASE_URL: url }).database);
  try {
    const tables = await readTables(handle.db, handle.dialect);
    return {
      tables: tables.length,
      rows: (await Promise.all(tables.map((t) => countRows(handle.db, t.name)))).reduce((a, b) => a + b, 0),
    };
  } finally {
    await handle.close();
  }
}

let refusing: Promise<{ db: TestDatabase; target: RestoreTarget }> | undefined;

/**
 * Restoring must refuse with a message matching `why`, and leave the target without tables
 * (one empty target for every refusal: none may write to it).
 */
async function expectRefusedAndUntouched(dir: string, why: RegExp, passphrase?: string) {
  const { db, target } = await (refusing ??= freshTarget("refused"));
  const err = await restoreBackup(target, dir, { force: false, passphrase }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(BackupRefused);
  expect((err as Error).message).toMatch(why);
  if (db.dialect === "sqlite") expect(fs.existsSync(new URL(db.url.replace(/^file:/, "file://")).pathname)).toBe(false);
  else expect(await tablesWithRows(db.url)).toEqual({ tables: 0, rows: 0 });
}

function copyOf(dir: string): string {
  const copy = path.join(tmp("copy"), path.basename(dir));
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

beforeAll(async () => {
  source = await createTestDatabase("bksrc");
  dropped.push(source);
  rt = await createTestRuntime(testEnv(source));
  await seedEverything(rt);
  plain = await backupOf(source.url);
}, 60_000);
afterAll(async () => {
  await rt?.database.close();
  for (const db of dropped) await db.drop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("backup and restore", () => {
  it("a backup restores into an empty database with every row of every table", async () => {
    expect(plain.manifest.tables.products!.rows).toBe(1);
    expect(plain.manifest.tables.receipts!.rows).toBe(1);
    expect(plain.manifest.migrations).toEqual(Object.keys(migrations).sort());
    const { db, target } = await freshTarget("restored");
    const report = await restoreBackup(target, plain.dir, { force: false });
    expect(report.migratedForward).toEqual([]);
    const restored = openDatabase(target.database);
    try {
      expect(await readEverything(restored.db, restored.dialect)).toEqual(
        await readEverything(rt.database.db, rt.database.dialect),
      );
    } finally {
      await restored.close();
    }
    expect(db.dialect).toBe(source.dialect);
  });

  it("a flipped byte in a table dump is refused, naming the file, and nothing is written", async () => {
    const copy = copyOf(plain.dir);
    const file = path.join(copy, "tables/products.ndjson.gz");
    const bytes = fs.readFileSync(file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    fs.writeFileSync(file, bytes);
    await expectRefusedAndUntouched(copy, /tables\/products\.ndjson\.gz is damaged: its SHA-256 does not match/);
  });

  it("a missing file is refused, naming it, and nothing is written", async () => {
    const copy = copyOf(plain.dir);
    const native = plain.manifest.dialect === "sqlite" ? "database.sqlite.gz" : "database.pgdump";
    fs.rmSync(path.join(copy, native));
    await expectRefusedAndUntouched(copy, new RegExp(`${native.replace(".", "\\.")} is missing`));
  });

  it("a damaged manifest is refused, and so is a folder that is no backup", async () => {
    const copy = copyOf(plain.dir);
    fs.appendFileSync(path.join(copy, "manifest.json"), " ");
    await expectRefusedAndUntouched(copy, /manifest\.json is damaged/);
    await expectRefusedAndUntouched(tmp("empty"), /manifest\.json is missing/);
  });

  // age's scrypt (2^18) runs three times here: seconds each on a busy machine.
  it(
    "an encrypted backup restores with its passphrase and is refused without it or with another",
    { timeout: 90_000 },
    async () => {
      const passphrase = "correct horse battery staple";
      const sealed = await backupOf(source.url, { BACKUP_PASSPHRASE: passphrase });
      expect(sealed.manifest.encrypted).toBe(true);
      // No readable table or photo in the folder: every file but the checksum is age-encrypted.
      const names = fs.readdirSync(sealed.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      expect(names.filter((e) => !e.name.endsWith(".age") && e.name !== "manifest.json.sha256")).toEqual([]);
      await expectRefusedAndUntouched(sealed.dir, /encrypted: set BACKUP_PASSPHRASE/);
      await expectRefusedAndUntouched(
        sealed.dir,
        /not the passphrase this backup was made with/,
        "another passphrase!",
      );
      const { target } = await freshTarget("sealed");
      const report = await restoreBackup(target, sealed.dir, { force: false, passphrase });
      expect(report.rows).toBe(Object.values(sealed.manifest.tables).reduce((n, t) => n + t.rows, 0));
    },
  );

  it("a target with data is refused unless --force, which replaces it", { timeout: 60_000 }, async () => {
    const err = await restoreBackup(parseBackupToolConfig({ DATABASE_URL: source.url }, tmp("data")), plain.dir, {
      force: false,
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /the target database is not empty \(account: 1 rows, .*\): restore into an empty database, or add --force/,
    );
    const { db, target } = await freshTarget("forced");
    await restoreBackup(target, plain.dir, { force: false });
    const other = await backupOf(source.url);
    await expect(restoreBackup(target, other.dir, { force: false })).rejects.toThrow(/not empty/);
    await restoreBackup(target, other.dir, { force: true });
    expect((await tablesWithRows(db.url)).rows).toBe((await tablesWithRows(source.url)).rows);
  });

  it("a backup made before the latest migration is migrated forward on restore", async () => {
    const older = await createTestDatabase("older", { empty: true });
    dropped.push(older);
    const all = Object.keys(migrations);
    const handle = openDatabase(parseBackupToolConfig({ DATABASE_URL: older.url }).database);
    await migrateToLatest(handle.db, all.slice(0, -1));
    await handle.close();
    const backup = await backupOf(older.url);
    expect(backup.manifest.migrations).toEqual(all.slice(0, -1).sort());
    const { target } = await freshTarget("forward");
    const report = await restoreBackup(target, backup.dir, { force: false });
    expect(report.migratedForward).toEqual([all.at(-1)]);
  });
});
