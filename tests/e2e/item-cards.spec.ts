/**
 * Item cards line up (decision 057), in both languages at 390 and 1280 px: a dashboard
 * card's badges and renewal date read as separate words and a wrapped one starts at the
 * card's edge, not indented; on /order a paid item's badge leaves its QR code in line with
 * the unpaid items' codes.
 */
import type { Page } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { depsOf } from "../support/deps";
import { insertKeptPayment } from "../support/service-fixtures";
import { createUser } from "../support/users";
import { expect, expectAccessible, test, waitForHydration, type WorkerApp } from "./fixtures";

const L = {
  en: { locale: "en-US", states: "Active Contact info private Renews", paid: "Active" },
  sv: { locale: "sv-SE", states: "Aktiv Kontaktuppgifter dolda Förnyas", paid: "Aktiv" },
} as const;

const WIDTHS = [390, 1280] as const;

async function ownerWithPaidAndUnpaid(app: WorkerApp, lang: "en" | "sv") {
  const owner = await createUser(app.runtime, { language: lang });
  const deps = depsOf(app.runtime);
  const make = (name: string, contactVisibility: "public" | "private") =>
    createItem(
      deps,
      owner.id,
      {
        name,
        findFee: 100,
        prodType: "other",
        contactInfo: "Call 070-111 22 33",
        contactVisibility,
        payment: "year",
        intent: "payLater",
      },
      lang,
    );
  const paid = await make(`Paid bag ${lang}`, "private");
  const unpaid = await make(`Unpaid keys ${lang}`, "public");
  const db = app.runtime.database.db;
  await insertKeptPayment(db, owner.id, paid, Date.now());
  await db.updateTable("orders").set({ renewing: 1 }).where("id", "=", `kept-${paid}`).execute();
  await db.updateTable("products").set({ payed: 1 }).where("id", "=", paid).execute();
  return { owner, paid, unpaid };
}

/** Each line of a wrapping row: where its first element starts, against the row's own left edge. */
async function lineStarts(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((rows) =>
    rows.map((row) => {
      const left = row.getBoundingClientRect().left + parseFloat(getComputedStyle(row).paddingLeft);
      const starts = new Map<number, number>();
      for (const child of Array.from(row.children)) {
        const r = child.getBoundingClientRect();
        const top = Math.round(r.top);
        if (!starts.has(top) || r.left < starts.get(top)!) starts.set(top, r.left);
      }
      return [...starts.values()].map((x) => Math.round(x - left));
    }),
  );
}

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`item cards (${lang})`, () => {
    test.use({ locale: s.locale });

    test("the dashboard card's states are separate words and every wrapped line starts at the edge", async ({
      page,
      app,
      context,
      consent,
    }) => {
      void consent;
      const { owner, paid } = await ownerWithPaidAndUnpaid(app, lang);
      await context.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/dashboard");
        await waitForHydration(page);
        const states = page.locator(`article[aria-labelledby="item-${paid}-name"] .item-states`);
        // As text (a screen reader's browse mode, copy and paste): words, not "ActiveContact…".
        const text = (await states.textContent())!.replace(/\s+/g, " ");
        expect(text).toContain(s.states);
        for (const starts of await lineStarts(page, ".item-states"))
          for (const x of starts) expect(Math.abs(x), `a wrapped state at ${width} px`).toBeLessThanOrEqual(1);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        if (process.env.SCREENSHOTS)
          await page.screenshot({ path: `/tmp/shots-ux-words/dashboard-${lang}-${width}.png`, fullPage: true });
      }
      await expectAccessible(page);
    });

    test("on /order a paid item's QR code is in line with the others", async ({ page, app, context, consent }) => {
      void consent;
      const { owner, paid } = await ownerWithPaidAndUnpaid(app, lang);
      await context.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/order");
        await waitForHydration(page);
        await expect(page.locator(`.order-item[data-item="${paid}"]`)).toContainText(s.paid);
        const lefts = await page
          .locator(".order-item img.item-qr")
          .evaluateAll((imgs) => imgs.map((i) => Math.round(i.getBoundingClientRect().left)));
        expect(lefts.length).toBe(2);
        expect(Math.abs(lefts[0]! - lefts[1]!), `QR codes at ${width} px`).toBeLessThanOrEqual(1);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        if (process.env.SCREENSHOTS)
          await page.screenshot({ path: `/tmp/shots-ux-words/order-${lang}-${width}.png`, fullPage: true });
      }
      await expectAccessible(page);
    });
  });
}
