/**
 * Hittelön the Swedish way and a sticker that never stops helping a finder (decision 019),
 * one walk per language: the owner gets a suggested fee from a value; a finder without
 * JavaScript opens "Can't meet the owner?" and writes; the owner confirms "I have my item
 * back" and the finder sees the thank-you with the fee; a lapsed item (paidUntil in the
 * past) shows 'not paid' and no contact info but still relays a message. State is set up
 * through the services and the database. Axe once per new screen (English walk).
 * HITTELON_SCREENSHOTS=1 saves each screen at 390 and 1280 px under screens/.
 */
import type { Browser, BrowserContext } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { DAY_MS } from "../../app/lib/domain/dates";
import { depsOf } from "../support/deps";
import { insertKeptPayment } from "../support/service-fixtures";
import { createUser, type TestUser } from "../support/users";
import { expect, expectAccessible, test, waitForHydration, waitForPageReady, type WorkerApp, walkIn } from "./fixtures";

const SHOTS = process.env.HITTELON_SCREENSHOTS === "1";

const L = {
  en: {
    locale: "en-US",
    value: "Approximate value of the item (€, optional)",
    fee: "Finder's fee (€)",
    suggest: "Suggest fee",
    suggested: "Suggested finder's fee: €300",
    cantMeet: "Can't meet the owner?",
    postBox: "Keys can also be dropped in a post box",
    message: "Your message",
    send: "Send message",
    sent: "Your message has been sent to the owner.",
    returnedButton: "I have my item back",
    confirmReturn: "Yes, I have it back",
    ownerDone: "Thank you! The return is confirmed.",
    thanks: "The owner has the item back. Thank you for returning it!",
    fee250: "€250",
    notPaid: "This item is not paid.",
    mailInactive: "Your sticker is not active",
  },
  sv: {
    locale: "sv-SE",
    value: "Sakens ungefärliga värde (kr, frivilligt)",
    fee: "Hittelön (kr)",
    suggest: "Föreslå hittelön",
    suggested: "Föreslagen hittelön: 300 kr",
    cantMeet: "Kan du inte träffa ägaren?",
    postBox: "Nycklar kan du också lägga i en brevlåda",
    message: "Ditt meddelande",
    send: "Skicka meddelande",
    sent: "Ditt meddelande har skickats till ägaren.",
    returnedButton: "Jag har fått tillbaka saken",
    confirmReturn: "Ja, jag har fått tillbaka den",
    ownerDone: "Tack! Återlämningen är bekräftad.",
    thanks: "Ägaren har fått tillbaka saken. Tack för att du lämnade tillbaka den!",
    fee250: "250 kr",
    notPaid: "Den här saken är inte betald.",
    mailInactive: "Ditt klistermärke är inte aktivt",
  },
} as const;

async function item(app: WorkerApp, owner: TestUser, name: string, lang: "en" | "sv", paidUntil: number | null) {
  const id = await createItem(
    depsOf(app.runtime),
    owner.id,
    {
      name,
      findFee: 250,
      prodType: "other",
      contactInfo: `070-SECRET-${name}`,
      payment: "year",
      intent: "payLater",
    },
    lang,
  );
  await app.runtime.database.db.updateTable("products").set({ payed: 1, paidUntil }).where("id", "=", id).execute();
  // A period paid for, ended: the lapsed relay is earned (decision 050).
  if (paidUntil !== null) await insertKeptPayment(app.runtime.database.db, owner.id, id, paidUntil - 365 * DAY_MS);
  return id;
}

async function phoneWithoutJs(browser: Browser, app: WorkerApp, locale: string) {
  const ctx = await browser.newContext({
    baseURL: app.server.url,
    viewport: { width: 390, height: 844 },
    javaScriptEnabled: false,
    locale,
  });
  await ctx.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
  return ctx;
}

async function shoot(ctx: BrowserContext, path: string, name: string, prepare?: string) {
  if (!SHOTS) return;
  for (const [w, h] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    const page = await ctx.newPage();
    await page.setViewportSize({ width: w, height: h });
    await page.goto(path);
    if (prepare) await page.locator(prepare).evaluate((el) => el.setAttribute("open", ""));
    await page.screenshot({ path: `screens/hittelon-${name}-${w}.png`, fullPage: true });
    await page.close();
  }
}

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`hittelön (${lang})`, () => {
    test.use({ locale: s.locale });
    test.describe.configure({ timeout: SHOTS ? 300_000 : 90_000 });

    walkIn("sv", lang)(
      "suggested fee from a value; can't meet without JavaScript; return confirmed on both sides; a lapsed item still relays",
      async ({ browser, app, page, context: ownerContext, consent }) => {
        void consent;
        const owner = await createUser(app.runtime, { name: `Owner ${lang}`, language: lang });
        await ownerContext.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);

        // 1. The owner: a value of 3,000 suggests a fee of 300, which they may change.
        await page.goto("/product/register");
        await waitForHydration(page);
        await page.getByLabel(s.value).fill("3000");
        await page.getByRole("button", { name: s.suggest }).click();
        await expect(page.getByLabel(s.fee)).toHaveValue("300");
        await expect(page.getByText(s.suggested)).toBeVisible();
        if (lang === "en") await expectAccessible(page, { label: "product form with a suggestion" });
        await shoot(ownerContext, "/product/register", `form-${lang}`);

        // 2. A finder without JavaScript: the section opens natively, then they write.
        const id = await item(app, owner, `Bag ${lang} <i>`, lang, null);
        const phone = await phoneWithoutJs(browser, app, s.locale);
        const finder = await phone.newPage();
        await finder.goto(`/${id}`);
        await expect(finder.getByText(s.postBox)).toBeHidden();
        await finder.getByText(s.cantMeet).click();
        await expect(finder.getByText(s.postBox)).toBeVisible();
        await shoot(phone, `/${id}`, `finder-${lang}`, "details.cant-meet");
        await finder.getByLabel(s.message).fill(`Found it at the station (${lang})`);
        await finder.getByRole("button", { name: s.send }).click();
        await expect(finder.getByRole("status")).toHaveText(s.sent);
        const link = new URL(finder.url()).pathname;

        // 3. The owner confirms the return in the conversation.
        const { id: conversation } = await app.runtime.database.db
          .selectFrom("conversations")
          .select("id")
          .where("finderToken", "=", link.slice(3))
          .executeTakeFirstOrThrow();
        await shoot(ownerContext, `/messages/${conversation}`, `owner-before-${lang}`);
        await page.goto(`/messages/${conversation}`);
        await waitForHydration(page);
        await page.getByRole("button", { name: s.returnedButton }).click();
        // One tap only asks.
        await expect(page.getByRole("button", { name: s.confirmReturn })).toBeVisible();
        if (lang === "en") await expectAccessible(page, { label: "conversation, confirm the return" });
        await shoot(ownerContext, `/messages/${conversation}?confirmReturn=1`, `owner-confirm-return-${lang}`);
        await page.getByRole("button", { name: s.confirmReturn }).click();
        await expect(page.getByText(s.ownerDone)).toBeVisible();
        await expect(page.getByRole("button", { name: s.returnedButton })).toHaveCount(0);
        if (lang === "en") await expectAccessible(page, { label: "conversation, return confirmed" });
        await shoot(ownerContext, `/messages/${conversation}`, `owner-returned-${lang}`);
        const summary = await app.smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes(s.fee250));
        expect(summary.text).toContain(`Bag ${lang} <i>`);

        // The finder sees the thank-you with the fee at the private link.
        await finder.goto(link);
        await expect(finder.getByText(s.thanks)).toBeVisible();
        await expect(finder.locator(".return-thanks")).toContainText(s.fee250);
        await shoot(phone, link, `finder-thanked-${lang}`);

        // 4. A lapsed item: 'not paid', no contact info, the relay still works.
        const lapsed = await item(app, owner, `Bike ${lang}`, lang, Date.now() - 60_000);
        await finder.goto(`/${lapsed}`);
        await expect(finder.getByRole("heading", { level: 1 })).toContainText(s.notPaid);
        await expect(finder.locator("body")).not.toContainText("070-SECRET");
        await shoot(phone, `/${lapsed}`, `lapsed-${lang}`);
        await finder.getByLabel(s.message).fill(`Your bike is at the gate (${lang})`);
        await finder.getByRole("button", { name: s.send }).click();
        await expect(finder.getByRole("status")).toHaveText(s.sent);
        const mail = await app.smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes(`gate (${lang})`));
        expect(mail.text).toContain(s.mailInactive);
        expect(mail.text).toContain("/order");
        await phone.close();

        // Axe needs JavaScript in the page: the finder's new screens once more in a scripted browser.
        if (lang === "en") {
          const scripted = await browser.newContext({ baseURL: app.server.url, locale: s.locale });
          await scripted.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
          const anon = await scripted.newPage();
          for (const [path, label] of [
            [`/${id}`, "finder page, section open"],
            [link, "finder thread, thanked"],
            [`/${lapsed}`, "lapsed item page"],
          ] as const) {
            await anon.goto(path);
            await waitForPageReady(anon);
            await anon
              .locator("details.cant-meet")
              .evaluateAll((els) => els.forEach((el) => el.setAttribute("open", "")));
            await expectAccessible(anon, { label, soft: true });
          }
          await scripted.close();
        }
      },
    );
  });
}
