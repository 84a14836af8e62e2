/**
 * What a company admin meets at checkout (decision 038): paying by invoice shows the
 * invoice's terms only (no "renews automatically, 6-month minimum" above an invoice that
 * does not renew), paying by card the card's; the stickers go to the organisation's
 * address with its name as recipient; the header names the active account and switches it
 * without the user menu (point 13). Both languages, 390 and 1280 px.
 */
import { SCOPE_COOKIE } from "../../app/lib/domain/organisation-roles";
import { createItem } from "../../app/server/items/items.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";
import { uniqueOrgNumber } from "../support/org-numbers";

const T = {
  en: {
    locale: "en-US",
    invoice: "By invoice to the organisation",
    card: "By card",
    invoiceTerms: "does not renew automatically",
    pay: "Pay by invoice",
    account: "Account whose items are shown",
    personal: "Personal",
    switch: "Switch",
  },
  sv: {
    locale: "sv-SE",
    invoice: "Mot faktura till organisationen",
    card: "Med kort",
    invoiceTerms: "förnyas inte automatiskt",
    pay: "Betala mot faktura",
    account: "Kontot vars saker visas",
    personal: "Privat",
    switch: "Byt",
  },
} as const;

for (const lang of ["en", "sv"] as const) {
  const L = T[lang];
  test.describe(`company checkout (${lang})`, () => {
    test.use({ locale: L.locale });

    test("paying by invoice shows the invoice's terms and not the card's renewal and minimum term; by card the card's; the organisation is the recipient", async ({
      app,
      context,
      page,
      consent,
    }) => {
      void consent;
      const admin = await createUser(app.runtime, { language: lang });
      const deps = depsOf(app.runtime);
      const name = `Checkout AB ${lang}`;
      const org = await createOrganisation(deps, admin.id, {
        name,
        orgNumber: uniqueOrgNumber(),
        billingEmail: `billing-${lang}@checkout.example`,
        invoiceStreet: "Storgatan 1",
        invoicePostcode: "903 26",
        invoiceCity: "Umeå",
        invoiceCountry: "SE",
        vatNumber: null,
        deskContact: "Reception",
      });
      await app.runtime.database.db
        .updateTable("organisations")
        .set((eb) => ({ billingEmailConfirmed: eb.ref("billingEmail") }))
        .where("id", "=", org)
        .execute();
      await createItem(
        deps,
        admin.id,
        {
          name: "Office laptop",
          findFee: 100,
          prodType: "laptop",
          contactInfo: "x",
          payment: "year",
          intent: "payLater",
        },
        lang,
        org,
      );
      await context.addCookies([
        { ...admin.sessionCookie, url: app.server.url },
        { name: SCOPE_COOKIE, value: org, url: app.server.url },
      ]);
      await page.goto("/order");
      await waitForHydration(page);
      const address = page.locator(".order-address");
      await expect(address).toContainText(name);
      await expect(address).not.toContainText(admin.name);

      // An admin of a company with a confirmed billing email: the invoice first.
      await expect(page.getByRole("radio", { name: L.invoice })).toBeChecked();
      await expect(page.locator("#order-invoice-terms")).toContainText(L.invoiceTerms);
      await expect(page.getByTestId("checkout-terms")).toHaveCount(0);
      await expect(page.getByRole("button", { name: L.pay })).toBeVisible();
      await atPhoneAndDesk(page, `company-checkout-invoice-${lang}`);
      await expectAccessible(page);

      await page.getByRole("radio", { name: L.card }).check();
      await expect(page.getByTestId("checkout-terms")).toBeVisible();
      await expect(page.locator("#order-invoice-terms")).toHaveCount(0);
      await expect(page.getByRole("button", { name: L.pay })).toHaveCount(0);
      await atPhoneAndDesk(page, `company-checkout-card-${lang}`);

      // The address form in the organisation's scope: the organisation as recipient.
      await page.locator(".order-address + a").click();
      await expect(page.locator("#address-firstname")).toHaveValue(name);
      await expect(page.locator("#address-lastname")).toHaveCount(0);
      await atPhoneAndDesk(page, `company-address-${lang}`);
      await expectAccessible(page);

      // The header names the active account and switches it without the user menu (decision 038).
      await page.goto("/dashboard");
      await page.setViewportSize({ width: 390, height: 844 });
      const account = page.getByRole("combobox", { name: L.account });
      await expect(account).toBeVisible();
      await expect(account).toHaveValue(org);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
      await atPhoneAndDesk(page, `company-dashboard-${lang}`);
      await account.selectOption({ label: L.personal });
      await page.getByRole("button", { name: L.switch }).click();
      await expect(page.getByRole("heading", { level: 1 })).not.toContainText(name);
      await expect(page.getByRole("combobox", { name: L.account })).toHaveValue("personal");
    });
  });
}
