/**
 * Claim mode (decision 036) in both languages: an organisation's admin opens it from the
 * organisation's page and claims two printed stickers in a row the way a scanner gun
 * types them (the code, then Enter), the second assigned to a member; after each claim the
 * field is empty and focused again and the run lists the new items. A wrong code gets the
 * one answer and stays selected for the next scan. Axe; screenshots with SCREENSHOTS=1.
 */
import { formatStickerCode } from "../../app/lib/domain/sticker-code";
import { insertMember } from "../../app/server/organisations/organisations.repository.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { createBatch, getBatch, voidSticker } from "../../app/server/stickers/stickers.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";
import { uniqueOrgNumber } from "../support/org-numbers";

const TEXT = {
  en: {
    locale: "en-US",
    open: "Open claim mode",
    title: (org: string) => `Claim stickers for ${org}`,
    code: "Sticker code",
    assign: "Assigned to",
    claim: "Claim",
    claimed: (code: string) => `${code} claimed as “Sticker ${code}”`,
    run: "Claimed in this run: 2",
    notClaimable: "That code does not match a sticker that can be registered.",
    file: "Batch file (CSV)",
    check: "Check the file",
    claimable: "2 stickers in the file can be claimed.",
    voided: "Voided",
    confirm: "Claim 2 stickers",
    done: "2 stickers claimed into the organisation.",
  },
  sv: {
    locale: "sv-SE",
    open: "Öppna registreringsläget",
    title: (org: string) => `Registrera klistermärken för ${org}`,
    code: "Klistermärkets kod",
    assign: "Tilldelad",
    claim: "Registrera",
    claimed: (code: string) => `${code} registrerat som ”Klistermärke ${code}”`,
    run: "Registrerade den här gången: 2",
    notClaimable: "Koden stämmer inte med något klistermärke som kan registreras.",
    file: "Fil med klistermärken (CSV)",
    check: "Kontrollera filen",
    claimable: "2 klistermärken i filen kan registreras.",
    voided: "Spärrat",
    confirm: "Registrera 2 klistermärken",
    done: "2 klistermärken registrerade i organisationen.",
  },
} as const;

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];
  test.describe(`claim mode (${lang})`, () => {
    test.use({ locale: T.locale });

    test("an organisation's admin claims two codes in a row, the form ready for the next each time", async ({
      app,
      context,
      page,
      consent,
    }) => {
      void consent;
      const deps = depsOf(app.runtime);
      const admin = await createUser(app.runtime, { name: "Ada Admin", language: lang });
      const member = await createUser(app.runtime, { name: "Max Member", language: lang });
      const orgName = `Drawer AB ${lang}`;
      const org = await createOrganisation(deps, admin.id, {
        name: orgName,
        orgNumber: uniqueOrgNumber(),
        billingEmail: `billing-claim-${lang}@drawer.example`,
        invoiceStreet: "Storgatan 1",
        invoicePostcode: "903 26",
        invoiceCity: "Umeå",
        invoiceCountry: "SE",
        vatNumber: null,
        deskContact: "Reception",
      });
      await insertMember(deps.db, { organisationId: org, userId: member.id, role: "member", createdAt: Date.now() });
      const batchId = await createBatch(deps, admin.id, { size: 2, prepaidMonths: 12, label: "Drawer" });
      const [first, second] = (await getBatch(deps, batchId)).stickers.map((s) => formatStickerCode(s.code));
      await context.addCookies([{ ...admin.sessionCookie, url: app.server.url }]);

      await page.goto(`/organisations/${org}`);
      await waitForHydration(page);
      await page.getByRole("link", { name: T.open }).click();
      await expect(page.getByRole("heading", { level: 1, name: T.title(orgName) })).toBeVisible();
      const code = page.getByLabel(T.code);
      await expect(code).toBeFocused();

      // A scanner types the code and Enter; case, spaces and dashes do not matter.
      await code.pressSequentially(first!.toLowerCase().replace(/-/g, " "));
      await code.press("Enter");
      const status = page.locator(".claim-mode [role=status]");
      await expect(status).toContainText(T.claimed(first!));
      await expect(code).toHaveValue("");
      await expect(code).toBeFocused();

      // The next one for a member. A wrong scan first: the one answer, the code kept and
      // selected, so the next scan replaces it.
      await page.locator("#claim-mode-assignedTo").selectOption({ label: "Max Member" });
      await code.focus();
      await code.pressSequentially("ZZZ-ZZZ-ZZZ");
      await code.press("Enter");
      await expect(page.getByRole("alert")).toContainText(T.notClaimable);
      await expect(code).toBeFocused();
      expect(await code.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd])).toEqual([0, 11]);
      await expectAccessible(page);
      await code.pressSequentially(second!);
      await code.press("Enter");
      await expect(status).toContainText(T.claimed(second!));
      await expect(code).toHaveValue("");
      await expect(code).toBeFocused();
      await expect(page.getByRole("heading", { level: 2, name: T.run })).toBeVisible();
      const run = page.locator(".claim-mode-run li");
      await expect(run).toHaveCount(2);
      await expect(run.first()).toContainText(second!);
      // The member choice is kept for the next code.
      await expect(page.locator("#claim-mode-assignedTo")).toHaveValue(member.id);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `claim-mode-${lang}`);

      // The staff's file of a second batch, one sticker of it voided: checked, then claimed.
      const drawer = await createBatch(deps, admin.id, { size: 3, prepaidMonths: null, label: "Drawer 2" });
      const inFile = (await getBatch(deps, drawer)).stickers;
      await voidSticker(deps, drawer, inFile[0]!.id);
      const csv = [
        "id,code,url",
        ...inFile.map((s) => `${s.id},${formatStickerCode(s.code)},${app.server.url}${s.id}`),
      ];
      await page.getByLabel(T.file).setInputFiles({
        name: "hittad-batch-stickers.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(csv.join("\r\n")),
      });
      await page.getByRole("button", { name: T.check }).click();
      await expect(page.locator(".claim-file [role=status]")).toContainText(T.claimable);
      await expect(page.locator(".claim-file table")).toContainText(T.voided);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `claim-mode-file-${lang}`);
      await page.getByRole("button", { name: T.confirm }).click();
      await expect(page.locator(".claim-file .alert-success")).toContainText(T.done);

      const items = await deps.db
        .selectFrom("products")
        .select(["organisationId", "assignedTo", "payed"])
        .where("organisationId", "=", org)
        .orderBy("createdAt")
        .execute();
      expect(items).toEqual([
        { organisationId: org, assignedTo: admin.id, payed: 1 },
        { organisationId: org, assignedTo: member.id, payed: 1 },
        { organisationId: org, assignedTo: member.id, payed: 0 },
        { organisationId: org, assignedTo: member.id, payed: 0 },
      ]);
    });
  });
}
