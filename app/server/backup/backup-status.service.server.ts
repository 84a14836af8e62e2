/** What staff see at /admin/backups (decision 048): the schedule and the latest attempts. */
import type { Deps } from "../service-deps.server";
import { lastBackupWith, latestBackups, type BackupRecord } from "./backups.repository.server";

export interface BackupStatus {
  /** BACKUP_EVERY in whole hours, or else minutes (null: no scheduled backups). */
  every: { unit: "hours" | "minutes"; count: number } | null;
  encrypted: boolean;
  lastGood: BackupRecord | null;
  latest: BackupRecord[];
}

export async function getBackupStatus(deps: Pick<Deps, "db" | "config">): Promise<BackupStatus> {
  const { everyMs, passphrase } = deps.config.operations.backups;
  return {
    every: !everyMs
      ? null
      : everyMs % 3_600_000 === 0
        ? { unit: "hours", count: everyMs / 3_600_000 }
        : { unit: "minutes", count: Math.round(everyMs / 60_000) },
    encrypted: !!passphrase,
    lastGood: await lastBackupWith(deps.db, "ok"),
    latest: await latestBackups(deps.db, 10),
  };
}
