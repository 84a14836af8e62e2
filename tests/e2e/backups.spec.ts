/**
 * Staff see the last backup at /admin/backups (decision 048): reached from the user menu,
 * the last attempt's time and result (a failure with its reason and the last good one),
 * the schedule and the latest attempts, in both languages. Axe; 390 and 1280 px wide.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { grantAdmin } from "../../app/server/admin/admin.repository.server";
import { makeBackup } from "../../app/server/backup/backup.service.server";
import { recordBackup } from "../../app/server/backup/backups.repository.server";
import { parseBackupToolConfig } from "../../app/server/config.server";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";

const TEXT = {
  en: {
    locale: "en-US",
    menu: "Backups",
    failed: "The last backup failed",
    lastGood: "Last good backup:",
    off: "No scheduled backups: set BACKUP_EVERY, e.g. 6h.",
    manual: "By hand",
    scheduled: "Scheduled",
  },
  sv: {
    locale: "sv-SE",
    menu: "Säkerhetskopior",
    failed: "Den senaste säkerhetskopieringen misslyckades",
    lastGood: "Senaste lyckade säkerhetskopia:",
    off: "Inga schemalagda säkerhetskopior: ange BACKUP_EVERY, till exempel 6h.",
    manual: "För hand",
    scheduled: "Schemalagd",
  },
} as const;

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];
  test.describe(`backups page (${lang})`, () => {
    test.use({ locale: T.locale });

    test("staff see when the last backup was made and how it went", async ({ app, page, context, consent }) => {
      void consent;
      const email = `backup-staff-${lang}-${Date.now()}@example.test`;
      await grantAdmin(app.runtime.database.db, email);
      const staff = await createUser(app.runtime, { name: "Backup Staff", email, language: lang });
      await context.addCookies([{ ...staff.sessionCookie, url: app.server.url }]);
      // A real backup of the worker's database, then a scheduled one that failed.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-e2e-backups-"));
      const made = await makeBackup(
        parseBackupToolConfig({ DATABASE_URL: app.env.DATABASE_URL, BACKUP_DIR: dir }, dir),
        { clock: Date.now, trigger: "manual", log: app.runtime.database.db },
      );
      fs.rmSync(dir, { recursive: true, force: true });
      await recordBackup(app.runtime.database.db, {
        name: "hittad-2026-11-29T06-00-00Z",
        trigger: "scheduled",
        startedAt: Date.now(),
        finishedAt: Date.now() + 1000,
        result: "failed",
        sizeBytes: null,
        error: "pg_dump failed (1): connection to server refused",
      });

      await page.goto("/dashboard");
      await waitForHydration(page);
      await page.locator("header .dropdown-toggle").first().click();
      await page.getByRole("link", { name: T.menu }).click();
      await expect(page.getByRole("heading", { level: 1, name: T.menu })).toBeVisible();
      const status = page.getByRole("status");
      await expect(status).toContainText(T.failed);
      await expect(status).toContainText("pg_dump failed (1): connection to server refused");
      await expect(status).toContainText(T.lastGood);
      await expect(page.getByText(T.off)).toBeVisible();
      const manual = page.locator("li.list-group-item", { hasText: made.name });
      await expect(manual).toContainText(T.manual);
      await expect(manual).toContainText("MB");
      await expect(page.locator("li.list-group-item").first()).toContainText(T.scheduled);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `admin-backups-${lang}`);
    });
  });
}
