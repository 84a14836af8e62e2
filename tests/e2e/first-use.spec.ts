/**
 * What a new owner and a finder meet (decision 018), seen in a browser: no page is wider
 * than a 390 px phone in either language (1280 px too with SCREENSHOTS=1), and axe finds no
 * serious or critical violation on any page in Swedish at phone width; the captcha is visible in light and dark
 * colour schemes; sign-in returns to the protected page; 'Logging out...' is seen and
 * announced; the consent hint is true on a phone; failed saves move focus to the error
 * summary; the finder page links phone numbers and email addresses.
 *
 * With SCREENSHOTS=1, screenshots of every page land in test-results/screens/ (to look at).
 */
import type { Page } from "@playwright/test";
import { grantAdmin } from "../../app/server/admin/admin.repository.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { createOrder } from "../../app/server/orders/checkout.service.server";
import { depsOf } from "../support/deps";
import { createUser, type TestUser } from "../support/users";
import { expect, expectAccessible, test, waitForHydration, waitForPageReady, type WorkerApp } from "./fixtures";
import { ADDRESS } from "../support/service-fixtures";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

interface Seeded {
  owner: TestUser;
  paid: string;
  unpaid: string;
  pendingOrder: string;
  paidOrder: string;
  message: string;
}

async function seed(app: WorkerApp, lang: "en" | "sv"): Promise<Seeded> {
  const deps = depsOf(app.runtime);
  const owner = await createUser(app.runtime, { name: "Anna Svensson", language: lang });
  await keepOrderAddress(deps, owner.id, { ...ADDRESS, email: owner.email, country: "Sverige" }, false);
  const item = (name: string) =>
    createItem(
      deps,
      owner.id,
      {
        name,
        findFee: 100000,
        prodType: "laptop",
        contactInfo: "Ring 070-123 45 67\nor mail anna.svensson@example.test",
        payment: "month",
        intent: "payLater",
      },
      lang,
    );
  const paid = await item("A laptop with a rather long name that must wrap on a phone");
  const unpaid = await item("Black phone");
  const paidOrder = await createOrder(deps, { userId: owner.id, itemIds: [paid], period: "month", lang });
  // Paid through the test checkout over HTTP: the server sends the receipt in its language.
  const pay = await fetch(`${app.server.url}/order/checkout/${paidOrder.id}`, {
    method: "POST",
    headers: { cookie: owner.cookie, origin: app.server.url, "content-type": "application/x-www-form-urlencoded" },
    body: "",
    redirect: "manual",
  });
  expect(pay.status).toBe(302);
  const pendingOrder = await createOrder(deps, { userId: owner.id, itemIds: [unpaid], period: "year", lang });
  await grantAdmin(app.runtime.database.db, owner.email);
  const message = `first-use-${lang}-${Date.now()}`;
  await app.runtime.database.db
    .insertInto("contact_messages")
    .values({
      id: message,
      name: "Kim Finder",
      email: "kim@example.test",
      message: "I found a laptop at the station.",
      lang,
      createdAt: Date.now(),
      readAt: null,
      handledAt: null,
      handledBy: null,
    })
    .execute();
  return { owner, paid, unpaid, pendingOrder: pendingOrder.id, paidOrder: paidOrder.id, message };
}

/** Every page a visitor, an owner or staff can reach (signed in: an owner who is also staff). */
const EVERY_PAGE: Array<{ path: string; signedIn: boolean }> = [
  ...[
    "/",
    "/companies",
    "/support",
    "/terms",
    "/cookies",
    "/privacy",
    "/contact",
    "/login",
    "/user/register",
    "/resetpassword",
    "/resetpassword/new?token=not-a-token",
    "/product/{paid}",
    "/{paid}",
    "/product/{unpaid}",
    "/no-such-page/at-all",
  ].map((path) => ({ path, signedIn: false })),
  ...[
    "/dashboard",
    "/product/register",
    "/product/edit/{paid}",
    "/product/edit/{unpaid}",
    "/product/{unpaid}",
    "/user/register-adress",
    "/user/register-adress?missing=1",
    "/order",
    "/order/checkout/{pendingOrder}",
    "/order/complete/{paidOrder}",
    "/user/verify-email",
    "/admin/messages",
    "/admin/messages/{message}",
  ].map((path) => ({ path, signedIn: true })),
];

/** One seeded owner per worker and language (tests of one worker share its database). */
const seeded = new Map<string, Promise<Seeded>>();
function seedOnce(app: WorkerApp, lang: "en" | "sv"): Promise<Seeded> {
  const key = `${app.server.url}|${lang}`;
  let s = seeded.get(key);
  if (!s) {
    s = seed(app, lang);
    seeded.set(key, s);
  }
  return s;
}

async function widthOverflow(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const width = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (width <= vw) return null;
    // Name the widest offenders, so a failure says what to fix.
    const wide = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > vw + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`);
    return `${width}px > ${vw}px: ${wide.join(", ")}`;
  });
}

for (const lang of ["en", "sv"] as const) {
  for (const [size, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    test.describe(`every page, ${lang}, ${size}`, () => {
      test.use({ locale: lang === "sv" ? "sv-SE" : "en-US", viewport });

      // One test per group of pages, one browser page walking through them (a test and a
      // fresh context per page made this file take 15 of CI's 25 minutes). Soft checks: a
      // failure names every page that fails, not only the first.
      // CI time: the rule is the 390 px phone, so the desktop walk runs only with
      // SCREENSHOTS=1 (which walks every language and width to look at).
      const walk = size === "desktop" && !process.env.SCREENSHOTS ? test.skip : test;
      for (const signedIn of [false, true]) {
        walk(
          `every ${signedIn ? "signed-in" : "anonymous"} page: no wider than the screen, no serious axe violation`,
          async ({ page, app, context, consent }) => {
            void consent;
            test.setTimeout(300_000);
            const s = await seedOnce(app, lang);
            if (signedIn) await context.addCookies([{ ...s.owner.sessionCookie, url: app.server.url }]);
            for (const { path: template } of EVERY_PAGE.filter((p) => p.signedIn === signedIn)) {
              await test.step(template, async () => {
                const path = template.replace(/\{(\w+)\}/g, (_, k: string) => String(s[k as keyof Seeded]));
                await page.goto(path);
                // The anonymous finder page is lean: no hydration, its page script instead.
                await waitForPageReady(page);
                if (process.env.SCREENSHOTS) {
                  const name = template.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "") || "home";
                  await page.screenshot({
                    path: `test-results/screens/${lang}-${size}-${name}${signedIn ? "-owner" : ""}.png`,
                    fullPage: true,
                  });
                }
                expect.soft(await widthOverflow(page), `${template} is wider than the screen`).toBeNull();
                // axe on phones in Swedish (the longer words; the English screens are axe-checked
                // by their own specs); on the desktop only the width check: axe's findings do not
                // depend on the width here, and CI has 25 minutes in all.
                if (size === "phone" && lang === "sv") await expectAccessible(page, { soft: true, label: template });
              });
            }
          },
        );
      }

      // The English overlay is axe-checked by foundation.spec.ts.
      ((size === "phone" && lang === "sv") || process.env.SCREENSHOTS ? test : test.skip)(
        "the consent overlay of a first visit: no wider than the screen, no serious axe violation",
        async ({ page }) => {
          await page.goto("/");
          await waitForPageReady(page);
          await expect(page.getByRole("dialog")).toBeVisible();
          if (process.env.SCREENSHOTS)
            await page.screenshot({ path: `test-results/screens/${lang}-${size}-consent.png` });
          expect(await widthOverflow(page)).toBeNull();
          await expectAccessible(page);
        },
      );
    });
  }
}

test.describe("first use, in the browser", () => {
  test.use({ viewport: PHONE, locale: "sv-SE" });

  test("the consent hint is true on a phone: the language links are at the bottom of the page", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("dialog")).toContainText("Du kan byta språk längst ned på sidan.");
    await expect(page.getByRole("dialog")).not.toContainText("höger");
    // Each language is named in its own language.
    await expect(page.locator("footer").getByRole("link", { name: "English" })).toHaveAttribute("lang", "en");
    await expect(page.locator("footer").getByRole("link", { name: "Svenska" })).toHaveAttribute("lang", "sv");
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`the captcha checkbox on /contact has a visible border and background (${scheme} scheme)`, async ({
      page,
      consent,
    }) => {
      void consent;
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto("/contact");
      await waitForPageReady(page);
      const box = page.locator("altcha-widget input[type=checkbox]");
      await expect(box).toBeVisible();
      const style = await box.evaluate((el) => {
        const cs = getComputedStyle(el);
        const main = getComputedStyle(el.closest(".altcha-main") ?? el);
        return {
          border: cs.borderTopColor,
          borderWidth: cs.borderTopWidth,
          background: cs.backgroundColor,
          frame: main.borderTopColor,
        };
      });
      // Before the fix these were unresolved variables: transparent, no border.
      expect(style.borderWidth).not.toBe("0px");
      expect(style.border).toBe("rgb(108, 117, 125)");
      expect(style.background).toBe("rgb(255, 255, 255)");
      expect(style.frame).toBe("rgb(108, 117, 125)");
      if (process.env.SCREENSHOTS)
        await page.screenshot({ path: `test-results/screens/contact-captcha-${scheme}.png`, fullPage: true });
    });
  }

  test("signing in from a protected page returns there (/order → /login → /order)", async ({ page, app, consent }) => {
    void consent;
    const u = await createUser(app.runtime, { name: "Olle Order", language: "sv" });
    await page.goto("/order");
    await expect(page).toHaveURL(/\/login$/);
    await waitForPageReady(page);
    await page.getByLabel("E-post").fill(u.email);
    await page.getByLabel("Lösenord", { exact: true }).fill(u.password);
    await page.getByRole("button", { name: "Logga in", exact: true }).click();
    await expect(page).toHaveURL(/\/order$/);
    await expect(page.getByRole("heading", { level: 1, name: "Aktivera saker" })).toBeVisible();
  });

  test("the logout screen shows 'Loggar ut...' long enough to be seen, in a status region", async ({
    page,
    user,
    consent,
  }) => {
    void consent;
    void user;
    await page.goto("/dashboard");
    await waitForHydration(page);
    await page.goto("/logout");
    const status = page.getByRole("status").filter({ hasText: "Loggar ut..." });
    await expect(status).toBeVisible();
    await page.waitForTimeout(400);
    await expect(status).toBeVisible();
    await expect(page).toHaveURL(/\/$/, { timeout: 5000 });
  });

  test("the finder page makes the owner's phone number and email tappable", async ({ page, app, consent }) => {
    void consent;
    const s = await seed(app, "sv");
    await page.goto(`/product/${s.paid}`);
    await expect(page.getByRole("link", { name: "070-123 45 67" })).toHaveAttribute("href", "tel:0701234567");
    await expect(page.getByRole("link", { name: "anna.svensson@example.test" })).toHaveAttribute(
      "href",
      "mailto:anna.svensson@example.test",
    );
    await expect(page.getByText("Hittelön: 100 000 kr")).toBeVisible();
  });

  test("checkout states the terms and the Triple price: 3 items monthly cost 60 kr", async ({ page, app, consent }) => {
    void consent;
    const s = await seed(app, "sv");
    const deps = depsOf(app.runtime);
    for (const name of ["Nycklar", "Väska"])
      await createItem(
        deps,
        s.owner.id,
        { name, findFee: 50, prodType: "other", contactInfo: "x", payment: "month", intent: "payLater" },
        "sv",
      );
    await page.context().addCookies([{ ...s.owner.sessionCookie, url: app.server.url }]);
    await page.goto("/order");
    await waitForHydration(page);
    await page.getByLabel(/Månadsvis/).check();
    await expect(page.locator("#order-total")).toHaveText("60 kr");
    await expect(page.locator("#order-discount")).toHaveText("−30 kr");
    const terms = page.getByTestId("checkout-terms");
    await expect(terms).toContainText("Förnyas automatiskt varje månad tills du säger upp den.");
    await expect(terms).toContainText("Du betalar 60 kr nu och sedan 60 kr varje månad.");
    // What the minimum term commits to; three items: no "free third" hint.
    await expect(terms).toContainText("Minsta bindningstid är 6 månader: 6 × 60 kr = 360 kr totalt.");
    await expect(page.locator(".order-free-next")).toHaveCount(0);
    await page.locator(".order-check").first().uncheck();
    await expect(page.locator(".order-free-next")).toContainText(
      "En sak till kostar ingenting: 3 saker kostar lika mycket som 2.",
    );
    await page.getByLabel(/Årsvis/).check();
    await expect(terms).not.toContainText("bindningstid");
    await expect(page.getByRole("link", { name: "villkor", exact: true })).toHaveAttribute("href", "/terms");
  });

  test("a failed save on a phone focuses the error summary in view; counters; 'Dina ändringar är sparade.' after saving", async ({
    page,
    user,
    consent,
  }) => {
    void consent;
    void user;
    await page.goto("/product/register");
    await waitForHydration(page);
    // The browser's own hints stay: required fields, a numeric keyboard for the fee.
    await expect(page.getByLabel("Namn")).toHaveAttribute("required", "");
    await expect(page.getByLabel(/Hittelön/)).toHaveAttribute("inputmode", "numeric");
    await expect(page.getByLabel(/Hittelön/)).toHaveAttribute("min", "0");
    // A counter instead of silently cutting pasted text.
    await expect(page.locator("#product-name-counter")).toHaveText("80 tecken kvar");
    await page.getByLabel("Namn").fill("x".repeat(85));
    await expect(page.locator("#product-name-counter")).toHaveText("5 tecken för mycket");
    await expect(page.getByLabel("Namn")).toHaveValue("x".repeat(85));
    await page.getByRole("button", { name: "Spara och betala senare" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "Rätta de markerade fälten." });
    await expect(summary).toBeFocused();
    await expect(summary).toBeInViewport();
    await expect(page.getByLabel("Namn")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Namn").fill("Svart mobil");
    await page.getByLabel(/Hittelön/).fill("200");
    await page.getByLabel("Typ").selectOption("mobile");
    await page.getByLabel("Kontaktuppgifter").fill("070-123 45 67");
    await page.getByRole("button", { name: "Spara och betala senare" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("status").filter({ hasText: "Dina ändringar är sparade." })).toBeVisible();
  });
});
