/** The log of backup attempts (decision 048, migration 0053). One query per function. */
import { randomUUID } from "node:crypto";
import type { DB } from "../db/db.server";

export interface BackupRecord {
  name: string;
  trigger: "manual" | "scheduled";
  startedAt: number;
  finishedAt: number;
  result: "ok" | "failed";
  sizeBytes: number | null;
  error: string | null;
}

export async function recordBackup(db: DB, r: BackupRecord): Promise<void> {
  await db
    .insertInto("backups")
    .values({ id: randomUUID(), ...r })
    .execute();
}

const toRecord = (r: {
  name: string;
  trigger: string;
  startedAt: number;
  finishedAt: number;
  result: string;
  sizeBytes: number | null;
  error: string | null;
}): BackupRecord => ({
  ...r,
  trigger: r.trigger === "scheduled" ? "scheduled" : "manual",
  result: r.result === "ok" ? "ok" : "failed",
  sizeBytes: r.sizeBytes === null ? null : Number(r.sizeBytes),
});

const COLUMNS = ["name", "trigger", "startedAt", "finishedAt", "result", "sizeBytes", "error"] as const;

/** The latest attempts, newest first. */
export async function latestBackups(db: DB, limit: number): Promise<BackupRecord[]> {
  const rows = await db.selectFrom("backups").select(COLUMNS).orderBy("finishedAt", "desc").limit(limit).execute();
  return rows.map(toRecord);
}

/** The newest backup of this result, or null. */
export async function lastBackupWith(db: DB, result: "ok" | "failed"): Promise<BackupRecord | null> {
  const row = await db
    .selectFrom("backups")
    .select(COLUMNS)
    .where("result", "=", result)
    .orderBy("finishedAt", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** Forgets attempts that finished before `before` (the log would only grow). */
export async function deleteBackupsLoggedBefore(db: DB, before: number): Promise<number> {
  const r = await db.deleteFrom("backups").where("finishedAt", "<", before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
