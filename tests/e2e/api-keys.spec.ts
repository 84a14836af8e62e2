/**
 * An organisation's API keys (decision 054) in both languages: its admin opens them from
 * the organisation's page, makes a read-write key, sees it once, calls the API with it,
 * revokes it (the focus on the message that says so) and the next call is refused; then
 * reads the API reference. Axe; screenshots with SCREENSHOTS=1.
 */
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { depsOf } from "../support/deps";
import { uniqueOrgNumber } from "../support/org-numbers";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";

const TEXT = {
  en: {
    locale: "en-US",
    open: "Manage API keys",
    title: (org: string) => `API keys of ${org}`,
    name: "Name",
    readWrite: "Read and write",
    make: "Make key",
    created: "Your new key “Snipe-IT sync”",
    label: "API key",
    revoke: "Revoke the key “Snipe-IT sync”",
    revoked: "The key is revoked.",
    docs: "Read the API reference",
    docsTitle: "Hittad API reference",
  },
  sv: {
    locale: "sv-SE",
    open: "Hantera API-nycklar",
    title: (org: string) => `API-nycklar för ${org}`,
    name: "Namn",
    readWrite: "Läsa och skriva",
    make: "Skapa nyckel",
    created: "Din nya nyckel ”Snipe-IT sync”",
    label: "API-nyckel",
    revoke: "Återkalla nyckeln ”Snipe-IT sync”",
    revoked: "Nyckeln är återkallad.",
    docs: "Läs API-referensen",
    docsTitle: "Hittads API-referens",
  },
} as const;

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];
  test.describe(`API keys (${lang})`, () => {
    test.use({ locale: T.locale });

    test("an admin makes a key, sees it once, uses it, revokes it, and reads the reference", async ({
      app,
      context,
      page,
      consent,
    }) => {
      void consent;
      // Two pages with an axe pass each, on a shared machine.
      test.slow();
      const admin = await createUser(app.runtime, { name: "Ada Admin", language: lang });
      const orgName = `Register AB ${lang}`;
      const org = await createOrganisation(depsOf(app.runtime), admin.id, {
        name: orgName,
        orgNumber: uniqueOrgNumber(),
        billingEmail: `billing-api-${lang}@register.example`,
        invoiceStreet: "Storgatan 1",
        invoicePostcode: "903 26",
        invoiceCity: "Umeå",
        invoiceCountry: "SE",
        vatNumber: null,
        deskContact: "Reception",
      });
      await context.addCookies([{ ...admin.sessionCookie, url: app.server.url }]);

      await page.goto(`/organisations/${org}`);
      await waitForHydration(page);
      await page.getByRole("link", { name: T.open }).click();
      await expect(page.getByRole("heading", { level: 1, name: T.title(orgName) })).toBeVisible();
      await page.getByLabel(T.name, { exact: true }).fill("Snipe-IT sync");
      await page.getByLabel(T.readWrite).check();
      await page.getByRole("button", { name: T.make }).click();
      await expect(page.getByRole("heading", { level: 2, name: T.created })).toBeFocused();
      const key = await page.getByLabel(T.label, { exact: true }).inputValue();
      expect(key).toMatch(/^hit_[A-Za-z0-9_-]{43}$/);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `api-keys-${lang}`);

      const call = () =>
        fetch(`${app.server.url}/api/v1/items`, { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.status);
      expect(await call()).toBe(200);
      // Shown once: the page again lists the key by its hint only.
      await page.reload();
      await expect(page.getByText(key)).toHaveCount(0);
      await expect(page.getByText(`${key.slice(0, 8)}…`)).toBeVisible();
      await waitForHydration(page);
      await page.getByRole("button", { name: T.revoke }).click();
      await expect(page.getByText(T.revoked)).toBeVisible();
      // The revoked key's button is gone: the focus is on the message, not lost to <body>.
      await expect(page.getByRole("status").filter({ hasText: T.revoked })).toBeFocused();
      expect(await call()).toBe(401);

      await page.getByRole("link", { name: T.docs }).click();
      await expect(page.getByRole("heading", { level: 1, name: T.docsTitle })).toBeVisible();
      await expect(page.getByText("POST /api/v1/items", { exact: true })).toBeVisible();
      await expectAccessible(page);
      await atPhoneAndDesk(page, `api-docs-${lang}`);
      // On a phone the curl examples scroll sideways: each is reachable by the keyboard.
      await page.setViewportSize({ width: 390, height: 844 });
      await expectAccessible(page, { label: "the API reference at 390 px" });
    });
  });
}
