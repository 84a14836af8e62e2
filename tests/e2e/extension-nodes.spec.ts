/**
 * Nodes a browser extension or a page translator puts into the page before the app's
 * scripts run do not break hydration (decision 045). Decision 044's Preact paired elements
 * by position: a hidden `div` an extension put as `<body>`'s first child took the app's own
 * `div.site`, and every signed-in page was re-rendered inside it, blank. React DOM skips
 * unexpected nodes at the body's level and recovers from a mismatch deeper down by
 * rendering that part again, and says so once (its recoverable hydration report).
 *
 * On the dashboard, the item form, /account and /order, every script is held back while
 * four kinds of foreign node are put in: a `div` appended to `<body>` (Grammarly), a hidden
 * `div` as its first child, a `span` next to a field or link (a password manager's icon,
 * next to the password field where the page has one) and the heading's text wrapped in `<font>` as a
 * page translator does. Then: the page shows once (one `div.site`, one of each landmark and
 * id, its heading visible), typing and saving, or ticking and paying, still work, and the
 * browser logs nothing but React's own recoverable hydration report.
 */
import type { Page } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { depsOf } from "../support/deps";
import { ADDRESS } from "../support/service-fixtures";
import { expect, test, waitForHydration } from "./fixtures";

/** Holds every JavaScript module back until the returned function is called (once a page). */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await page.route(/\.js(\?.*)?$/, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

/** What extensions and translators insert, before the app's scripts ran. */
async function insertForeignNodes(page: Page, fieldSelector: string) {
  await page.evaluate((selector) => {
    const hidden = document.createElement("div");
    hidden.hidden = true;
    hidden.setAttribute("data-extension", "first");
    document.body.prepend(hidden);
    const appended = document.createElement("div");
    appended.setAttribute("data-extension", "appended");
    appended.textContent = "Extension widget";
    document.body.append(appended);
    const field = document.querySelector(selector);
    if (!field) throw new Error(`no ${selector} on the page`);
    const icon = document.createElement("span");
    icon.setAttribute("data-extension", "field");
    field.after(icon);
    // A page translator replaces each text node by <font><font>text</font></font>.
    const heading = document.querySelector("main h1");
    if (!heading) throw new Error("no heading on the page");
    for (const text of [...heading.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)) {
      const outer = document.createElement("font");
      outer.style.verticalAlign = "inherit";
      const inner = document.createElement("font");
      inner.style.verticalAlign = "inherit";
      inner.textContent = text.textContent;
      outer.append(inner);
      text.replaceWith(outer);
    }
  }, fieldSelector);
}

/** The page is there once and not blank. */
async function expectDrawnOnce(page: Page, path: string) {
  await expect(page.locator("div.site"), `${path}: the app's own div`).toHaveCount(1);
  await expect(page.locator("div.site"), `${path}: not blank`).toBeVisible();
  await expect(page.locator("main h1"), `${path}: its heading`).toBeVisible();
  for (const landmark of ["html", "head", "body", "header", "main", "footer"]) {
    await expect(page.locator(landmark), `${path}: one ${landmark}`).toHaveCount(1);
  }
  const ids = await page.evaluate(() => [...document.querySelectorAll("[id]")].map((e) => e.id));
  expect(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    `${path}: ids there twice`,
  ).toEqual([]);
  const forms = await page.evaluate(() =>
    [...document.querySelectorAll("form[action], form[method]")].map((f) => f.outerHTML.length),
  );
  expect(forms.length, `${path}: its forms`).toBeGreaterThan(0);
}

async function openWithForeignNodes(page: Page, path: string, fieldSelector: string) {
  const release = await holdScripts(page);
  await page.goto(path, { waitUntil: "domcontentloaded" });
  await insertForeignNodes(page, fieldSelector);
  release();
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  await expectDrawnOnce(page, path);
}

test.describe("nodes inserted by extensions before hydration", () => {
  test.use({
    locale: "en-US",
    // React's own recoverable report of a mismatch (the translator's <font>, the span in a
    // form): minified error 418 in the production build. Nothing else may be logged.
    expectedConsoleErrors: [/^page error: Minified React error #418;/],
  });
  test.describe.configure({ timeout: 90_000 });

  test("the dashboard, the item form, /account and /order hydrate once and still type, save and pay", async ({
    page,
    app,
    user,
    consent,
  }) => {
    void consent;
    const deps = depsOf(app.runtime);
    await keepOrderAddress(deps, user.id, { ...ADDRESS, email: user.email }, false);
    const ids: string[] = [];
    for (const name of ["Grey laptop", "Blue bag"]) {
      ids.push(
        await createItem(
          deps,
          user.id,
          {
            name,
            findFee: 100,
            prodType: "other",
            contactInfo: "Call 070-111 22 33",
            payment: "year",
            intent: "payLater",
          },
          "en",
        ),
      );
    }

    // The dashboard: its items are listed once, and its links navigate in the app.
    await openWithForeignNodes(page, "/dashboard", 'main a[href="/product/register"]');
    await expect(page.getByText("Grey laptop")).toHaveCount(1);
    await page.locator('main a[href="/product/register"]').click();
    await expect(page).toHaveURL(/\/product\/register$/);
    await expect(page.locator("#product-name")).toBeVisible();

    // The item form: typing and saving still work.
    await openWithForeignNodes(page, `/product/edit/${ids[1]}`, "#product-name");
    await page.locator("#product-name").fill("Blue bag with stickers");
    await page.getByRole("button", { name: "Save and pay later" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const saved = await app.runtime.database.db
      .selectFrom("products")
      .select("name")
      .where("id", "=", ids[1]!)
      .executeTakeFirstOrThrow();
    expect(saved.name).toBe("Blue bag with stickers");

    // /account: the password manager's span next to the password field; the name saves.
    await openWithForeignNodes(page, "/account", "#account-current-password");
    await page.locator("#account-name").fill("Karin Extension");
    await page
      .locator("form", { has: page.locator("#account-name") })
      .getByRole("button")
      .first()
      .click();
    await expect(page.locator("#account-name")).toHaveValue("Karin Extension");
    await expect
      .poll(async () => {
        const row = await app.runtime.database.db
          .selectFrom("user")
          .select("name")
          .where("id", "=", user.id)
          .executeTakeFirstOrThrow();
        return row.name;
      })
      .toBe("Karin Extension");

    // /order: ticking changes the total, and the test payment goes through.
    await openWithForeignNodes(page, "/order", `#order-item-${ids[0]}`);
    const total = page.locator("#order-total");
    const both = await total.textContent();
    await page.locator(`#order-item-${ids[0]}`).uncheck();
    await expect(total).not.toHaveText(both!);
    await page.locator(`#order-item-${ids[0]}`).check();
    await expect(total).toHaveText(both!);
    await page.locator("#order-immediate-start").check();
    await page.getByRole("button", { name: "Go to payment" }).click();
    await expect(page).toHaveURL(/\/order\/checkout\/[0-9a-f-]{36}$/);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await expect(page).toHaveURL(/\/order\/complete\/[0-9a-f-]{36}$/);
  });
});
