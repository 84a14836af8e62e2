import { describe, expect, it } from "vitest";
import { backupName } from "./manifest.server";
import { backupsToDelete } from "./retention.server";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Monday 2026-11-30, 12:00 UTC.
const NOW = Date.UTC(2026, 10, 30, 12);

describe("backup retention", () => {
  it("keeps every backup of the last day, the newest of each of the last 7 days and of 4 weeks, and deletes the rest", () => {
    // Every 6 hours for 60 days.
    const names = Array.from({ length: 60 * 4 }, (_, i) => backupName(NOW - i * 6 * HOUR));
    const gone = new Set(backupsToDelete(names, NOW));
    const kept = names.filter((n) => !gone.has(n));
    expect(kept).toEqual([
      // The last 24 hours: every one (the one of 18:00 yesterday is also that day's newest).
      ...[0, 6, 12, 18].map((h) => backupName(NOW - h * HOUR)),
      // Daily: the newest (18:00) of each of the five days before yesterday.
      ...[2, 3, 4, 5, 6].map((d) => backupName(NOW - d * DAY + 6 * HOUR)),
      // Weekly: this week's and last week's newest are kept already (today, and Sunday
      // 2026-11-29 18:00); then the Sundays 18:00 of the two weeks before.
      backupName(NOW - 8 * DAY + 6 * HOUR),
      backupName(NOW - 15 * DAY + 6 * HOUR),
    ]);
  });

  it("never deletes the newest backup, nor a folder that is not a backup", () => {
    const names = [backupName(NOW - 400 * DAY), "notes.txt", "hittad-important", backupName(NOW - 2 * HOUR)];
    expect(backupsToDelete(names, NOW)).toEqual([]);
  });

  it("deletes a backup cut short more than a day ago, not one that may still be written", () => {
    const old = `${backupName(NOW - 2 * DAY)}.partial`;
    const running = `${backupName(NOW - HOUR)}.partial`;
    expect(backupsToDelete([old, running], NOW)).toEqual([old]);
  });
});
