/**
 * Which backups to keep (decision 048): every one of the last 24 hours (BACKUP_EVERY=6h
 * keeps its four), the newest of each of the last 7 days that have a backup, and the newest
 * of each of the last 4 weeks (ISO weeks, Monday first, UTC), as restic's
 * `--keep-within 24h --keep-daily 7 --keep-weekly 4`. Everything else in BACKUP_DIR named
 * like a backup goes, and so does a `.partial` folder a day old (a backup cut short by a crash).
 */
import fs from "node:fs";
import path from "node:path";
import { PARTIAL, timeOfBackupName } from "./manifest.server";

export const KEEP_DAILY = 7;
export const KEEP_WEEKLY = 4;
const DAY = 86_400_000;

const dayOf = (t: number) => Math.floor(t / DAY);
/** Days since the epoch (a Thursday) shifted so weeks start on Monday. */
const weekOf = (t: number) => Math.floor((dayOf(t) + 3) / 7);

/** The names among `names` to delete; names that are not backups are never chosen. */
export function backupsToDelete(names: readonly string[], now: number): string[] {
  const backups = names
    .map((name) => ({ name, at: timeOfBackupName(name) }))
    .filter((b): b is { name: string; at: number } => b.at !== undefined)
    .sort((a, b) => b.at - a.at || b.name.localeCompare(a.name));
  const keep = new Set<string>();
  const newestPer = (bucket: (t: number) => number, count: number) => {
    const seen = new Set<number>();
    for (const b of backups) {
      const key = bucket(b.at);
      if (seen.has(key)) continue;
      if (seen.size === count) break;
      seen.add(key);
      keep.add(b.name);
    }
  };
  for (const b of backups) if (now - b.at < DAY) keep.add(b.name);
  newestPer(dayOf, KEEP_DAILY);
  newestPer(weekOf, KEEP_WEEKLY);
  const stale = names.filter((n) => {
    if (!n.endsWith(PARTIAL)) return false;
    const at = timeOfBackupName(n.slice(0, -PARTIAL.length));
    return at !== undefined && now - at > DAY;
  });
  return [...backups.filter((b) => !keep.has(b.name)).map((b) => b.name), ...stale];
}

/** Applies the rule to BACKUP_DIR; answers the names deleted. */
export function pruneBackups(dir: string, now: number): string[] {
  if (!fs.existsSync(dir)) return [];
  const gone = backupsToDelete(fs.readdirSync(dir), now);
  for (const name of gone) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  return gone;
}
