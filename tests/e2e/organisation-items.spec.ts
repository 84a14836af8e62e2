/**
 * Organisation items end to end (issue #20 point 2, decision 026): an admin assigns an item
 * to a member on the product form and the dashboard card says so; a finder without
 * JavaScript reaches the organisation's lost-and-found desk from the item page and writes;
 * the assigned member and the admin both find the message in their inbox. Axe on every
 * page; nothing wider than a phone; with SCREENSHOTS=1 each page at 390 and 1280 px.
 */
import { type Browser } from "@playwright/test";
import { SCOPE_COOKIE } from "../../app/lib/organisation-roles";
import { createItem } from "../../app/server/items/items.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration, walkIn, type WorkerApp } from "./fixtures";

const L = {
  en: {
    locale: "en-US",
    assignLabel: "Assigned to",
    update: "Update info",
    desk: "Contact the lost-and-found desk of",
    message: "Your message",
    send: "Send message",
    sent: "Your message has been sent to the owner.",
  },
  sv: {
    locale: "sv-SE",
    assignLabel: "Tilldelad",
    update: "Uppdatera uppgifterna",
    desk: "Kontakta hittegodsmottagningen hos",
    message: "Ditt meddelande",
    send: "Skicka meddelande",
    sent: "Ditt meddelande har skickats till ägaren.",
  },
} as const;

async function finderContext(browser: Browser, app: WorkerApp, locale: string) {
  const ctx = await browser.newContext({
    baseURL: app.server.url,
    viewport: { width: 390, height: 844 },
    javaScriptEnabled: false,
    locale,
  });
  await ctx.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
  return ctx;
}

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`organisation items (${lang})`, () => {
    test.use({ locale: s.locale });
    test.describe.configure({ timeout: 120_000 });

    walkIn("sv", lang)(
      "an admin assigns an item to a member; a finder writes to the desk; the member and the admin both see it",
      async ({ browser, app, page, context, consent }) => {
        void consent;
        const deps = depsOf(app.runtime);
        const admin = await createUser(app.runtime, { name: `Alva Admin ${lang}`, language: lang });
        const member = await createUser(app.runtime, { name: `Max Member ${lang}`, language: lang });
        const org = await createOrganisation(deps, admin.id, {
          name: `Acme ${lang} AB`,
          orgNumber: "556036-0793",
          billingEmail: "billing@acme.example",
          invoiceStreet: "Storgatan 1",
          invoicePostcode: "903 26",
          invoiceCity: "Umeå",
          invoiceCountry: "SE",
          vatNumber: null,
          deskContact: "Reception, floor 1 – 090-123 45, hittegods@acme.example",
        });
        await app.runtime.database.db
          .insertInto("organisation_members")
          .values({ organisationId: org, userId: member.id, role: "member", createdAt: Date.now() })
          .execute();
        const item = await createItem(
          deps,
          admin.id,
          {
            name: `Fleet laptop ${lang}`,
            findFee: 300,
            prodType: "laptop",
            contactInfo: `personal-070-SECRET-${lang}`,
            payment: "year",
            intent: "payLater",
          },
          lang,
          org,
        );
        await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", item).execute();
        await context.addCookies([
          { ...admin.sessionCookie, url: app.server.url },
          { name: SCOPE_COOKIE, value: org, url: app.server.url },
        ]);

        // The admin assigns the item to the member on the product form.
        await page.goto(`/product/edit/${item}`);
        await waitForHydration(page);
        await page.getByLabel(s.assignLabel).selectOption({ label: member.name });
        await expectAccessible(page);
        await atPhoneAndDesk(page, `orgitems-form-${lang}`);
        await page.getByRole("button", { name: s.update }).click();
        await expect(page).toHaveURL(/\/dashboard$/);
        const card = page.locator(".item-card", { hasText: `Fleet laptop ${lang}` });
        await expect(card.locator(".item-assignee")).toHaveText(member.name);
        await expectAccessible(page);
        await atPhoneAndDesk(page, `orgitems-dashboard-${lang}`);

        // A finder on a phone without JavaScript: the desk, never the person's contact.
        const phone = await finderContext(browser, app, s.locale);
        const finder = await phone.newPage();
        await finder.goto(`/${item}`);
        await expect(finder.getByRole("heading", { level: 2, name: `${s.desk} Acme ${lang} AB` })).toBeVisible();
        await expect(finder.getByText("hittegods@acme.example")).toBeVisible();
        await expect(finder.locator("body")).not.toContainText(`personal-070-SECRET-${lang}`);
        await atPhoneAndDesk(finder, `orgitems-finder-${lang}`);
        await finder.getByLabel(s.message).fill(`Found by the lifts (${lang})`);
        await finder.getByRole("button", { name: s.send }).click();
        await expect(finder.getByRole("status")).toHaveText(s.sent);
        await phone.close();

        // The desk (the admin) and the assigned member both have it in their inbox.
        await page.goto("/messages");
        await waitForHydration(page);
        await expect(page.getByText(`Found by the lifts (${lang})`)).toBeVisible();
        await expectAccessible(page);
        await atPhoneAndDesk(page, `orgitems-desk-inbox-${lang}`);
        await context.clearCookies();
        await context.addCookies([
          { name: "ConsentApproved", value: "true", url: app.server.url },
          { ...member.sessionCookie, url: app.server.url },
        ]);
        await page.goto("/messages");
        await expect(page.getByText(`Found by the lifts (${lang})`)).toBeVisible();
      },
    );
  });
}
