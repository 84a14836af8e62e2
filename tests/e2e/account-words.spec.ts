/**
 * The account page's words (decision 057), in both languages at 390 and 1280 px: a
 * session signed in through the form is named by its browser and system (Chrome on Windows
 * here, as Playwright's desktop Chrome announces itself), not "Unknown device", and "Download my data" says what it sends in each case (a
 * JSON file, or a ZIP with the photos).
 */
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
    data: "a ZIP file holding that JSON file and the photos",
  },
  sv: {
    locale: "sv-SE",
    email: "E-post",
    password: "Lösenord",
    signIn: "Logga in",
    sessionsTitle: "Där du är inloggad",
    session: /^Dator: Chrome på Windows$/,
    data: "en ZIP-fil med JSON-filen och fotona",
  },
} as const;

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
      if (process.env.SCREENSHOTS)
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await sessions.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `/tmp/shots-ux-words/account-sessions-${lang}-${width}.png` });
        }
    });
  });
}
