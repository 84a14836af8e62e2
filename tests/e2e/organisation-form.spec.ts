/**
 * The organisation form (decision 057), in both languages at 390 and 1280 px: the
 * invoice country is the same select as the personal address, and a UK company gives its
 * own company number (no Swedish check digit); a Swedish one still needs a valid number.
 */
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { depsOf } from "../support/deps";
import { uniqueOrgNumber } from "../support/org-numbers";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";

const L = {
  en: {
    locale: "en-US",
    f: ["Organisation name", "Organisation number", "Billing email", "Street address", "Postcode", "City"],
    country: "Country",
    desk: "Lost-and-found desk contact",
    submit: "Create the organisation",
    swedishInvalid: "Enter a valid Swedish organisation number",
    taken: "An organisation with this number is already on Hittad. Ask one of its admins to invite you",
    created: "The organisation is created. You are its admin.",
  },
  sv: {
    locale: "sv-SE",
    f: ["Organisationens namn", "Organisationsnummer", "E-post för fakturor", "Gatuadress", "Postnummer", "Ort"],
    country: "Land",
    desk: "Kontakt till hittegodsdisken",
    submit: "Skapa organisationen",
    swedishInvalid: "Ange ett giltigt svenskt organisationsnummer",
    taken:
      "Det finns redan en organisation med det här numret på Hittad. Be någon av dess administratörer att bjuda in dig",
    created: "Organisationen är skapad. Du är dess administratör.",
  },
} as const;

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`organisation form (${lang})`, () => {
    test.use({ locale: s.locale });
    test.describe.configure({ timeout: 90_000 });

    test("a UK company: country from the select, its company number without a Swedish check digit", async ({
      page,
      app,
      context,
      consent,
    }) => {
      void consent;
      const user = await createUser(app.runtime, { language: lang });
      await context.addCookies([{ ...user.sessionCookie, url: app.server.url }]);
      await page.goto("/organisations/new");
      await waitForHydration(page);
      const country = page.getByLabel(s.country, { exact: true });
      await expect(country).toHaveValue("SE");
      await expectAccessible(page);
      await atPhoneAndDesk(page, `organisation-form-${lang}`);
      if (process.env.SCREENSHOTS)
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.screenshot({ path: `/tmp/shots-ux-words/organisation-form-${lang}-${width}.png`, fullPage: true });
        }
      const values = [
        `Acme ${lang} Ltd`,
        // One number makes one organisation (decision 057): each language its own.
        lang === "en" ? "01234567" : "07654321",
        `acme-${lang}@example.test`,
        "1 High Street",
        "SW1A 1AA",
        "London",
      ];
      for (const [i, label] of s.f.entries()) await page.getByLabel(label, { exact: true }).fill(values[i]!);
      await page.getByLabel(s.desk, { exact: true }).fill("Reception, +44 20 7946 0000");
      // Still Sweden: the UK number is no Swedish organisationsnummer.
      await page.getByRole("button", { name: s.submit }).click();
      await expect(page.getByText(s.swedishInvalid).first()).toBeVisible();
      await page.getByLabel(s.country, { exact: true }).selectOption("GB");
      await page.getByRole("button", { name: s.submit }).click();
      await expect(page.getByRole("status")).toHaveText(s.created);
      await expect(page.getByText(values[1]!)).toBeVisible();
    });

    test("a number another organisation has: refused beside the field, with the way to an invite", async ({
      page,
      app,
      context,
      consent,
    }) => {
      void consent;
      const first = await createUser(app.runtime, { language: lang });
      const taken = uniqueOrgNumber();
      await createOrganisation(depsOf(app.runtime), first.id, {
        name: `Först ${lang} AB`,
        orgNumber: taken,
        billingEmail: `first-${lang}@example.test`,
        invoiceStreet: "Storgatan 1",
        invoicePostcode: "903 26",
        invoiceCity: "Umeå",
        invoiceCountry: "SE",
        vatNumber: null,
        deskContact: "Reception",
      });
      const user = await createUser(app.runtime, { language: lang });
      await context.addCookies([{ ...user.sessionCookie, url: app.server.url }]);
      await page.goto("/organisations/new");
      await waitForHydration(page);
      // The same number, typed without its dash.
      const values = [
        `Andra ${lang} AB`,
        taken.replace("-", ""),
        `second-${lang}@example.test`,
        "Storgatan 2",
        "903 26",
        "Umeå",
      ];
      for (const [i, label] of s.f.entries()) await page.getByLabel(label, { exact: true }).fill(values[i]!);
      await page.getByLabel(s.desk, { exact: true }).fill("Reception");
      await page.getByRole("button", { name: s.submit }).click();
      const number = page.getByLabel(s.f[1], { exact: true });
      await expect(number).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(s.taken)).toBeVisible();
      await expect(number).toHaveValue(values[1]!);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `organisation-number-taken-${lang}`);
    });
  });
}
