/**
 * Lawful to sell, in both languages: staff look up a handed-in item's owner
 * from the admin menu and the look-up is logged on the page; an organisation admin sees and
 * accepts the data processing agreement (the refusal of an invite before it is walked in
 * companies.spec.ts); the privacy notice and the seller section are readable at 390 and
 * 1280 px and axe clean; a consumer pays in test mode asking for the service to start at once,
 * withdraws from the order list within 14 days, and the subscription ends with the refund
 * recorded and mailed (decision 041). Screenshots with SCREENSHOTS=1.
 */
import { grantAdmin } from "../../app/server/admin/admin.repository.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";
import { ADDRESS } from "../support/service-fixtures";
import { uniqueOrgNumber } from "../support/org-numbers";

const TEXTS = {
  en: {
    locale: "en-GB",
    menu: "Look up an item",
    title: "Look up a handed-in item",
    field: "Sticker code or item id",
    submit: "Look up",
    found: "Item found",
    dpa: "Data processing agreement",
    tick: (org: string) =>
      `I have read the agreement and accept it on behalf of ${org}, which I am authorised to represent.`,
    accept: "Accept the agreement",
    accepted: "The data processing agreement is accepted. You can now invite members and import items.",
    privacy: "Privacy policy",
    creditNotes: "credit notes",
    orgNr: "Org. no. 559000-0000",
    seller: "About the seller",
    goPay: "Go to payment",
    pay: "Complete test payment",
    tickError: "Tick the box to ask for the service to start at once",
    withdrawLink: /Withdraw \(until /,
    withdrawTitle: "Withdraw from the purchase",
    confirm: /Withdraw and refund /,
    withdrawn: "You have withdrawn from the order.",
    mailSubject: "You have withdrawn from your order",
  },
  sv: {
    locale: "sv-SE",
    menu: "Slå upp en sak",
    title: "Slå upp en inlämnad sak",
    field: "Klistermärkets kod eller sakens id",
    submit: "Slå upp",
    found: "Saken hittades",
    dpa: "Personuppgiftsbiträdesavtal",
    tick: (org: string) => `Jag har läst avtalet och godkänner det för ${org}, som jag har rätt att företräda.`,
    accept: "Godkänn avtalet",
    accepted: "Personuppgiftsbiträdesavtalet är godkänt. Nu kan du bjuda in medlemmar och importera saker.",
    privacy: "Integritetspolicy",
    creditNotes: "kreditfakturor",
    orgNr: "Org.nr 559000-0000",
    seller: "Om säljaren",
    goPay: "Till betalning",
    pay: "Slutför testbetalningen",
    tickError: "Kryssa i rutan och begär att tjänsten börjar direkt",
    withdrawLink: /Ångra köpet \(till och med /,
    withdrawTitle: "Ångra köpet",
    confirm: /Ångra köpet och få tillbaka /,
    withdrawn: "Du har ångrat beställningen.",
    mailSubject: "Du har ångrat din beställning",
  },
} as const;

for (const lang of ["en", "sv"] as const) {
  const T = TEXTS[lang];
  test.describe(`lawful to sell (${lang})`, () => {
    test.use({ locale: T.locale });

    test("staff look up a handed-in item by its typed code and see the owner; the look-up is logged", async ({
      page,
      context,
      app,
      consent: _consent,
    }) => {
      const owner = await createUser(app.runtime, { name: "Olle Owner", language: lang });
      const itemId = await createItem(
        depsOf(app.runtime),
        owner.id,
        {
          name: "Blue backpack",
          findFee: 100,
          prodType: "other",
          contactInfo: "070-111 22 33",
          payment: "year",
          intent: "payLater",
        },
        lang,
      );
      const { code } = await app.runtime.database.db
        .selectFrom("products")
        .select("code")
        .where("id", "=", itemId)
        .executeTakeFirstOrThrow();
      const adminEmail = `lookup-${lang}-${owner.id.slice(0, 6).toLowerCase()}@example.test`;
      await grantAdmin(app.runtime.database.db, adminEmail);
      const admin = await createUser(app.runtime, { name: "Staff Member", email: adminEmail, language: lang });
      await context.addCookies([{ ...admin.sessionCookie, url: app.server.url }]);
      await page.goto("/dashboard");
      await waitForHydration(page);
      await page.locator("header .dropdown-toggle").first().click();
      await page.getByRole("link", { name: T.menu }).click();
      await expect(page.getByRole("heading", { level: 1, name: T.title })).toBeVisible();
      await waitForHydration(page);
      // Typed as a person reads it off a sticker: lower case, with spaces.
      await page.getByLabel(T.field).fill(`${code.slice(0, 3).toLowerCase()} ${code.slice(3, 6)} ${code.slice(6)}`);
      await page.getByRole("button", { name: T.submit }).click();
      await expect(page.getByRole("heading", { name: T.found })).toBeVisible();
      await expect(page.locator(".lookup-result")).toContainText(owner.email);
      await expect(page.locator(".lookup-result")).toContainText("070-111 22 33");
      await expect(page.locator(".lookup-log")).toContainText(adminEmail);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `lawful-lookup-${lang}`);
    });

    test("an organisation admin reads and accepts the data processing agreement", async ({
      page,
      app,
      user,
      consent: _consent,
    }) => {
      const name = `Avtal ${lang} AB`;
      const org = await createOrganisation(depsOf(app.runtime), user.id, {
        name,
        orgNumber: uniqueOrgNumber(),
        billingEmail: `billing-${lang}@example.test`,
        invoiceStreet: "Storgatan 1",
        invoicePostcode: "90326",
        invoiceCity: "Umeå",
        invoiceCountry: "SE",
        vatNumber: null,
        deskContact: "Reception",
      });
      await page.goto(`/organisations/${org}`);
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 2, name: T.dpa })).toBeVisible();
      await expectAccessible(page);
      await atPhoneAndDesk(page, `lawful-dpa-${lang}`);
      await page.getByLabel(T.tick(name), { exact: true }).check();
      await page.getByRole("button", { name: T.accept }).click();
      await expect(page.getByRole("status")).toHaveText(T.accepted);
      await expect(page.locator("[data-dpa=accepted]")).toContainText(user.email);
      await atPhoneAndDesk(page, `lawful-dpa-accepted-${lang}`);
    });

    test("a consumer pays asking to start at once, withdraws within 14 days, and the refund is recorded and mailed", async ({
      page,
      context,
      app,
      consent: _consent,
    }) => {
      const owner = await createUser(app.runtime, { name: "Wilma Withdraw", language: lang });
      const deps = depsOf(app.runtime);
      await keepOrderAddress(
        deps,
        owner.id,
        { ...ADDRESS, firstname: "Wilma", lastname: "Withdraw", email: owner.email },
        false,
      );
      const itemId = await createItem(
        deps,
        owner.id,
        {
          name: "Green bike",
          findFee: 100,
          prodType: "other",
          contactInfo: "070-1",
          payment: "year",
          intent: "payLater",
        },
        lang,
      );
      await context.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);

      // The checkout states the right and refuses to go on without the request to start at once.
      await page.goto("/order");
      await waitForHydration(page);
      // Who sells, in full and unfolded before the purchase (decision 057): the demo's example seller.
      const seller = page.getByTestId("checkout-seller");
      await expect(seller.getByText(T.orgNr)).toBeVisible();
      await expect(seller.getByText("Exempelgatan 1")).toBeVisible();
      await expect(seller.getByRole("link", { name: "seller@example.com" })).toBeVisible();
      await page.getByRole("button", { name: T.goPay }).click();
      await expect(page.locator("#order-immediate-start-error")).toContainText(T.tickError);
      await expect(page.locator("#order-immediate-start")).toBeFocused();
      await expectAccessible(page);
      await atPhoneAndDesk(page, `lawful-checkout-${lang}`);
      await page.locator("#order-immediate-start").check();
      await page.getByRole("button", { name: T.goPay }).click();
      // The test provider's checkout names the seller the same way.
      await expect(page.getByTestId("checkout-seller").getByText(T.orgNr)).toBeVisible();
      await atPhoneAndDesk(page, `lawful-test-checkout-${lang}`);
      await page.getByRole("button", { name: T.pay }).click();
      await expect(page).toHaveURL(/\/order\/complete\//);
      const orderId = page.url().split("/").pop()!;

      // From the dashboard's order list to the withdraw page.
      await page.goto("/dashboard");
      await page.getByRole("link", { name: T.withdrawLink }).click();
      await expect(page).toHaveURL(new RegExp(`/order/${orderId}/withdraw$`));
      await expect(page.getByRole("heading", { level: 1, name: T.withdrawTitle })).toBeVisible();
      await expect(page.locator(".withdraw-items")).toContainText("Green bike");
      await expectAccessible(page);
      await atPhoneAndDesk(page, `lawful-withdraw-${lang}`);
      await page.getByRole("button", { name: T.confirm }).click();

      // Done: the dashboard confirms, the item is no longer active, the refund is on the order and in a mail.
      await expect(page).toHaveURL(/\/dashboard\?billing=withdrawn/);
      await expect(page.getByRole("alert").filter({ hasText: T.withdrawn })).toBeVisible();
      await expect(page.getByRole("link", { name: T.withdrawLink })).toHaveCount(0);
      const db = app.runtime.database.db;
      const row = await db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
      expect(Number(row.refundAmount)).toBe(Number(row.totalAmount));
      expect(row.refundedAt).not.toBeNull();
      expect(Number(row.renewing)).toBe(0);
      const item = await db.selectFrom("products").select("payed").where("id", "=", itemId).executeTakeFirstOrThrow();
      expect(Number(item.payed)).toBe(0);
      const mail = await db
        .selectFrom("mail_outbox")
        .select(["subject", "text"])
        .where("to", "=", owner.email)
        .where("subject", "=", T.mailSubject)
        .executeTakeFirst();
      expect(mail?.text).toContain("Green bike");
      // Withdrawn: a later visit shows what happened, with nothing left to confirm (decision 051).
      const again = await page.goto(`/order/${orderId}/withdraw`);
      expect(again?.status()).toBe(200);
      await expect(page.locator(".withdraw-refund")).toHaveAttribute("data-refund", String(row.refundAmount));
      await expect(page.locator(".withdraw-items")).toContainText("Green bike");
      await expect(page.getByRole("button", { name: T.confirm })).toHaveCount(0);
    });

    test("the privacy notice and the seller section read well on a phone and a desk", async ({
      page,
      consent: _consent,
    }) => {
      await page.goto("/privacy");
      await expect(page.getByRole("heading", { level: 1, name: T.privacy })).toBeVisible();
      // Credit notes are bookkeeping records like receipts (decision 051): named where the
      // notice says what is kept and for how long.
      await expect(page.locator('tr[data-retention="orders"]')).toContainText(T.creditNotes);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `lawful-privacy-${lang}`);
      await page.goto("/terms");
      await expect(page.getByRole("heading", { name: T.seller })).toBeVisible();
      await expectAccessible(page);
      await atPhoneAndDesk(page, `lawful-terms-seller-${lang}`);
    });
  });
}
