/** What staff see at /admin/backups (decision 048): the schedule and the latest attempts. */
import type { Deps } from "../service-deps.server";
import { lastBackupWith, latestBackups, type BackupRecord } from "./backups.repository.server";

export interface BackupStatus {
  /** BACKUP_EVERY in hours (null: no scheduled backups). */
  everyHours: number | null;
  encrypted: boolean;
  lastGood: BackupRecord | null;
  latest: BackupRecord[];
}

export async function getBackupStatus(deps: Pick<Deps, "db" | "config">): Promise<BackupStatus> {
  const { everyMs, passphrase } = deps.config.operations.backups;
  return {
    everyHours: everyMs ? Math.round((everyMs / 3_600_000) * 100) / 100 : null,
    encrypted: !!passphrase,
    lastGood: await lastBackupWith(deps.db, "ok"),
    latest: await latestBackups(deps.db, 10),
  };
}
