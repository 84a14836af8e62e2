/**
 * Paying by invoice in test mode (issue #20 point 4, decision 027): an organisation's admin
 * orders stickers for the organisation's items on `/order` with "Pay by invoice", gets the
 * clearly labelled simulated invoice, marks it paid, and finds it with its receipt in the
 * organisation's invoices. Axe on every page; 390 and 1280 px (screenshots with SCREENSHOTS=1).
 * One language in CI (decision 024); E2E_ALL_LANGUAGES=1 walks both.
 */
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { createItem } from "../../app/server/items/items.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration, walkIn } from "./fixtures";

const TEXT = {
  en: {
    locale: "en-US",
    invoice: "Pay by invoice",
    banner: "TEST — not a real invoice",
    markPaid: "Mark as paid (test)",
    paid: "Paid",
    open: "Open",
    list: "Invoices and receipts",
  },
  sv: {
    locale: "sv-SE",
    invoice: "Betala mot faktura",
    banner: "TEST — inte en riktig faktura",
    markPaid: "Markera som betald (test)",
    paid: "Betald",
    open: "Obetald",
    list: "Fakturor och kvitton",
  },
} as const;

test.describe.configure({ timeout: 90_000 });

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];
  test.describe(`pay by invoice in ${lang}`, () => {
    test.use({ locale: T.locale });

    walkIn("en", lang)(
      "an admin pays the organisation's items by invoice and marks the simulated invoice paid",
      async ({ page, app, context, consent }) => {
        void consent;
        const admin = await createUser(app.runtime, { name: "Anna Admin", language: lang });
        const deps = depsOf(app.runtime);
        await keepOrderAddress(
          deps,
          admin.id,
          {
            firstname: "Anna",
            lastname: "Admin",
            email: admin.email,
            co: "",
            address: "Storgatan 1",
            address2: "",
            city: "Umeå",
            state: "",
            zip: "903 26",
            country: "Sweden",
          },
          false,
        );
        const org = await createOrganisation(deps, admin.id, {
          name: "Muster GmbH",
          orgNumber: "556036-0793",
          billingEmail: "rechnung@muster.example",
          invoiceStreet: "Hauptstraße 1",
          invoicePostcode: "10115",
          invoiceCity: "Berlin",
          invoiceCountry: "DE",
          vatNumber: "DE123456789",
          deskContact: "Empfang",
        });
        for (const name of ["Laptop 1", "Laptop 2", "Laptop 3"]) {
          await createItem(
            deps,
            admin.id,
            { name, findFee: 0, prodType: "laptop", contactInfo: "x", payment: "year", intent: "payLater" },
            lang,
            org,
          );
        }
        await context.addCookies([
          { ...admin.sessionCookie, url: app.server.url },
          { name: "hittad.scope", value: org, url: app.server.url },
        ]);

        await page.goto("/order");
        await waitForHydration(page);
        await expect(page.locator(".order-invoice")).toContainText("rechnung@muster.example");
        await expectAccessible(page);
        await atPhoneAndDesk(page, `invoice-order-${lang}`);
        await page.getByRole("button", { name: T.invoice, exact: true }).click();

        await expect(page).toHaveURL(/\/order\/[0-9a-f-]{36}\/invoice$/);
        await expect(page.locator(".invoice-test-banner")).toContainText(T.banner);
        await expect(page.locator(".invoice-reverse-charge")).toBeVisible();
        await expect(page.locator(".invoice-state")).toHaveText(T.open);
        await expectAccessible(page);
        await atPhoneAndDesk(page, `invoice-simulated-${lang}`);
        await page.getByRole("button", { name: T.markPaid }).click();
        await expect(page.locator(".invoice-state")).toHaveText(T.paid);

        await page.goto(`/organisations/${org}`);
        const list = page.locator("#org-invoices-title + .org-invoices, .org-invoices");
        await expect(page.getByRole("heading", { name: T.list })).toBeVisible();
        await expect(list.locator(".org-invoice")).toHaveCount(1);
        await expect(list.locator(".org-invoice a[href*='/receipt?number=']")).toHaveCount(1);
        await expectAccessible(page);
        await atPhoneAndDesk(page, `invoice-list-${lang}`);
      },
    );
  });
}
