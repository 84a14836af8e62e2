/**
 * The alert settings' row for a paid year's end (decision 056, 2026-11-29), in both
 * languages at 390 and 1280 px: its mail is shown ticked and cannot be unticked, SMS and
 * push are off until the owner ticks them, and what they tick is kept (the mail with it).
 */
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";

const L = {
  en: {
    locale: "en-US",
    row: "A year you paid for ends soon or has ended",
    email: "Email",
    sms: "SMS",
    push: "Push",
    save: "Save alert settings",
    saved: "Your alert settings are saved.",
    always: /we always email you 30 and 7 days before it ends/,
  },
  sv: {
    locale: "sv-SE",
    row: "Ett år du har betalat för tar snart slut eller har tagit slut",
    email: "Mejl",
    sms: "Sms",
    push: "Push",
    save: "Spara aviseringar",
    saved: "Dina aviseringar är sparade.",
    always: /vi mejlar dig alltid 30 och 7 dagar innan det tar slut/,
  },
} as const;

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`the paid year's alert row (${lang})`, () => {
    test.use({ locale: s.locale });

    test("its mail is always on; SMS and push are off until ticked, and kept once saved", async ({
      page,
      app,
      context,
      consent,
    }) => {
      void consent;
      const owner = await createUser(app.runtime, { language: lang });
      await context.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);
      await page.goto("/account/alerts");
      await waitForHydration(page);
      const box = (channel: string) => page.getByRole("checkbox", { name: `${s.row}: ${channel}`, exact: true });
      await expect(page.getByRole("rowheader", { name: s.row })).toBeVisible();
      await expect(box(s.email)).toBeChecked();
      await expect(box(s.email)).toBeDisabled();
      await expect(box(s.sms)).not.toBeChecked();
      await expect(box(s.push)).not.toBeChecked();
      await expect(page.getByText(s.always)).toBeVisible();
      await expectAccessible(page);
      await atPhoneAndDesk(page, `renewal-alert-${lang}`);
      if (process.env.SCREENSHOTS)
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.locator("section[aria-labelledby='alerts-settings-title']").screenshot({
            path: `test-results/screens/renewal-alert-settings-${lang}-${width}.png`,
          });
        }

      await box(s.sms).check();
      await box(s.push).check();
      await page.getByRole("button", { name: s.save }).click();
      await expect(page.getByRole("status")).toHaveText(s.saved);
      await expect(box(s.sms)).toBeChecked();
      await expect(box(s.push)).toBeChecked();
      await expect(box(s.email)).toBeChecked();
    });
  });
}
