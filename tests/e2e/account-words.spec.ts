/**
 * The account page's words (decision 057), in both languages at 390 and 1280 px: a
 * session signed in through the form is named by its browser and system (Chrome on Windows
 * here, as Playwright's desktop Chrome announces itself), not "Unknown device", and "Download my data" says what it sends in each case (a
 * JSON file, or a ZIP with the photos).
 */
import type { Locator, Page } from "@playwright/test";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration, waitForPageReady } from "./fixtures";

const L = {
  en: {
    locale: "en-US",
    email: "Email",
    password: "Password",
    signIn: "Sign in",
    sessionsTitle: "Where you are signed in",
    // Playwright's desktop Chrome says Windows in its User-Agent.
    session: /^Computer: Chrome on Windows$/,
    thisDevice: "This device",
    data: "a ZIP file holding that JSON file and the photos",
  },
  sv: {
    locale: "sv-SE",
    email: "E-post",
    password: "Lösenord",
    signIn: "Logga in",
    sessionsTitle: "Där du är inloggad",
    session: /^Dator: Chrome på Windows$/,
    thisDevice: "Den här enheten",
    data: "en ZIP-fil med JSON-filen och fotona",
  },
} as const;

/**
 * "This device" beside the session's name, or at the start of the next line when the name
 * fills the line: never wrapped with an indent (decision 057), at 390 and 1280 px.
 */
async function expectBadgeNotIndented(page: Page, sessions: Locator, badgeText: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    const row = sessions.getByTestId("session-name").filter({ hasText: badgeText });
    const name = (await row.locator("strong").boundingBox())!;
    const badge = (await row.getByText(badgeText, { exact: true }).boundingBox())!;
    const sameLine = Math.abs(badge.y + badge.height / 2 - (name.y + name.height / 2)) < name.height / 2;
    if (sameLine) expect(badge.x, `badge after the name at ${width} px`).toBeGreaterThan(name.x + name.width);
    else expect(Math.abs(badge.x - name.x), `wrapped badge at the line's start at ${width} px`).toBeLessThan(1);
    expect(badge.x + badge.width, `badge inside the screen at ${width} px`).toBeLessThanOrEqual(width);
  }
}

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`account words (${lang})`, () => {
    test.use({ locale: s.locale });
    test.describe.configure({ timeout: 90_000 });

    test("a session signed in through the form is named by browser and system; the export says ZIP or JSON", async ({
      page,
      app,
      consent,
    }) => {
      void consent;
      const user = await createUser(app.runtime, { language: lang });
      await page.goto("/login");
      await waitForPageReady(page);
      await page.getByLabel(s.email).fill(user.email);
      await page.getByLabel(s.password, { exact: true }).fill(user.password);
      await page.getByRole("button", { name: s.signIn, exact: true }).click();
      await page.waitForURL(/\/dashboard/);
      await page.goto("/account");
      await waitForHydration(page);
      const sessions = page.getByRole("region", { name: s.sessionsTitle });
      await expect(sessions.getByText(s.session)).toBeVisible();
      await expect(page.getByText(s.data)).toBeVisible();
      await expectAccessible(page);
      await atPhoneAndDesk(page, `account-words-${lang}`);
      await expectBadgeNotIndented(page, sessions, s.thisDevice);
      if (process.env.SCREENSHOTS)
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await sessions.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `/tmp/shots-ux-words/account-sessions-${lang}-${width}.png` });
        }
    });

    test("an unverified user's session list: the badge never wraps with an indent", async ({
      page,
      app,
      context,
      consent,
    }) => {
      void consent;
      const user = await createUser(app.runtime, { language: lang, verified: false });
      await context.addCookies([{ ...user.sessionCookie, url: app.server.url }]);
      await page.goto("/account");
      await waitForHydration(page);
      const sessions = page.getByRole("region", { name: s.sessionsTitle });
      await expectBadgeNotIndented(page, sessions, s.thisDevice);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `account-unverified-${lang}`);
    });
  });
}
