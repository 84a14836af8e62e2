/**
 * Issue 2 (foundation) in both languages: consent overlay with and without JavaScript,
 * header and footer, the language switch (in place, persisted, smooth scroll to the
 * top, and as a plain link), the phone-sized navbar toggler, and 'Page not found'.
 */
import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  test,
  waitForHydration,
  waitForPageReady,
  waitForPageScript,
  englishOnly,
} from "./fixtures";

const LANGS = {
  en: {
    locale: "en-US",
    accept: "Accept our cookies to continue",
    consentLanguage: "show the site in English",
    consentThirdParty: "third-party cookies",
    nav: { support: "Support", companies: "Companies", contact: "Contact us", signIn: "Sign in" },
    footerHeadings: ["Information", "Contact us", "Language"],
    footerLinks: [
      ["Cookie policy", "/cookies"],
      ["Terms and conditions", "/terms"],
      ["Contact us", "/contact"],
      ["For companies", "/companies"],
      ["Want to help?", "/support#help"],
    ],
    toggler: "Toggle navigation",
    selfLink: "English",
    notFound: "Page not found",
    other: { lang: "sv", link: "Svenska", signIn: "Logga in", backLink: "English" },
  },
  sv: {
    locale: "sv-SE",
    accept: "Acceptera våra cookies för att fortsätta",
    consentLanguage: "visar sidan på svenska",
    consentThirdParty: "tredjepartscookies",
    nav: { support: "Support", companies: "Företag", contact: "Kontakta oss", signIn: "Logga in" },
    footerHeadings: ["Information", "Kontakta oss", "Språk"],
    footerLinks: [
      ["Cookiepolicy", "/cookies"],
      ["Villkor", "/terms"],
      ["Kontakta oss", "/contact"],
      ["För företag", "/companies"],
      ["Vill du hjälpa till?", "/support#help"],
    ],
    toggler: "Visa eller dölj menyn",
    selfLink: "Svenska",
    notFound: "Sidan hittades inte",
    other: { lang: "en", link: "English", signIn: "Sign in", backLink: "Svenska" },
  },
} as const;

/** Records window.scrollTo calls so a test can see the smooth scroll being asked for. */
async function recordScrolls(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { scrolls: unknown[]; marker: number };
    w.scrolls = [];
    w.marker = 42;
    const original = window.scrollTo.bind(window);
    window.scrollTo = ((...args: unknown[]) => {
      w.scrolls.push(args[0]);
      return (original as (...a: unknown[]) => void)(...args);
    }) as typeof window.scrollTo;
  });
}

for (const [lang, L] of Object.entries(LANGS)) {
  test.describe(`in ${lang === "en" ? "English" : "Swedish"}`, () => {
    test.use({ locale: L.locale });

    test("the consent overlay is an announced dialog that blocks the page until accepted", async ({
      page,
      context,
    }) => {
      await page.goto("/");
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      const dialog = page.getByRole("dialog", { name: "Cookies" });
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAttribute("aria-modal", "true");
      await expect(dialog).toHaveAccessibleDescription(new RegExp(L.consentLanguage));
      await expect(dialog).toContainText(L.consentThirdParty);
      // The page behind is inert: not clickable, not focusable, hidden from screen readers.
      await expect(page.locator(".site")).toHaveAttribute("inert", "");
      await expectAccessible(page);
      // `/` is a lean page for visitors (decision 020): its page script keeps the focus in.
      await waitForPageReady(page);
      const accept = page.getByRole("button", { name: L.accept });
      await expect(accept).toBeFocused();
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press(i % 2 ? "Shift+Tab" : "Tab");
        await page.keyboard.press("Tab");
        expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      }
      await accept.click();
      await expect(dialog).toBeHidden();
      await expect(page.locator(".site")).not.toHaveAttribute("inert");
      const cookie = (await context.cookies()).find((c) => c.name === "ConsentApproved");
      expect(cookie?.sameSite).toBe("Lax");
      expect(cookie?.path).toBe("/");
      expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
      await page.reload();
      await expect(page.getByRole("dialog")).toHaveCount(0);
    });

    englishOnly(lang)(
      "consent works without JavaScript: a form post that comes back to the page",
      async ({ browser, app }) => {
        const context = await browser.newContext({
          javaScriptEnabled: false,
          locale: L.locale,
          baseURL: app.server.url,
        });
        const page = await context.newPage();
        await page.goto("/no-such-page?x=1");
        await page.getByRole("button", { name: L.accept }).click();
        await expect(page).toHaveURL(/\/no-such-page\?x=1$/);
        await expect(page.getByRole("dialog")).toHaveCount(0);
        expect((await context.cookies()).some((c) => c.name === "ConsentApproved")).toBe(true);
        await context.close();
      },
    );

    test("every page has the header and footer of the spec", async ({ page, consent }) => {
      void consent;
      await page.goto("/");
      const header = page.getByRole("banner");
      await expect(header.getByRole("link", { name: "Hittad" })).toHaveAttribute("href", "/");
      await expect(header.getByRole("link", { name: L.nav.support })).toHaveAttribute("href", "/support");
      await expect(header.getByRole("link", { name: L.nav.companies })).toHaveAttribute("href", "/companies");
      await expect(header.getByRole("link", { name: L.nav.contact })).toHaveAttribute("href", "/contact");
      await expect(header.getByRole("link", { name: L.nav.signIn })).toHaveAttribute("href", "/login");
      const footer = page.getByRole("contentinfo");
      for (const h of L.footerHeadings) await expect(footer.getByRole("heading", { name: h })).toBeVisible();
      for (const [name, href] of L.footerLinks) {
        await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
      }
      await expect(footer.getByRole("link", { name: L.selfLink })).toBeVisible();
      await expect(footer.getByRole("link", { name: L.other.link })).toBeVisible();
      await expect(footer).toContainText("© 2022 Hittad");
      await expectAccessible(page);
    });

    test("the footer switch changes the language in place, scrolls smoothly to the top and is kept", async ({
      page,
      consent,
    }) => {
      void consent;
      await page.setViewportSize({ width: 1000, height: 320 });
      // A page of the full app for visitors (every page they read or fill in is lean,
      // decisions 020 and 042: see the next test); an expired reset link's page is not.
      await page.goto("/resetpassword/new?token=not-a-token");
      await waitForHydration(page);
      await recordScrolls(page);
      const footer = page.getByRole("contentinfo");
      await footer.getByRole("link", { name: L.other.link }).scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await footer.getByRole("link", { name: L.other.link }).click();
      await expect(page.locator("html")).toHaveAttribute("lang", L.other.lang);
      await expect(page.getByRole("banner").getByRole("link", { name: L.other.signIn })).toBeVisible();
      await expect(footer.getByRole("link", { name: L.other.backLink })).toBeVisible();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      const w = await page.evaluate(() => {
        const { scrolls, marker } = window as unknown as { scrolls: unknown[]; marker?: number };
        return { scrolls, marker };
      });
      expect(w.scrolls).toContainEqual({ top: 0, behavior: "smooth" });
      // Same document (no reload) and same page.
      expect(w.marker).toBe(42);
      expect(new URL(page.url()).pathname).toBe("/resetpassword/new");
      await expectAccessible(page);
      await page.reload();
      await expect(page.locator("html")).toHaveAttribute("lang", L.other.lang);
    });

    test("on a lean page the footer switch scrolls smoothly to the top, then shows the page in the other language", async ({
      page,
      consent,
    }) => {
      void consent;
      await page.setViewportSize({ width: 1000, height: 320 });
      await page.goto("/");
      await waitForPageScript(page);
      await recordScrolls(page);
      const footer = page.getByRole("contentinfo");
      await footer.getByRole("link", { name: L.other.link }).scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await footer.getByRole("link", { name: L.other.link }).click();
      // The smooth scroll comes first, 400 ms before the link is followed.
      await page.waitForFunction(() => {
        const scrolls = (window as unknown as { scrolls: Array<{ top: number; behavior: string }> }).scrolls;
        return scrolls.length === 1 && scrolls[0]!.top === 0 && scrolls[0]!.behavior === "smooth";
      });
      await expect(page.locator("html")).toHaveAttribute("lang", L.other.lang);
      await expect(page.getByRole("banner").getByRole("link", { name: L.other.signIn })).toBeVisible();
      expect(new URL(page.url()).pathname).toBe("/");
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    });

    englishOnly(lang)("the language links work without JavaScript and keep the page", async ({ browser, app }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, locale: L.locale, baseURL: app.server.url });
      await context.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
      const page = await context.newPage();
      await page.goto("/no-such-page");
      await page.getByRole("contentinfo").getByRole("link", { name: L.other.link }).click();
      await expect(page).toHaveURL(/\/no-such-page$/);
      await expect(page.locator("html")).toHaveAttribute("lang", L.other.lang);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        LANGS[L.other.lang as keyof typeof LANGS].notFound,
      );
      await context.close();
    });

    englishOnly(lang)("on a phone the navigation collapses behind a working toggler", async ({ page, consent }) => {
      void consent;
      await page.setViewportSize({ width: 375, height: 667 });
      await page.goto("/");
      await waitForPageReady(page);
      const support = page.getByRole("banner").getByRole("link", { name: L.nav.support });
      await expect(support).toBeHidden();
      const toggler = page.getByRole("button", { name: L.toggler });
      await expect(toggler).toHaveAttribute("aria-expanded", "false");
      await toggler.click();
      await expect(toggler).toHaveAttribute("aria-expanded", "true");
      await expect(support).toBeVisible();
      await expect(page.getByRole("banner").getByRole("link", { name: L.nav.signIn })).toBeVisible();
      await expectAccessible(page);
      await toggler.click();
      await expect(support).toBeHidden();
    });

    englishOnly(lang)(
      "unknown paths show 'Page not found' with the three hints and HTTP 404",
      async ({ page, consent }) => {
        void consent;
        const res = await page.goto("/no/such-page");
        expect(res?.status()).toBe(404);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(L.notFound);
        await expect(page.getByRole("main").getByRole("listitem")).toHaveCount(3);
        await expectAccessible(page);
      },
    );
  });
}

const MENU = {
  en: {
    locale: "en-US",
    toggle: "Account menu",
    loggedInAs: "Logged in as",
    links: [
      ["Dashboard", "/dashboard"],
      ["Register item", "/product/register"],
      ["My adress", "/user/register-adress"],
      ["Activate products", "/order"],
    ],
    logout: "Log out",
  },
  sv: {
    locale: "sv-SE",
    toggle: "Kontomeny",
    loggedInAs: "Inloggad som",
    links: [
      ["Min sida", "/dashboard"],
      ["Registrera sak", "/product/register"],
      ["Min adress", "/user/register-adress"],
      ["Aktivera saker", "/order"],
    ],
    logout: "Logga ut",
  },
} as const;

for (const [lang, M] of Object.entries(MENU)) {
  test.describe(`signed in, ${lang === "en" ? "English" : "Swedish"}`, () => {
    test.use({ locale: M.locale });

    englishOnly(lang)("a signed-in user gets the user dropdown instead of Sign in", async ({ page, consent, user }) => {
      void consent;
      await page.goto("/");
      const header = page.getByRole("banner");
      await expect(header.getByRole("link", { name: lang === "en" ? "Sign in" : "Logga in" })).toHaveCount(0);
      await waitForHydration(page);
      const toggle = header.getByRole("button", { name: M.toggle });
      // No photo from a provider: the default avatar, drawn in the page (no image to fetch).
      await expect(toggle.locator("svg.default-avatar")).toBeVisible();
      await expect(toggle.locator("img")).toHaveCount(0);
      await toggle.click();
      const menu = header.locator(".dropdown-menu");
      await expect(menu).toContainText(M.loggedInAs);
      await expect(menu).toContainText(user.name);
      await expect(menu).toContainText(user.email);
      for (const [name, href] of M.links) await expect(menu.getByRole("link", { name })).toHaveAttribute("href", href);
      await expect(menu.getByRole("button", { name: M.logout })).toBeVisible();
      await expectAccessible(page);
    });
  });
}
