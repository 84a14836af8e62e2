/**
 * Scheduled backups (decision 048) on the suite's database: with BACKUP_EVERY a look makes
 * a backup when the last good one is older than the interval and not before; a failure is
 * logged for staff and tried again after a quarter of an hour; the retention rule prunes
 * BACKUP_DIR; and on PostgreSQL, of two instances looking at once, only the one holding the
 * lock makes it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestBackups, recordBackup } from "../../app/server/backup/backups.repository.server";
import { backupName } from "../../app/server/backup/manifest.server";
import { runDueBackup } from "../../app/server/backup/schedule.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";

const HOUR = 3_600_000;
let tdb: TestDatabase;
let dir: string;
let rt: Runtime;
let other: Runtime;

beforeAll(async () => {
  tdb = await createTestDatabase("bksched");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-sched-"));
  const env = testEnv(tdb, { BACKUP_EVERY: "6h", BACKUP_DIR: dir });
  rt = await createTestRuntime(env);
  other = await createTestRuntime(env);
});
afterAll(async () => {
  await rt?.database.close();
  await other?.database.close();
  await tdb?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const look = (runtime: Runtime, now: number, config = runtime.config) =>
  runDueBackup({ db: runtime.database.db, config, clock: () => now }, runtime.database.dialect);

describe("scheduled backups", () => {
  it("a look makes a backup when the last good one is older than BACKUP_EVERY, and not before", async () => {
    const t0 = Date.now();
    const first = await look(rt, t0);
    expect(first).toMatchObject({ name: backupName(t0) });
    expect(await look(rt, t0 + 5 * HOUR)).toBe("not-due");
    const second = await look(rt, t0 + 6 * HOUR);
    expect(second).toMatchObject({ name: backupName(t0 + 6 * HOUR) });
    const log = await latestBackups(rt.database.db, 10);
    expect(log.map((b) => [b.trigger, b.result])).toEqual([
      ["scheduled", "ok"],
      ["scheduled", "ok"],
    ]);
    expect(fs.readdirSync(dir).sort()).toEqual([backupName(t0), backupName(t0 + 6 * HOUR)]);
  });

  it("keeps the last day's, 7 daily and 4 weekly backups and deletes older ones", async () => {
    const now = Date.now() + 30 * 24 * HOUR;
    // The first test's backups out of the way: one of them can carry the same second as a
    // day below (now - 30 days), and this test counts what the retention rule keeps.
    for (const n of fs.readdirSync(dir)) fs.rmSync(path.join(dir, n), { recursive: true, force: true });
    // Backups (empty folders: only their names count) every day for the 60 days before.
    for (let d = 1; d <= 60; d++) fs.mkdirSync(path.join(dir, backupName(now - d * 24 * HOUR)));
    fs.writeFileSync(path.join(dir, "README.txt"), "not a backup");
    const ancient = now - 100 * 24 * HOUR;
    await recordBackup(rt.database.db, {
      name: backupName(ancient),
      trigger: "scheduled",
      startedAt: ancient,
      finishedAt: ancient,
      result: "ok",
      sizeBytes: 1,
      error: null,
    });
    await look(rt, now);
    // The log forgets attempts after 90 days.
    expect((await latestBackups(rt.database.db, 100)).map((b) => b.name)).not.toContain(backupName(ancient));
    const left = fs.readdirSync(dir).filter((n) => n.startsWith("hittad-"));
    // The new one and 6 more days; of the 4 weeks, the one or two the days do not reach.
    expect(left.length).toBeGreaterThanOrEqual(7 + 2);
    expect(left.length).toBeLessThanOrEqual(7 + 3);
    expect(left).not.toContain(backupName(now - 40 * 24 * HOUR));
    expect(left).toContain(backupName(now));
    expect(fs.existsSync(path.join(dir, "README.txt"))).toBe(true);
  });

  it("a failed backup is logged with why, and tried again a quarter of an hour later", async () => {
    const now = Date.now() + 60 * 24 * HOUR;
    const blocked = path.join(dir, "not-a-folder");
    fs.writeFileSync(blocked, "");
    const config = {
      ...rt.config,
      operations: { ...rt.config.operations, backups: { ...rt.config.operations.backups, dir: blocked } },
    };
    await expect(look(rt, now, config)).rejects.toThrow();
    const [failed] = await latestBackups(rt.database.db, 1);
    expect(failed).toMatchObject({ result: "failed", trigger: "scheduled" });
    expect(failed!.error).toMatch(/not-a-folder/);
    expect(await look(rt, now + 10 * 60_000)).toBe("not-due");
    expect(await look(rt, now + 16 * 60_000)).toMatchObject({ name: backupName(now + 16 * 60_000) });
  });

  it.skipIf(!usingPostgres())(
    "of two instances looking at once, only the one holding the lock makes a backup",
    async () => {
      const now = Date.now() + 90 * 24 * HOUR;
      const results = await Promise.all([look(rt, now), look(other, now)]);
      const made = results.filter((r) => typeof r === "object");
      expect(made).toHaveLength(1);
      expect(results.filter((r) => typeof r !== "object").sort()).toEqual([
        expect.stringMatching(/^(locked|not-due)$/),
      ]);
    },
  );
});
