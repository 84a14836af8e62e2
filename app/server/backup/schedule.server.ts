/**
 * Scheduled backups (decision 048): with BACKUP_EVERY every instance looks every few
 * minutes whether one is due — the last good backup, made by any instance, is older than
 * the interval — and the one that holds the backup job's lock makes it, then applies the
 * retention rule to BACKUP_DIR and forgets log rows older than 90 days. A failed attempt is tried again after a quarter of an hour.
 */
import type { Config } from "../config.server";
import type { Dialect } from "../db/db.server";
import { withJobLock } from "../jobs/jobs.repository.server";
import { logger } from "../logger.server";
import { measureJob } from "../metrics/metrics.server";
import type { Deps } from "../service-deps.server";
import { makeBackup, type BackupResult, type BackupSource } from "./backup.service.server";
import { deleteBackupsLoggedBefore, lastBackupWith } from "./backups.repository.server";
import { pruneBackups } from "./retention.server";

/** Our advisory-lock key for scheduled backups ("hittad-backup", any stable bigint). */
const BACKUP_LOCK = 7_428_115_002;
/** How often each instance looks whether a backup is due. */
export const CHECK_MS = 5 * 60_000;
const RETRY_AFTER_FAILURE_MS = 15 * 60_000;
/** How long the log of attempts is kept (longer than any backup the retention keeps). */
export const LOG_RETENTION_MS = 90 * 86_400_000;

export const backupSourceOf = (config: Config): BackupSource => ({
  database: config.database,
  dataDir: config.dataDir,
  backups: config.operations.backups,
  photos: config.photos,
});

export type DueBackup = BackupResult | "not-due" | "locked";

/** One look: a backup if one is due and this instance holds the lock. */
export async function runDueBackup(deps: Pick<Deps, "db" | "config" | "clock">, dialect: Dialect): Promise<DueBackup> {
  const every = deps.config.operations.backups.everyMs;
  if (!every) return "not-due";
  const done = await withJobLock(deps.db, dialect, BACKUP_LOCK, async (db) => {
    const now = deps.clock();
    const good = await lastBackupWith(db, "ok");
    const failed = await lastBackupWith(db, "failed");
    // Half a look early rather than a look late: 6h stays 6h, not 6h05.
    if (good && now - good.startedAt < every - CHECK_MS / 2) return "not-due" as const;
    if (failed && (!good || failed.finishedAt > good.finishedAt) && now - failed.finishedAt < RETRY_AFTER_FAILURE_MS) {
      return "not-due" as const;
    }
    const made = await measureJob("backup", () =>
      makeBackup(backupSourceOf(deps.config), { clock: deps.clock, trigger: "scheduled", log: db }),
    );
    const pruned = pruneBackups(deps.config.operations.backups.dir, deps.clock());
    await deleteBackupsLoggedBefore(db, deps.clock() - LOG_RETENTION_MS);
    logger.info({ job: "backup", backup: made.name, bytes: made.sizeBytes, pruned: pruned.length }, "backup made");
    return made;
  });
  return done ?? "locked";
}

export interface ScheduledBackups {
  stop(): void;
}

/**
 * Starts the looks (the first after JOBS_FIRST_RUN_MS). A backup under way when the server
 * stops is left as `.partial` and deleted by a later run's retention.
 */
export function startScheduledBackups(deps: Pick<Deps, "db" | "config" | "clock">, dialect: Dialect): ScheduledBackups {
  if (!deps.config.operations.backups.everyMs) return { stop() {} };
  let running = false;
  const look = () => {
    if (running) return;
    running = true;
    runDueBackup(deps, dialect)
      .catch((err: unknown) => {
        logger.error({ job: "backup", err: err instanceof Error ? err.message : String(err) }, "backup failed");
      })
      .finally(() => (running = false));
  };
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    look();
    interval = setInterval(look, CHECK_MS);
    interval.unref();
  }, deps.config.jobsFirstRunMs);
  first.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(interval);
    },
  };
}
