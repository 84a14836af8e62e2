/**
 * Items journeys in both languages: product form → dashboard (QR code decoded from a
 * screenshot), edit, pay-now → address form → /order, the item page for owner / other /
 * anonymous, a paid item on a phone without JavaScript, the short URL, forged edits.
 */
import { devices, type Browser, type BrowserContext } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { decodeQrPng } from "../support/qr";
import { createUser } from "../support/users";
import { expect, expectAccessible, test, waitForHydration, type WorkerApp, englishOnly, walkIn } from "./fixtures";
import { depsOf } from "../support/deps";

const TEXT = {
  en: {
    locale: "en-US",
    register: "Register item",
    name: "Name",
    fee: "Finder's fee",
    type: "Type",
    contact: "Contact info",
    payLater: "Save and pay later",
    payNow: "Save and pay now",
    placeholder: "Please select one",
    mobile: "Mobile phone",
    laptop: "Laptop",
    total: "Total price: €30",
    totalMonth: "Total price: €3",
    unactivated: "You have 1 unactivated item.",
    edit: "Edit",
    nameRequired: "Please enter a name.",
    feeRequired: "Please enter a finder's fee.",
    typeRequired: "Please select a type.",
    contactRequired: "Please enter contact info.",
    errorLoad: "Error load product",
    notPaid: "This item is not paid.",
    notActivated: "This item is not activated",
    activate: "Activate",
    feeLine: "Finder's fee: €120",
    typeLine: "Type: Laptop",
    contactTitle: "Contact the owner",
    addressTitle: "My address",
    firstname: "First name",
    city: "City",
    street: "Address",
    zip: "Postal code",
    country: "Country",
    save: "Save the address in my profile",
    submitAddress: "Continue to order",
  },
  sv: {
    locale: "sv-SE",
    register: "Registrera sak",
    name: "Namn",
    fee: "Hittelön",
    type: "Typ",
    contact: "Kontaktuppgifter",
    payLater: "Spara och betala senare",
    payNow: "Spara och betala nu",
    placeholder: "Välj ett alternativ",
    mobile: "Mobiltelefon",
    laptop: "Bärbar dator",
    total: "Totalpris: 300 kr",
    totalMonth: "Totalpris: 30 kr",
    unactivated: "Du har 1 sak som inte är aktiverad.",
    edit: "Redigera",
    nameRequired: "Ange ett namn.",
    feeRequired: "Ange en hittelön.",
    typeRequired: "Välj en typ.",
    contactRequired: "Ange kontaktuppgifter.",
    errorLoad: "Saken kunde inte laddas",
    notPaid: "Den här saken är inte betald.",
    notActivated: "Saken är inte aktiverad än",
    activate: "Aktivera",
    feeLine: "Hittelön: 120 kr",
    typeLine: "Typ: Bärbar dator",
    contactTitle: "Kontakta ägaren",
    addressTitle: "Min adress",
    firstname: "Förnamn",
    city: "Ort",
    street: "Adress",
    zip: "Postnummer",
    country: "Land",
    save: "Spara adressen i min profil",
    submitAddress: "Fortsätt till beställning",
  },
} as const;

async function itemsOf(app: WorkerApp, owner: string) {
  return app.runtime.database.db
    .selectFrom("products")
    .selectAll()
    .where("owner", "=", owner)
    .orderBy("createdAt", "desc")
    .execute();
}

async function seedItem(app: WorkerApp, owner: string, lang: "en" | "sv", paid: boolean) {
  const id = await createItem(
    depsOf(app.runtime),
    owner,
    {
      name: "Grey laptop",
      findFee: 120,
      prodType: "laptop",
      contactInfo: "Call 070-111 22 33\nafter 5 pm",
      payment: "year",
      intent: "payLater",
    },
    lang,
  );
  if (paid) await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

/** A second browser context: another signed-in user, or an anonymous visitor (user: null). */
async function otherContext(
  browser: Browser,
  app: WorkerApp,
  locale: string,
  opts: { signedIn: boolean; options?: Parameters<Browser["newContext"]>[0] },
): Promise<BrowserContext> {
  const context = await browser.newContext({ ...opts.options, locale, baseURL: app.server.url });
  await context.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
  if (opts.signedIn) {
    const other = await createUser(app.runtime);
    await context.addCookies([{ ...other.sessionCookie, url: app.server.url }]);
  }
  return context;
}

// Journeys of several pages with axe on each: give them room on a shared 2-core machine.
test.describe.configure({ timeout: 60_000 });

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];

  test.describe(`items in ${lang}`, () => {
    test.use({ locale: T.locale });

    walkIn("en", lang)(
      "register a product (save later), see its card with a QR code of its URL, then edit it",
      async ({ page, app, user, consent }) => {
        void consent;
        await page.goto("/product/register");
        await expect(page.getByRole("heading", { level: 1, name: T.register })).toBeVisible();
        await expect(page.getByLabel(T.type)).toHaveValue("");
        await expect(page.locator("#product-prodType option").first()).toHaveText(T.placeholder);
        await expect(page.getByText(T.total)).toBeVisible();
        await expectAccessible(page);
        await waitForHydration(page);
        // Monthly (with the 6-month asterisk) changes the total.
        await page.locator("#product-payment-month").check();
        await expect(page.getByText(T.totalMonth)).toBeVisible();
        await page.locator("#product-payment-year").check();
        await page.getByLabel(T.name).fill("My phone");
        await page.getByLabel(new RegExp(T.fee)).fill("250");
        await page.getByLabel(T.type).selectOption("mobile");
        await page.getByLabel(T.contact).fill("Call me\n070-000 00 00");
        await page.getByRole("button", { name: T.payLater }).click();

        await expect(page).toHaveURL(/\/dashboard$/);
        const [item] = await itemsOf(app, user.id);
        expect(item).toMatchObject({ name: "My phone", findFee: 250, currency: lang === "sv" ? "SEK" : "EUR" });
        const card = page.getByRole("article", { name: "My phone" });
        await expect(card).toContainText(T.mobile);
        await expect(card).toContainText(lang === "sv" ? "250 kr" : "€250");
        await expect(card.locator(".contact-info")).toHaveText("Call me\n070-000 00 00");
        await expect(page.getByText(T.unactivated)).toBeVisible();
        await expect(
          page.getByRole("link", { name: lang === "sv" ? "Aktivera saker" : "Activate items" }).first(),
        ).toHaveAttribute("href", "/order");
        const qr = card.locator("img.item-qr");
        await expect(qr).toHaveJSProperty("complete", true);
        expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
        // decoding="async": loaded is not yet drawn; the camera's view is the drawn one.
        await qr.evaluate((img: HTMLImageElement) => img.decode());
        expect(decodeQrPng(await qr.screenshot())).toBe(`${app.server.url}/${item!.id}`);
        await expectAccessible(page);

        await card.getByRole("link", { name: new RegExp(T.edit) }).click();
        await expect(page).toHaveURL(new RegExp(`/product/edit/${item!.id}$`));
        await expect(page.getByLabel(T.name)).toHaveValue("My phone");
        await expect(page.getByLabel(T.type)).toHaveValue("mobile");
        await expectAccessible(page);
        await page.getByLabel(T.name).fill("My old phone");
        await page.getByRole("button", { name: T.payLater }).click();
        await expect(page).toHaveURL(/\/dashboard$/);
        await expect(page.getByRole("article", { name: "My old phone" })).toBeVisible();
      },
    );

    test("validation messages appear next to the fields and the input is kept", async ({
      page,
      user,
      consent,
      app,
    }) => {
      void consent;
      await page.goto("/product/register");
      await waitForHydration(page);
      await page.getByLabel(T.name).fill("   ");
      await page.getByRole("button", { name: T.payLater }).click();
      for (const m of [T.nameRequired, T.feeRequired, T.typeRequired, T.contactRequired]) {
        await expect(page.getByText(m)).toBeVisible();
      }
      await expect(page.getByLabel(T.name)).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page);
      await page.getByLabel(T.name).fill("Kept");
      await page.getByLabel(T.contact).fill("x".repeat(10));
      await page.getByRole("button", { name: T.payLater }).click();
      await expect(page.getByText(T.feeRequired)).toBeVisible();
      await expect(page.getByLabel(T.name)).toHaveValue("Kept");
      expect(await itemsOf(app, user.id)).toHaveLength(0);
    });

    test("the Triple's three items on one page: a wrong block saves none and keeps every block", async ({
      page,
      user,
      consent,
      app,
    }) => {
      void consent;
      await page.goto("/product/register?package=tripple");
      await waitForHydration(page);
      for (const n of [1, 2, 3]) {
        if (n !== 3) await page.locator(`#triple-${n}-name`).fill(`Thing ${n}`);
        await page.locator(`#triple-${n}-findFee`).fill("100");
        await page.locator(`#triple-${n}-prodType`).selectOption("other");
        await page.locator(`#triple-${n}-contactInfo`).fill(`Call 070-00${n}`);
      }
      await page.locator(".triple-form button[type=submit]").click();
      await expect(page.locator("#triple-3-name")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("alert")).toBeFocused();
      await expect(page.locator("#triple-2-name")).toHaveValue("Thing 2");
      await expect(page.locator("#triple-3-contactInfo")).toHaveValue("Call 070-003");
      expect(await itemsOf(app, user.id)).toHaveLength(0);
      await expectAccessible(page);
      if (process.env.SCREENSHOTS)
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 844 });
          await page.screenshot({ path: `/tmp/triple-shots/triple-${lang}-${width}.png`, fullPage: true });
        }
      await page.locator("#triple-3-name").fill("Thing 3");
      await page.locator(".triple-form button[type=submit]").click();
      await expect(page).toHaveURL(/\/(order|user\/register-adress)$/);
      expect(await itemsOf(app, user.id)).toHaveLength(3);
    });

    test.describe("without JavaScript", () => {
      test.use({ javaScriptEnabled: false });

      englishOnly(lang)(
        "pay now goes to the address form, which keeps the address and continues to /order",
        async ({ page, app, user, consent }) => {
          void consent;
          await page.goto("/product/register");
          await page.getByLabel(T.name).fill("Bag");
          await page.getByLabel(new RegExp(T.fee)).fill("10");
          await page.getByLabel(T.type).selectOption("other");
          await page.getByLabel(T.contact).fill("bag@example.test");
          await page.getByRole("button", { name: T.payNow }).click();

          await expect(page).toHaveURL(/\/user\/register-adress\?item=\w+$/);
          await expect(page.getByRole("heading", { level: 1, name: T.addressTitle })).toBeVisible();
          await expect(page.getByLabel(T.firstname)).toHaveValue(user.name.split(" ")[0]!);
          await expect(page.getByLabel("E-post").or(page.getByLabel("Email"))).toHaveValue(user.email);
          await page.getByLabel(T.street, { exact: true }).fill("Avenyn 1");
          await page.getByLabel(T.zip).fill("411 36");
          await page.getByLabel(T.city).fill("Göteborg");
          // A select since decision 032, Sweden first and chosen by default.
          await expect(page.getByLabel(T.country)).toHaveValue("SE");
          await page.getByLabel(T.save).check();
          await page.getByRole("button", { name: T.submitAddress }).click();
          await expect(page).toHaveURL(/\/order\?item=\w+$/);

          const [item] = await itemsOf(app, user.id);
          const draft = await app.runtime.database.db
            .selectFrom("order_drafts")
            .selectAll()
            .where("userId", "=", user.id)
            .executeTakeFirstOrThrow();
          expect(draft.buy).toBe(item!.id);
          expect(JSON.parse(draft.adress!)).toMatchObject({ city: "Göteborg", email: user.email });
          const saved = await app.runtime.database.db
            .selectFrom("user")
            .select("adress")
            .where("id", "=", user.id)
            .executeTakeFirstOrThrow();
          expect(JSON.parse(saved.adress!)).toMatchObject({ city: "Göteborg" });
        },
      );
    });

    englishOnly(lang)(
      "the address form is prefilled from the user's name and email and is accessible",
      async ({ page, user, consent }) => {
        void consent;
        await page.goto("/user/register-adress");
        await expect(page.getByRole("heading", { level: 1, name: T.addressTitle })).toBeVisible();
        await expect(page.getByLabel(T.firstname)).toHaveValue(user.name.split(" ")[0]!);
        await expect(page.getByRole("checkbox", { name: T.save })).not.toBeChecked();
        await expectAccessible(page);
      },
    );

    test("an unpaid item: its owner sees the 'not activated' warning with an Activate link to /order", async ({
      page,
      app,
      user,
      consent,
    }) => {
      void consent;
      const id = await seedItem(app, user.id, lang, false);
      await page.goto(`/product/${id}`);
      await expect(page.getByText(T.notActivated)).toBeVisible();
      await expect(page.getByRole("link", { name: T.activate, exact: true })).toHaveAttribute("href", "/order");
      await expect(page.getByRole("heading", { level: 1, name: "Grey laptop" })).toBeVisible();
      await expectAccessible(page);
    });

    for (const signedIn of [true, false]) {
      englishOnly(lang)(
        `an unpaid item: ${signedIn ? "another signed-in user" : "an anonymous visitor"} sees only 'not paid'`,
        async ({ app, browser }) => {
          const owner = await createUser(app.runtime);
          const id = await seedItem(app, owner.id, lang, false);
          const context = await otherContext(browser, app, T.locale, { signedIn });
          const other = await context.newPage();
          await other.goto(`/product/${id}`);
          await expect(other.getByRole("heading", { level: 1 })).toHaveText(T.notPaid);
          await expect(other.locator("main")).not.toContainText("Grey laptop");
          await expect(other.locator("main")).not.toContainText("070-111");
          await expect(other.locator("main")).not.toContainText(T.activate);
          await expectAccessible(other);
          await context.close();
        },
      );
    }

    englishOnly(lang)(
      "a paid item is shown in full to an anonymous phone without JavaScript",
      async ({ app, user, browser }) => {
        const id = await seedItem(app, user.id, lang, true);
        const context = await otherContext(browser, app, T.locale, {
          signedIn: false,
          options: { ...devices["Pixel 7"], javaScriptEnabled: false },
        });
        const phone = await context.newPage();
        for (const path of [`/product/${id}`, `/${id}`]) {
          const res = await phone.goto(path);
          expect(res!.status()).toBe(200);
          await expect(phone.getByText(T.feeLine)).toBeVisible();
          await expect(phone.getByRole("heading", { level: 1, name: "Grey laptop" })).toBeVisible();
          await expect(phone.getByText(T.typeLine)).toBeVisible();
          await expect(phone.getByRole("heading", { level: 2, name: T.contactTitle })).toBeVisible();
          // Line breaks kept (white-space: pre-line), as text.
          await expect(phone.locator(".contact-info")).toHaveText("Call 070-111 22 33\nafter 5 pm");
          expect(await phone.locator(".contact-info").evaluate((el) => getComputedStyle(el).whiteSpace)).toBe(
            "pre-line",
          );
          expect(await phone.locator(".contact-info").innerText()).toContain("\n");
        }
        await context.close();
        // axe needs JavaScript: check the same page on a phone with it.
        const withJs = await otherContext(browser, app, T.locale, { signedIn: false, options: devices["Pixel 7"] });
        const checked = await withJs.newPage();
        await checked.goto(`/${id}`);
        await expect(checked.getByRole("heading", { level: 1, name: "Grey laptop" })).toBeVisible();
        await expectAccessible(checked);
        await withJs.close();
      },
    );

    englishOnly(lang)(
      "the address bar becomes the short /{id} 400 ms after load, and reloading it shows the page",
      async ({ page, app, user }) => {
        const id = await seedItem(app, user.id, lang, true);
        // Time stands still until the test moves it, so the 400 ms are measured exactly.
        const start = new Date("2026-01-01T12:00:00Z");
        await page.clock.install({ time: start });
        await page.clock.pauseAt(new Date(start.getTime() + 1000));
        await page.goto(`/product/${id}`);
        await waitForHydration(page);
        await page.clock.runFor(350);
        expect(new URL(page.url()).pathname).toBe(`/product/${id}`);
        await page.clock.runFor(100);
        await expect(page).toHaveURL(new RegExp(`/${id}$`));
        expect(new URL(page.url()).pathname).toBe(`/${id}`);
        const res = await page.reload();
        expect(res!.status()).toBe(200);
        expect(new URL(page.url()).pathname).toBe(`/${id}`);
        await expect(page.getByText(T.feeLine)).toBeVisible();
        await expect(page.getByRole("heading", { level: 1, name: "Grey laptop" })).toBeVisible();
      },
    );

    englishOnly(lang)(
      "editing another user's item is refused: 'Error load product' on the dashboard, forged POST changes nothing",
      async ({ page, app, user, consent }) => {
        void consent;
        void user;
        const owner = await createUser(app.runtime);
        const id = await seedItem(app, owner.id, lang, false);
        await page.goto(`/product/edit/${id}`);
        await expect(page).toHaveURL(/\/dashboard$/);
        await expect(page.getByRole("alert")).toHaveText(T.errorLoad);
        await expectAccessible(page);
        await page.reload();
        await expect(page.getByText(T.errorLoad)).toHaveCount(0);

        const res = await page.request.post(`/product/edit/${id}`, {
          form: { name: "Hacked", findFee: "1", prodType: "other", contactInfo: "x", intent: "payLater" },
          headers: { Origin: app.server.url },
          maxRedirects: 0,
        });
        expect(res.status()).toBe(404);
        const [item] = await itemsOf(app, owner.id);
        expect(item!.name).toBe("Grey laptop");
      },
    );
  });
}

/** 60 items straight into the database: every 10th a "Blue bag", every 3rd a laptop, every 2nd unpaid. */
async function seedMany(app: WorkerApp, owner: string) {
  const now = Date.now();
  const types = ["mobile", "laptop", "other"] as const;
  const rows = Array.from({ length: 60 }, (_, i) => ({
    id: `Pg${owner.slice(0, 4)}${String(i).padStart(4, "0")}`.slice(0, 10),
    code: `PG${owner.slice(0, 3).toUpperCase()}${String(i).padStart(4, "0")}`,
    owner,
    name: i % 10 === 0 ? `Blue bag ${i}` : `Item ${i}`,
    findFee: 100,
    currency: "EUR",
    prodType: types[i % 3]!,
    contactInfo: "Desk",
    payment: "year",
    payed: i % 2 ? 1 : 0,
    paidUntil: null,
    createdAt: now - i * 1000,
    updatedAt: now - i * 1000,
  }));
  await app.runtime.database.db.insertInto("products").values(rows).execute();
}

// Decision 021: a dashboard of many items is filtered and paged on the server, by a GET form
// and plain links (English: the filter; Swedish: the page links).
test.describe("dashboard with many items", () => {
  test("en: filter by name and type, then clear the filter", async ({ page, app, user, consent }) => {
    void consent;
    await seedMany(app, user.id);
    await page.goto("/dashboard");
    await waitForHydration(page);
    await expect(page.getByText("Showing 1–24 of 60 items.")).toBeVisible();
    await expect(page.getByText("You have 30 unactivated items.")).toBeVisible();
    await page.getByLabel("Name contains").fill("blue bag");
    await page.getByLabel("Type", { exact: true }).selectOption("laptop");
    await page.getByRole("button", { name: "Show" }).click();
    // A GET form sends its empty fields too (paid=): the server reads them as "any".
    await expect(page).toHaveURL(/\/dashboard\?q=blue\+bag&type=laptop&paid=$/);
    // Blue bags 10, 40 are laptops (i % 3 === 1).
    await expect(page.getByText("2 of your 60 items match.")).toBeVisible();
    await expect(page.locator("article.item-card h2")).toHaveText(["Blue bag 10", "Blue bag 40"]);
    await expectAccessible(page);
    await page.getByRole("link", { name: "Clear the filter" }).first().click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByLabel("Name contains")).toHaveValue("");
    await expect(page.locator("article.item-card")).toHaveCount(24);
  });

  test("sv: page links without JavaScript keep the filter", async ({ browser, app }) => {
    const owner = await createUser(app.runtime, { language: "sv" });
    await seedMany(app, owner.id);
    const context = await browser.newContext({ javaScriptEnabled: false, locale: "sv-SE" });
    await context.addCookies([
      { ...owner.sessionCookie, url: app.server.url },
      { name: "ConsentApproved", value: "true", url: app.server.url },
    ]);
    const page = await context.newPage();
    await page.goto(`${app.server.url}/dashboard`);
    await page.getByLabel("Betalning").selectOption("unpaid");
    await page.getByRole("button", { name: "Visa" }).click();
    await expect(page.getByText("30 av dina 60 saker matchar.")).toBeVisible();
    const pages = page.getByRole("navigation", { name: "Sidor" });
    await pages.getByRole("link", { name: "Nästa" }).click();
    await expect(page).toHaveURL(/\/dashboard\?paid=unpaid&page=2$/);
    await expect(page.getByText("Visar 25–30 av 30 saker.")).toBeVisible();
    await expect(page.locator("article.item-card")).toHaveCount(6);
    await expect(pages.getByRole("link", { name: "Sida 2" })).toHaveAttribute("aria-current", "page");
    await context.close();
  });
});

// Decision 032: the dashboard on a phone was a wall of about 4,300 px for four items
// (six buttons and every field per card). A card keeps its QR code, name, status badges,
// View, Edit and Mark as lost; the owner's view of the item manages the rest.
for (const lang of ["en", "sv"] as const) {
  test(`${lang}: four items on a phone dashboard stay short; the owner's item view manages the rest`, async ({
    browser,
    app,
  }) => {
    const owner = await createUser(app.runtime, { name: "Kort Kortsson", language: lang });
    const ids: string[] = [];
    for (const name of ["Black phone", "Red bike", "House keys", "Work laptop"]) {
      const id = await createItem(
        depsOf(app.runtime),
        owner.id,
        {
          name,
          findFee: 250,
          prodType: "other",
          contactInfo: "Call 070-555 66 77 after 5 pm,\nor write to me: kort@example.test",
          payment: "year",
          intent: "payLater",
        },
        lang,
      );
      ids.push(id);
    }
    await app.runtime.database.db
      .updateTable("products")
      .set({ payed: 1, paidUntil: Date.parse("2099-01-01T00:00:00Z") })
      .where("id", "in", ids)
      .execute();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: TEXT[lang].locale });
    await context.addCookies([
      { ...owner.sessionCookie, url: app.server.url },
      { name: "ConsentApproved", value: "true", url: app.server.url },
    ]);
    const page = await context.newPage();
    await page.goto(`${app.server.url}/dashboard`);
    await waitForHydration(page);
    const cards = page.locator("article.item-card");
    await expect(cards).toHaveCount(4);
    for (const card of await cards.all()) {
      // View, Edit, Mark as lost: nothing else to tap on a card.
      expect(await card.locator("a, button").count()).toBeLessThanOrEqual(3);
    }
    const list = (await page.locator("ul:has(> li > article.item-card)").boundingBox())!;
    // Measured at about 1,000 px with the diet; without it the four cards took over 2,400.
    expect(list.height).toBeLessThan(1400);
    await expectAccessible(page);
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `test-results/screens/dashboard-diet-${lang}-390.png`, fullPage: true });

    // The card's View opens the owner's view: edit, replace, switch off and delete live there.
    await cards
      .first()
      .getByRole("link", { name: lang === "sv" ? /^Visa / : /^View / })
      .click();
    await expect(
      page.getByRole("heading", { level: 2, name: lang === "sv" ? "Hantera din sak" : "Manage your item" }),
    ).toBeVisible();
    const manage = page.locator(".item-manage");
    await expect(manage.getByRole("link", { name: lang === "sv" ? "Redigera saken" : "Edit item" })).toBeVisible();
    await expect(
      manage.getByRole("link", { name: lang === "sv" ? "Ersätt klistermärket" : "Replace sticker" }),
    ).toBeVisible();
    await expect(manage.getByRole("link", { name: lang === "sv" ? "Radera sak" : "Delete item" })).toBeVisible();
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `test-results/screens/owner-item-${lang}-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `test-results/screens/owner-item-${lang}-390.png`, fullPage: true });
    await page.goto(`${app.server.url}/dashboard`);
    await page.setViewportSize({ width: 1280, height: 800 });
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `test-results/screens/dashboard-diet-${lang}-1280.png`, fullPage: true });
    await context.close();
  });
}
