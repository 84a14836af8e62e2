/**
 * Money that follows the customer's choice (decision 051), in both languages at 390 and
 * 1280 px (nothing wider than the screen, axe clean; screenshots under /tmp/shots-ux-money
 * with SCREENSHOTS=1): "Save and pay now" opens /order on that item alone, monthly as
 * chosen; an unverified payer's thank-you page says the receipt waits for the address and
 * offers it at once; the delete page offers the withdrawal first and names the organisation
 * it would delete with its stickers; the withdraw page revisited shows the withdrawn state;
 * staff see a deleted account's shipment under "Not to post".
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { mergeAreas, registerResources } from "../../app/i18n/i18n";
import { grantAdmin } from "../../app/server/admin/admin.repository.server";
import { eraseUserData } from "../../app/server/account/privacy.service.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { withdrawOrder } from "../../app/server/orders/withdrawal.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import type { ProductInput } from "../../app/lib/forms/product-form";
import { depsOf } from "../support/deps";
import { ADDRESS } from "../support/service-fixtures";
import { createUser, type TestUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration, type WorkerApp } from "./fixtures";
import { uniqueOrgNumber } from "../support/org-numbers";

// The payments and withdrawals below write their mails in this process: its translations,
// read from the locale files as billing.spec.ts does (Playwright has no import.meta.glob).
function readAreas(dir: string, l: string) {
  return mergeAreas(
    Object.fromEntries(
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .map((f) => [`./${l}/${f}`, { default: JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) }]),
    ),
  );
}
function deepMerge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(from)) {
    const there = into[k];
    into[k] =
      there && typeof there === "object" && v && typeof v === "object"
        ? deepMerge({ ...(there as Record<string, unknown>) }, v as Record<string, unknown>)
        : v;
  }
  return into;
}
for (const l of ["en", "sv"] as const) {
  const dir = path.resolve(import.meta.dirname, "../../app/locales", l);
  registerResources(l, deepMerge(readAreas(dir, l), readAreas(path.join(dir, "server"), l)));
}

const TEXTS = {
  en: {
    locale: "en-GB",
    payNow: "Save and pay now",
    receiptWaits: "is not verified yet. As soon as you verify it",
    receiptPdf: /Download receipt no\. \d+ \(PDF\)/,
    withdrawFirst: "Withdraw first: get your money back",
    withdrawButton: /Withdraw and get .* back/,
    orgDeleted: "so it is deleted with your account",
    forfeit: "I give up the refund",
    withdrawnTitle: "You have withdrawn from this purchase",
    creditNote: /Download credit note no\. \d+ \(PDF\)/,
    notToPost: "Not to post",
    dropped: "The account was deleted on",
  },
  sv: {
    locale: "sv-SE",
    payNow: "Spara och betala nu",
    receiptWaits: "är inte bekräftad än. Så snart du har bekräftat den",
    receiptPdf: /Ladda ner kvitto nr \d+ \(PDF\)/,
    withdrawFirst: "Ångra köpet först och få pengarna tillbaka",
    withdrawButton: /Ångra köpet och få tillbaka /,
    orgDeleted: "så den raderas tillsammans med ditt konto",
    forfeit: "Jag avstår från återbetalningen",
    withdrawnTitle: "Du har ångrat det här köpet",
    creditNote: /Ladda ner kreditfaktura nr \d+ \(PDF\)/,
    notToPost: "Ska inte skickas",
    dropped: "Kontot raderades den",
  },
} as const;

const ITEM: ProductInput = {
  name: "Svart ryggsäck",
  findFee: 100,
  prodType: "other",
  contactInfo: "070-111 22 33",
  contactVisibility: "private",
  payment: "year",
  intent: "payLater",
};

async function shots(page: Page, name: string) {
  await atPhoneAndDesk(page, name);
  if (!process.env.SCREENSHOTS) return;
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `/tmp/shots-ux-money/${name}-${width}.png`, fullPage: true });
  }
}

async function paidOrder(app: WorkerApp, u: TestUser, lang: "en" | "sv", itemName = ITEM.name) {
  const deps = depsOf(app.runtime);
  await keepOrderAddress(deps, u.id, { ...ADDRESS, email: u.email }, false);
  const item = await createItem(deps, u.id, { ...ITEM, name: itemName }, lang);
  const order = await createOrder(deps, { userId: u.id, itemIds: [item], period: "year", lang, immediateStart: true });
  await completeTestPayment(deps, { userId: u.id, orderId: order.id });
  return order.id;
}

for (const lang of ["en", "sv"] as const) {
  const T = TEXTS[lang];
  test.describe(`money follows the customer (${lang})`, () => {
    test.use({ locale: T.locale });

    test("save and pay now: /order ticks that item alone, monthly as chosen on the form", async ({
      page,
      context,
      app,
      consent: _consent,
    }) => {
      const u = await createUser(app.runtime, { name: "Petra Paynow", language: lang });
      await context.addCookies([{ ...u.sessionCookie, url: app.server.url }]);
      const deps = depsOf(app.runtime);
      await keepOrderAddress(deps, u.id, { ...ADDRESS, email: u.email }, false);
      for (const name of ["Gamla nycklar", "Cykel"]) await createItem(deps, u.id, { ...ITEM, name }, lang);
      await page.goto("/product/register");
      await waitForHydration(page);
      await page.locator("#product-name").fill("Plånbok");
      await page.locator("#product-findFee").fill("50");
      await page.locator("#product-prodType").selectOption("other");
      await page.locator("#product-contactInfo").fill("070-222 33 44");
      await page.locator("#product-payment-month").check();
      await page.getByRole("button", { name: T.payNow }).click();
      await expect(page).toHaveURL(/\/order\?item=\w+$/);
      await waitForHydration(page);
      const id = new URL(page.url()).searchParams.get("item")!;
      await expect(page.locator(`#order-item-${id}`)).toBeChecked();
      await expect(page.locator("input[name=items]:checked")).toHaveCount(1);
      await expect(page.locator("#order-payment-month")).toBeChecked();
      await expect(page.locator(".order-item").first()).toHaveAttribute("data-item", id);
      await expectAccessible(page);
      await shots(page, `order-focus-${lang}`);
    });

    test("an unverified payer's thank-you page: the receipt waits for the address and downloads at once", async ({
      page,
      context,
      app,
      consent: _consent,
    }) => {
      const u = await createUser(app.runtime, { name: "Ulf Unverified", language: lang, verified: false });
      await context.addCookies([{ ...u.sessionCookie, url: app.server.url }]);
      const orderId = await paidOrder(app, u, lang);
      await page.goto(`/order/complete/${orderId}`);
      await expect(page.locator(".order-receipt-waits")).toContainText(T.receiptWaits);
      const pdf = page.getByRole("link", { name: T.receiptPdf });
      await expect(pdf).toBeVisible();
      const res = await page.request.get((await pdf.getAttribute("href"))!);
      expect(res.headers()["content-type"]).toBe("application/pdf");
      await expectAccessible(page);
      await shots(page, `complete-unverified-${lang}`);
    });

    test("the delete page offers the withdrawal first and names the organisation it would delete", async ({
      page,
      context,
      app,
      consent: _consent,
    }) => {
      const u = await createUser(app.runtime, { name: "Dora Delete", language: lang });
      await context.addCookies([{ ...u.sessionCookie, url: app.server.url }]);
      await paidOrder(app, u, lang);
      const deps = depsOf(app.runtime);
      const org = await createOrganisation(deps, u.id, {
        name: `Ensam ${lang.toUpperCase()} AB`,
        orgNumber: uniqueOrgNumber(),
        billingEmail: `billing-${lang}@company.example`,
        invoiceStreet: "Storgatan 1",
        invoicePostcode: "903 26",
        invoiceCity: "Umeå",
        invoiceCountry: "SE",
        vatNumber: null,
        deskContact: "Reception",
      });
      await createItem(deps, u.id, { ...ITEM, name: "Förskottsbetalt paraply" }, lang, org);
      await page.goto("/account/delete");
      await expect(page.getByRole("heading", { name: T.withdrawFirst })).toBeVisible();
      await expect(page.getByRole("link", { name: T.withdrawButton })).toBeVisible();
      await expect(page.locator(".delete-organisations")).toContainText(T.orgDeleted);
      await expect(page.locator(".delete-organisations")).toContainText("Förskottsbetalt paraply");
      await expect(page.getByLabel(T.forfeit)).toBeVisible();
      await expectAccessible(page);
      await shots(page, `account-delete-${lang}`);
    });

    test("the withdraw page revisited shows the withdrawn state with the credit note", async ({
      page,
      context,
      app,
      consent: _consent,
    }) => {
      const u = await createUser(app.runtime, { name: "Wera Withdrawn", language: lang });
      await context.addCookies([{ ...u.sessionCookie, url: app.server.url }]);
      const orderId = await paidOrder(app, u, lang);
      await withdrawOrder(depsOf(app.runtime), { userId: u.id, orderId });
      await page.goto(`/order/${orderId}/withdraw`);
      await expect(page.getByRole("heading", { level: 1, name: T.withdrawnTitle })).toBeVisible();
      await expect(page.getByRole("link", { name: T.creditNote })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);
      await expectAccessible(page);
      await shots(page, `withdrawn-${lang}`);
    });

    test("staff see a deleted account's paid order under 'Not to post', with the note", async ({
      page,
      context,
      app,
      consent: _consent,
    }) => {
      const gone = await createUser(app.runtime, { name: "Gunnar Gone", language: lang });
      await paidOrder(app, gone, lang);
      await eraseUserData(depsOf(app.runtime), { id: gone.id, email: gone.email.toLowerCase(), emailVerified: true });
      const adminEmail = `ship-${lang}-${gone.id.slice(0, 6).toLowerCase()}@example.test`;
      await grantAdmin(app.runtime.database.db, adminEmail);
      const admin = await createUser(app.runtime, { name: "Staff Member", email: adminEmail, language: lang });
      await context.addCookies([{ ...admin.sessionCookie, url: app.server.url }]);
      await page.goto("/admin/shipments?status=dropped");
      await expect(page.getByRole("link", { name: T.notToPost })).toHaveAttribute("aria-current", "page");
      await expect(page.locator(".shipment-note").first()).toContainText(T.dropped);
      await expectAccessible(page);
      await shots(page, `shipments-dropped-${lang}`);
    });
  });
}
