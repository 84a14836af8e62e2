/**
 * Scan log, scan alerts and lost mode in a real browser, both languages (decision 014): the owner marks an item lost
 * and found again from the dashboard and
 * the item page (plain forms), a finder's phone without JavaScript sees the banner come and
 * go, the owner's view lists the finder's scan, and an opted-in item mails its owner
 * through the real SMTP stand-in (once an hour is the service and integration tests' rule).
 * Screenshots at 390 and 1280 px go to test-results/scans/.
 */
import { formatStickerCode } from "../../app/lib/domain/sticker-code";
import { devices, type Browser, type Page } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { depsOf } from "../support/deps";
import { createUser, type TestUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration, type WorkerApp, walkIn } from "./fixtures";

const TEXT = {
  en: {
    locale: "en-US",
    markLost: "Mark as lost",
    markLostLabel: (name: string) => `Mark as lost: ${name}`,
    found: "Found it",
    foundLabel: (name: string) => `Found it: end lost mode for ${name}`,
    banner: "This item is lost",
    reward: "The owner offers a reward of €150 to the finder.",
    lostBadge: "Lost",
    scansTitle: "Recent scans",
    phone: "Phone",
    language: "English",
    noScans: "Nobody else has opened this page yet.",
    lastScanned: /Last scanned \d+ \w+ \d{4}, \d\d:\d\d/,
    alertsBox: "Email me when the sticker is scanned",
    update: "Update info",
    subject: (name: string) => `Your item “${name}” was scanned`,
    notPaid: "This item is not paid.",
    handIn: "Contact us about this item",
  },
  sv: {
    locale: "sv-SE",
    markLost: "Markera som borttappad",
    markLostLabel: (name: string) => `Markera som borttappad: ${name}`,
    found: "Hittad igen",
    foundLabel: (name: string) => `Hittad igen: avsluta borttappat läge för ${name}`,
    banner: "Den här saken är borttappad",
    reward: "Ägaren betalar 150 kr i hittelön till den som lämnar tillbaka den.",
    lostBadge: "Borttappad",
    scansTitle: "Senaste skanningar",
    phone: "Mobil",
    language: "svenska",
    noScans: "Ingen annan har öppnat sidan än.",
    lastScanned: /Senast skannad \d+ \w+ \d{4} kl\. \d\d:\d\d/,
    alertsBox: "Mejla mig när klistermärket skannas",
    update: "Uppdatera uppgifterna",
    subject: (name: string) => `Din sak ”${name}” har skannats`,
    notPaid: "Den här saken är inte betald.",
    handIn: "Kontakta oss om saken",
  },
} as const;

async function seedPaidItem(app: WorkerApp, owner: string, lang: "en" | "sv", name: string) {
  const id = await createItem(
    depsOf(app.runtime),
    owner,
    { name, findFee: 150, prodType: "other", contactInfo: "Call 070-555 66 77", payment: "year", intent: "payLater" },
    lang,
  );
  await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

/** The owner, signed in, in the page's language (mails follow the account's language). */
async function signedInOwner(app: WorkerApp, page: Page, lang: "en" | "sv"): Promise<TestUser> {
  const owner = await createUser(app.runtime, { name: "Anna Svensson", language: lang });
  await page.context().addCookies([{ ...owner.sessionCookie, url: app.server.url }]);
  return owner;
}

/** A finder's phone: anonymous, JavaScript off (the finder page must work without it). */
async function finderPhone(browser: Browser, app: WorkerApp, locale: string, javaScriptEnabled = false) {
  const context = await browser.newContext({
    ...devices["Pixel 7"],
    javaScriptEnabled,
    locale,
    baseURL: app.server.url,
  });
  await context.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
  return context;
}

// Journeys of several pages with screenshots and axe: room on a shared 2-core machine.
test.describe.configure({ timeout: 120_000 });

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];

  test.describe(`scans and lost mode (${lang})`, () => {
    test.use({ locale: T.locale });

    walkIn("en", lang)(
      "lost mode on from the dashboard and off from the item page: the finder's banner comes and goes",
      async ({ app, page, browser, consent: _consent }) => {
        const owner = await signedInOwner(app, page, lang);
        const id = await seedPaidItem(app, owner.id, lang, `Red bike ${lang}`);
        const finder = await finderPhone(browser, app, T.locale);
        const phone = await finder.newPage();
        await phone.goto(`/${id}`);
        await expect(phone.getByText(T.banner)).toHaveCount(0);

        await page.goto("/dashboard");
        await waitForHydration(page);
        const card = page.locator("article", { hasText: `Red bike ${lang}` });
        await card.getByRole("button", { name: T.markLostLabel(`Red bike ${lang}`) }).click();
        await expect(page).toHaveURL(/\/dashboard$/);
        await expect(card.getByText(T.lostBadge, { exact: true })).toBeVisible();
        await expect(card.getByRole("button", { name: T.foundLabel(`Red bike ${lang}`) })).toBeVisible();
        await atPhoneAndDesk(page, `dashboard-lost-${lang}`);
        await expectAccessible(page);

        // The stored finder page changed at once (no waiting for the cache's version check).
        await phone.goto(`/${id}`);
        await expect(phone.locator(".lost-banner")).toContainText(T.banner);
        await expect(phone.locator(".lost-banner")).toContainText(T.reward);
        // The banner leads the page: before the item's name.
        const bannerTop = (await phone.locator(".lost-banner").boundingBox())!.y;
        const titleTop = (await phone.getByRole("heading", { level: 1 }).boundingBox())!.y;
        expect(bannerTop).toBeLessThan(titleTop);
        await atPhoneAndDesk(phone, `finder-lost-${lang}`);

        await page.goto(`/product/${id}`);
        await expect(page.locator(".lost-banner")).toBeVisible();
        await atPhoneAndDesk(page, `owner-item-lost-${lang}`);
        await expectAccessible(page);
        await page.getByRole("button", { name: T.found }).click();
        // The address bar may already show the short /{id} (the page rewrites it after 400 ms).
        await expect(page).toHaveURL(new RegExp(`/(product/)?${id}$`));
        await expect(page.locator(".lost-banner")).toHaveCount(0);
        await expect(page.getByRole("button", { name: T.markLost })).toBeVisible();

        await phone.goto(`/${id}`);
        await expect(phone.getByText(T.banner)).toHaveCount(0);
        await finder.close();
      },
    );

    walkIn("sv", lang)(
      "the owner's view lists the finder's scan; the dashboard card says when it was last scanned",
      async ({ app, page, browser, consent: _consent }) => {
        const owner = await signedInOwner(app, page, lang);
        const id = await seedPaidItem(app, owner.id, lang, `Green scarf ${lang}`);
        await page.goto(`/product/${id}`);
        await expect(page.getByRole("heading", { level: 2, name: T.scansTitle })).toBeVisible();
        await expect(page.getByText(T.noScans)).toBeVisible();

        const finder = await finderPhone(browser, app, T.locale);
        await (await finder.newPage()).goto(`/${id}`);
        await finder.close();

        // Written within a second; the owner's own views above and below are not scans.
        await expect(async () => {
          await page.reload();
          await expect(page.locator(".scan-list tbody tr")).toHaveCount(1, { timeout: 500 });
        }).toPass({ timeout: 10_000 });
        const row = page.locator(".scan-list tbody tr").first();
        await expect(row.locator("td").nth(1)).toHaveText(T.phone);
        await expect(row.locator("td").nth(2)).toHaveText(T.language);
        await atPhoneAndDesk(page, `owner-scans-${lang}`);
        await expectAccessible(page);

        await page.goto("/dashboard");
        await expect(page.locator("article", { hasText: `Green scarf ${lang}` })).toContainText(T.lastScanned);
      },
    );

    walkIn("sv", lang)(
      "scan alerts: ticked on the product form, a finder's scan mails the owner",
      async ({ app, page, browser, consent: _consent }) => {
        const owner = await signedInOwner(app, page, lang);
        const name = `Alert drone ${lang}`;
        const id = await seedPaidItem(app, owner.id, lang, name);
        await page.goto(`/product/edit/${id}`);
        await waitForHydration(page);
        const box = page.getByRole("checkbox", { name: T.alertsBox });
        await expect(box).not.toBeChecked();
        await box.check();
        await atPhoneAndDesk(page, `product-form-alerts-${lang}`);
        await page.getByRole("button", { name: T.update }).click();
        await expect(page).toHaveURL(/\/dashboard$/);
        await page.goto(`/product/edit/${id}`);
        await expect(page.getByRole("checkbox", { name: T.alertsBox })).toBeChecked();

        const finder = await finderPhone(browser, app, T.locale);
        const phone = await finder.newPage();
        await phone.goto(`/${id}`);
        const mail = await app.smtp.waitForMail(
          (m) => m.to.includes(owner.email) && m.subject === T.subject(name),
          15_000,
        );
        expect(mail.text).toContain(`/product/${id}`);
        // One mail an hour however often it is scanned is a rule, proven without a browser:
        // app/server/scans/scans.service.server.test.ts ("at most once per item per hour") and
        // tests/integration/scans.test.ts ("mails its owner once, however many scans arrive").
        await finder.close();
      },
    );

    walkIn("en", lang)(
      "an unpaid item's page tells the finder how to hand it in",
      async ({ app, browser, page, consent: _c }) => {
        const owner = await signedInOwner(app, page, lang);
        const id = await createItem(
          depsOf(app.runtime),
          owner.id,
          { name: "Unpaid hat", findFee: 10, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
          lang,
        );
        const finder = await finderPhone(browser, app, T.locale, true);
        const phone = await finder.newPage();
        await phone.goto(`/${id}`);
        await expect(phone.getByRole("heading", { level: 1, name: T.notPaid })).toBeVisible();
        await atPhoneAndDesk(phone, `finder-unpaid-${lang}`);
        await expectAccessible(phone);
        await phone.getByRole("link", { name: T.handIn }).click();
        // The printed sticker code, never the internal id.
        const { code: canonical } = await app.runtime.database.db
          .selectFrom("products")
          .select("code")
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        const code = formatStickerCode(canonical);
        await expect(phone).toHaveURL(new RegExp(`/contact\\?item=${code}$`));
        await expect(phone.locator("#contact-message")).toHaveValue(new RegExp(code));
        await finder.close();
      },
    );
  });
}
