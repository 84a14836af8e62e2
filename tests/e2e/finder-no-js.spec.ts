/**
 * The finder page without framework JavaScript (docs/decisions/020), one walk
 * per language: with JavaScript off everything on it works as plain HTML (content, consent,
 * the message form, the language switch); with it on, the page loads no script file, its
 * one inline script shortens the address bar and shares the position; and the owner's view
 * of the same URL is still the full, hydrated app.
 */
import type { Browser, Page } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import {
  expect,
  expectAccessible,
  test,
  waitForHydration,
  waitForPageScript,
  type WorkerApp,
  walkIn,
} from "./fixtures";

const L = {
  en: {
    locale: "en-GB",
    accept: "Accept our cookies to continue",
    message: "Your message",
    send: "Send message",
    sent: "Your message has been sent to the owner.",
    share: "Share my location",
    located: "Your position will be sent with the message.",
    other: { name: "Svenska", lang: "sv", send: "Skicka meddelande" },
  },
  sv: {
    locale: "sv-SE",
    accept: "Acceptera våra cookies för att fortsätta",
    message: "Ditt meddelande",
    send: "Skicka meddelande",
    sent: "Ditt meddelande har skickats till ägaren.",
    share: "Dela min position",
    located: "Din position skickas med meddelandet.",
    other: { name: "English", lang: "en", send: "Send message" },
  },
} as const;

async function paidItem(app: WorkerApp, ownerId: string, name: string) {
  const id = await createItem(
    depsOf(app.runtime),
    ownerId,
    { name, findFee: 50, prodType: "other", contactInfo: "Ring 070-1", payment: "year", intent: "payLater" },
    "en",
  );
  await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

/** Every script file the page requests (the inline page script is none). */
function scriptFiles(page: Page) {
  const files: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") files.push(new URL(r.url()).pathname);
  });
  return files;
}

async function phone(browser: Browser, app: WorkerApp, locale: string, javaScriptEnabled: boolean) {
  return browser.newContext({
    baseURL: app.server.url,
    locale,
    viewport: { width: 390, height: 844 },
    javaScriptEnabled,
    geolocation: { latitude: 59.3293, longitude: 18.0686 },
    permissions: javaScriptEnabled ? ["geolocation"] : [],
  });
}

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  walkIn("sv", lang)(
    `finder page (${lang}): works without JavaScript, needs no framework script with it, and the owner's view hydrates`,
    async ({ browser, app, page }) => {
      test.setTimeout(90_000);
      const owner = await createUser(app.runtime, { language: lang });
      const id = await paidItem(app, owner.id, `Green umbrella ${lang}`);

      // JavaScript off: consent, the message form and the language switch are plain HTML.
      const noJs = await phone(browser, app, s.locale, false);
      const finder = await noJs.newPage();
      const res = await finder.goto(`/product/${id}`);
      expect(res!.status()).toBe(200);
      await expect(finder.getByRole("heading", { level: 1, name: `Green umbrella ${lang}` })).toBeAttached();
      await finder.getByRole("button", { name: s.accept }).click();
      await expect(finder.getByRole("dialog")).toHaveCount(0);
      await expect(finder).toHaveURL(new RegExp(`/product/${id}$`));
      await finder.getByLabel(s.message).fill(`Found it by the door (${lang}, no script)`);
      await finder.getByRole("button", { name: s.send }).click();
      await expect(finder.getByRole("status")).toHaveText(s.sent);
      await expect(finder).toHaveURL(/\/m\/[A-Za-z0-9_-]{43}\?sent=1$/);
      await finder.goto(`/${id}`);
      await finder.getByRole("contentinfo").getByRole("link", { name: s.other.name }).click();
      await expect(finder).toHaveURL(new RegExp(`/${id}$`));
      await expect(finder.locator("html")).toHaveAttribute("lang", s.other.lang);
      await expect(finder.getByRole("button", { name: s.other.send })).toBeVisible();
      await noJs.close();

      // JavaScript on: no script file, the short address and the shared position.
      const withJs = await phone(browser, app, s.locale, true);
      await withJs.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
      const live = await withJs.newPage();
      const files = scriptFiles(live);
      await live.goto(`/product/${id}`);
      await waitForPageScript(live);
      // The spec's 400 ms address-bar rewrite (the regex alone also matches /product/{id}).
      await expect.poll(() => new URL(live.url()).pathname).toBe(`/${id}`);
      // A refused message (empty): the form's alert has the focus, as in the full app.
      await live.getByRole("button", { name: s.send }).click();
      await waitForPageScript(live);
      await expect(live.getByRole("alert")).toBeFocused();
      await live.getByLabel(s.message).fill(`By the bus stop (${lang}, script)`);
      await live.getByLabel(s.share).check();
      await expect(live.getByText(s.located)).toBeVisible();
      await expectAccessible(live);
      expect(files).toEqual([]);
      // The private link the finder lands on is the full app again.
      await live.getByRole("button", { name: s.send }).click();
      await expect(live.getByRole("status")).toHaveText(s.sent);
      await withJs.close();
      const mail = await app.smtp.waitForMail(
        (m) => m.to.includes(owner.email) && m.text.includes(`bus stop (${lang}, script)`),
      );
      expect(mail.text).toContain("https://www.google.com/maps/search/?api=1&query=59.3293,18.0686");

      // The owner's view of the same URL: the full app, hydrated.
      await page.context().addCookies([
        { ...owner.sessionCookie, url: app.server.url },
        { name: "ConsentApproved", value: "true", url: app.server.url },
      ]);
      const ownerFiles = scriptFiles(page);
      await page.goto(`/${id}`);
      await waitForHydration(page);
      expect(ownerFiles.some((f) => f.startsWith("/assets/") && f.endsWith(".js"))).toBe(true);
      await expect(page.locator("html[data-page-script]")).toHaveCount(0);
    },
  );
}
