/** Operating the service (decision 048, migration 0053). */

/** One finished backup attempt, scheduled or by `npm run backup`. */
export interface BackupTable {
  id: string;
  /** The backup's folder name under BACKUP_DIR, e.g. hittad-2026-11-28T06-00-00Z. */
  name: string;
  /** "manual" (npm run backup) or "scheduled" (BACKUP_EVERY). */
  trigger: string;
  startedAt: number;
  finishedAt: number;
  /** "ok" or "failed". */
  result: string;
  /** The backup's size on disk (ok only). */
  sizeBytes: number | null;
  /** Why it failed, for staff (no personal data: a file, a table, a tool's message). */
  error: string | null;
}
