/**
 * Live values stay live after a page translator has run (decision 057), in both
 * languages at 390 and 1280 px. Chrome's translate replaces every text node with `<font>`
 * elements holding the translation; `translateThePage` does the same (keeping the words, so
 * the figures can be read back). Then the item form's character counter and total and the
 * order page's total must still follow what the owner types and picks.
 */
import type { Page } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { expect, expectAccessible, test, waitForHydration } from "./fixtures";

const L = {
  en: {
    locale: "en-US",
    name: "Name",
    monthly: "Monthly",
    counterAfter: "66 characters left",
    formTotalYear: "Total price: €30",
    formTotalMonth: "Total price: €3",
    orderTotals: ["€60", "€30", "€3"],
  },
  sv: {
    locale: "sv-SE",
    name: "Namn",
    monthly: "Månadsvis",
    counterAfter: "66 tecken kvar",
    formTotalYear: "Totalpris: 300 kr",
    formTotalMonth: "Totalpris: 30 kr",
    orderTotals: ["600 kr", "300 kr", "30 kr"],
  },
} as const;

/** What Chrome's translate does to the page: each text node becomes <font><font>text</font></font>. */
async function translateThePage(page: Page) {
  const wrapped = await page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const nodes: Text[] = [];
    while (walker.nextNode()) nodes.push(walker.currentNode as Text);
    let count = 0;
    for (const node of nodes) {
      const parent = node.parentElement;
      if (!node.data.trim() || !parent || parent.closest('[translate="no"], script, style, textarea, option, title'))
        continue;
      const outer = document.createElement("font");
      const inner = document.createElement("font");
      outer.style.verticalAlign = "inherit";
      inner.style.verticalAlign = "inherit";
      inner.textContent = node.data;
      outer.append(inner);
      node.replaceWith(outer);
      count++;
    }
    return count;
  });
  expect(wrapped).toBeGreaterThan(10);
}

const shot = (page: Page, name: string) =>
  process.env.SCREENSHOTS
    ? page.screenshot({ path: `/tmp/shots-ux-words/${name}.png`, fullPage: true })
    : Promise.resolve(Buffer.from(""));

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`after a page translator (${lang})`, () => {
    test.use({ locale: s.locale });
    test.describe.configure({ timeout: 90_000 });

    for (const width of [390, 1280] as const) {
      test(`the item form's counter and total follow the owner at ${width} px`, async ({ page, user, consent }) => {
        void user;
        void consent;
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/product/register");
        await waitForHydration(page);
        await translateThePage(page);
        await page.getByLabel(s.name, { exact: true }).fill("Black umbrella");
        await expect(page.locator("#product-name-counter")).toHaveText(s.counterAfter);
        await expect(page.locator(".item-form-total")).toHaveText(s.formTotalYear);
        await page.getByLabel(new RegExp(`^${s.monthly}`)).check();
        await expect(page.locator(".item-form-total")).toHaveText(s.formTotalMonth);
        await expectAccessible(page);
        await shot(page, `item-form-translated-${lang}-${width}`);
      });

      test(`the order page's total follows the ticks and the period at ${width} px`, async ({
        page,
        app,
        context,
        consent,
      }) => {
        void consent;
        const owner = await createUser(app.runtime, { language: lang });
        await context.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);
        const ids: string[] = [];
        for (const name of ["Bag", "Keys"])
          ids.push(
            await createItem(
              depsOf(app.runtime),
              owner.id,
              { name, findFee: 100, prodType: "other", contactInfo: "070-1", payment: "year", intent: "payLater" },
              lang,
            ),
          );
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/order");
        await waitForHydration(page);
        const total = page.locator("#order-total");
        await expect(total).toHaveText(s.orderTotals[0]);
        await translateThePage(page);
        await page.locator(`#order-item-${ids[0]}`).uncheck();
        await expect(total).toHaveText(s.orderTotals[1]);
        await page.locator("#order-payment-month").check();
        await expect(total).toHaveText(s.orderTotals[2]);
        await expect(page.getByTestId("checkout-terms")).toContainText(s.orderTotals[2]);
        await expectAccessible(page);
        await shot(page, `order-translated-${lang}-${width}`);
      });
    }
  });
}
