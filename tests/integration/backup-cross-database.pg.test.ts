/**
 * The move a growing deployment makes (decision 048): a SQLite backup restores into
 * PostgreSQL, and that one's backup back into SQLite, with every row of every table and
 * every photo's bytes as they were; and the same the other way round. PostgreSQL leg only
 * (it needs both databases).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeBackup } from "../../app/server/backup/backup.service.server";
import { restoreBackup } from "../../app/server/backup/restore.service.server";
import { parseBackupToolConfig } from "../../app/server/config.server";
import { openDatabase } from "../../app/server/db/db.server";
import { readEverything, seedEverything } from "../support/backup-fixtures";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";

const cleanup: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-cross-"));
  cleanup.push(() => fs.rmSync(d, { recursive: true, force: true }));
  return d;
};

async function postgresDb(label: string): Promise<string> {
  const db: TestDatabase = await createTestDatabase(label, { empty: true });
  cleanup.push(() => db.drop());
  return db.url;
}
const sqliteDb = () => `file:${path.join(tmp(), "hittad.sqlite")}`;

const toolConfig = (url: string) => parseBackupToolConfig({ DATABASE_URL: url, BACKUP_DIR: tmp() }, tmp());

/** Backs up `from` and restores it into the empty `to`. */
async function move(from: string, to: string) {
  const backup = await makeBackup(toolConfig(from), { clock: Date.now, trigger: "manual" });
  await restoreBackup(toolConfig(to), backup.dir, { force: false });
}

async function everything(url: string) {
  const handle = openDatabase(toolConfig(url).database);
  try {
    return await readEverything(handle.db, handle.dialect);
  } finally {
    await handle.close();
  }
}

async function seeded(url: string) {
  const rt = await createTestRuntime(
    testEnv({ url, dialect: url.startsWith("file:") ? "sqlite" : "postgres", drop: async () => {} }),
  );
  try {
    await seedEverything(rt);
  } finally {
    await rt.database.close();
  }
}

describe("backups move between SQLite and PostgreSQL", () => {
  it("SQLite → PostgreSQL → SQLite keeps every row and photo", async () => {
    const [first, middle, last] = [sqliteDb(), await postgresDb("cross_mid"), sqliteDb()];
    await seeded(first);
    const original = await everything(first);
    expect(original.photo_blobs!.length).toBeGreaterThan(0);
    await move(first, middle);
    expect(await everything(middle)).toEqual(original);
    await move(middle, last);
    expect(await everything(last)).toEqual(original);
  }, 120_000);

  it("PostgreSQL → SQLite → PostgreSQL keeps every row and photo", async () => {
    const [first, middle, last] = [await postgresDb("cross_a"), sqliteDb(), await postgresDb("cross_c")];
    await seeded(first);
    const original = await everything(first);
    await move(first, middle);
    expect(await everything(middle)).toEqual(original);
    await move(middle, last);
    expect(await everything(last)).toEqual(original);
  }, 120_000);
});
