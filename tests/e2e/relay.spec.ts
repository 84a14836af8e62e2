/**
 * The finder-to-owner relay end to end (decision 013), in both languages: a finder on a phone
 * with JavaScript off writes from a paid private item page; the owner gets the mail (real
 * SMTP stand-in), opens the conversation, replies; the finder reads the reply at the
 * private link and by mail. With JavaScript on, a shared location reaches the owner as a
 * maps link. The owner's form and dashboard show the visibility. Axe on the pages.
 */
import { devices, type Browser, type BrowserContext } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { depsOf } from "../support/deps";
import { createUser, type TestUser } from "../support/users";
import {
  expect,
  expectAccessible,
  test,
  waitForHydration,
  waitForPageScript,
  type WorkerApp,
  englishOnly,
  walkIn,
} from "./fixtures";

const SHOTS = process.env.RELAY_SCREENSHOTS === "1";

const L = {
  en: {
    locale: "en-US",
    message: "Your message",
    contact: "Your email or phone (optional)",
    send: "Send message",
    sent: "Your message has been sent to the owner.",
    privateLead: "The owner keeps their contact info private.",
    mailSubject: "A finder wrote to you about",
    threadTitle: "Conversation about",
    reply: "Your reply",
    sendReply: "Send reply",
    emailMeAnswers: "Yes, email me the answers",
    mailConfirmed: "Your email address is confirmed",
    replySent: "Your reply has been sent.",
    theOwner: "The owner",
    replySubject: "has answered",
    share: "Share my location",
    located: "Your position will be sent with the message.",
    map: "Show the finder's location on a map",
    visibility: "Only me: finders write through Hittad",
    badgePrivate: "Contact info private",
    unread: "1 unread",
    messagesTitle: "Messages from finders",
  },
  sv: {
    locale: "sv-SE",
    message: "Ditt meddelande",
    contact: "Din e-post eller ditt telefonnummer (frivilligt)",
    send: "Skicka meddelande",
    sent: "Ditt meddelande har skickats till ägaren.",
    privateLead: "Ägaren har valt att inte visa sina kontaktuppgifter.",
    mailSubject: "En upphittare har skrivit till dig om",
    threadTitle: "Konversation om",
    reply: "Ditt svar",
    sendReply: "Skicka svar",
    emailMeAnswers: "Ja, mejla mig svaren",
    mailConfirmed: "Din e-postadress är bekräftad",
    replySent: "Ditt svar har skickats.",
    theOwner: "Ägaren",
    replySubject: "har svarat",
    share: "Dela min position",
    located: "Din position skickas med meddelandet.",
    map: "Visa upphittarens position på en karta",
    visibility: "Bara jag: upphittare skriver via Hittad",
    badgePrivate: "Kontaktuppgifter dolda",
    unread: "1 oläst",
    messagesTitle: "Meddelanden från upphittare",
  },
} as const;

async function paidPrivateItem(app: WorkerApp, owner: TestUser, name: string, contactInfo: string) {
  const id = await createItem(
    depsOf(app.runtime),
    owner.id,
    {
      name,
      findFee: 250,
      prodType: "other",
      contactInfo,
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    },
    "sv",
  );
  await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

async function context(browser: Browser, app: WorkerApp, options: Parameters<Browser["newContext"]>[0]) {
  const ctx = await browser.newContext({ baseURL: app.server.url, ...options });
  await ctx.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
  return ctx;
}

async function shoot(ctx: BrowserContext, path: string, name: string) {
  if (!SHOTS) return;
  for (const [w, h] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    const page = await ctx.newPage();
    await page.setViewportSize({ width: w, height: h });
    await page.goto(path);
    await page.screenshot({ path: `test-results/relay-${name}-${w}.png`, fullPage: true });
    await page.close();
  }
}

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`relay (${lang})`, () => {
    test.use({ locale: s.locale });
    // Whole journeys across two browsers and two mails: more than the default 30 s on a shared machine.
    test.describe.configure({ timeout: SHOTS ? 300_000 : 120_000 });

    walkIn("en", lang)(
      "a finder without JavaScript writes from a private item; the owner gets the mail and replies; the finder reads it at the link and by mail",
      async ({ browser, app, page, context: ownerContext, consent }) => {
        void consent;
        const owner = await createUser(app.runtime, { name: `Owner ${lang}`, language: lang });
        await ownerContext.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);
        const secret = `070-SECRET-${lang}`;
        const item = await paidPrivateItem(app, owner, `Bag ${lang} <i>`, secret);
        const finderEmail = `finder-${lang}@example.test`;

        // The finder: a phone, JavaScript off.
        const phone = await context(browser, app, {
          ...devices["Pixel 7"],
          viewport: { width: 390, height: 844 },
          javaScriptEnabled: false,
          locale: s.locale,
        });
        const finder = await phone.newPage();
        await finder.goto(`/${item}`);
        await expect(finder.getByText(s.privateLead)).toBeVisible();
        await expect(finder.locator("body")).not.toContainText(secret);
        await shoot(phone, `/${item}`, `item-private-${lang}`);
        await finder.getByLabel(s.message).fill(`Found <b>it</b> at the station (${lang})`);
        await finder.getByLabel(s.contact).fill(finderEmail);
        await finder.getByRole("button", { name: s.send }).click();
        await expect(finder.getByRole("status")).toHaveText(s.sent);
        await expect(finder).toHaveURL(/\/m\/[A-Za-z0-9_-]{43}\?sent=1$/);
        const link = new URL(finder.url()).pathname;
        await expect(finder.getByText(`Found <b>it</b> at the station (${lang})`)).toBeVisible();
        await expect(finder.locator("body")).not.toContainText(owner.email);
        await shoot(phone, `${link}?sent=1`, `finder-sent-${lang}`);
        // The finder opens the link from the first mail and says yes: their address confirmed
        // itself and the owner's replies are mailed from now on (decision 058).
        const linkMail = await app.smtp.waitForMail((m) => m.to.includes(finderEmail) && m.text.includes(link));
        const confirmUrl = new URL(new RegExp(`https?://\\S+${link}\\?c=[A-Za-z0-9_-]+`).exec(linkMail.text)![0]);
        // Looking at the page confirms nothing (a GET), so it can be photographed first.
        await shoot(phone, `${confirmUrl.pathname}${confirmUrl.search}`, `finder-confirm-mail-${lang}`);
        await finder.goto(`${confirmUrl.pathname}${confirmUrl.search}`);
        await finder.getByRole("button", { name: s.emailMeAnswers }).click();
        await expect(finder.getByText(s.mailConfirmed)).toBeVisible();

        // The owner's mail (their language) leads to the conversation.
        const mail = await app.smtp.waitForMail(
          (m) => m.to.includes(owner.email) && m.text.includes(`station (${lang})`),
        );
        expect(mail.subject).toContain(s.mailSubject);
        const url = /https?:\/\/\S+\/messages\/[0-9a-f-]{36}/.exec(mail.text)?.[0];
        expect(url).toBeTruthy();
        expect(mail.html).not.toContain("<b>it</b>");
        await page.goto(new URL(url!).pathname);
        await waitForHydration(page);
        await expect(page.getByRole("heading", { level: 1 })).toContainText(s.threadTitle);
        await expect(page.getByText(finderEmail)).toBeVisible();
        await expectAccessible(page);
        await shoot(ownerContext, new URL(url!).pathname, `owner-thread-${lang}`);
        await page.getByLabel(s.reply).fill(`Thanks! Leave it at the reception (${lang}).`);
        await page.getByRole("button", { name: s.sendReply }).click();
        await expect(page.getByRole("status")).toHaveText(s.replySent);
        // The sent text is gone from the box: nothing invites a duplicate.
        await expect(page.getByLabel(s.reply)).toHaveValue("");

        // The finder reads the reply at the link and in the mail.
        await finder.goto(link);
        await expect(finder.getByText(`Thanks! Leave it at the reception (${lang}).`)).toBeVisible();
        await expect(finder.getByText(s.theOwner, { exact: true })).toBeVisible();
        await expect(finder.locator("body")).not.toContainText(owner.email);
        await expect(finder.locator("body")).not.toContainText(owner.name);
        const reply = await app.smtp.waitForMail(
          (m) => m.to.includes(finderEmail) && m.text.includes(`reception (${lang})`),
        );
        expect(reply.subject).toContain(s.replySubject);
        expect(reply.text).toContain(link);
        expect(reply.text).not.toContain(owner.email);
        await shoot(phone, link, `finder-reply-${lang}`);
        await phone.close();
      },
    );

    walkIn("sv", lang)(
      "with JavaScript a shared location reaches the owner as a maps link; the inbox and menu count it",
      async ({ browser, app, page, context: ownerContext, consent }) => {
        void consent;
        const owner = await createUser(app.runtime, { name: `Mapper ${lang}`, language: lang });
        await ownerContext.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);
        const item = await paidPrivateItem(app, owner, `Keys ${lang}`, "070-hidden");
        const phone = await context(browser, app, {
          viewport: { width: 390, height: 844 },
          locale: s.locale,
          geolocation: { latitude: 59.3293, longitude: 18.0686 },
          permissions: ["geolocation"],
        });
        const finder = await phone.newPage();
        await finder.goto(`/product/${item}`);
        // The finder page has no React (decision 020): its one script offers the location.
        await waitForPageScript(finder);
        await finder.getByLabel(s.message).fill(`Keys on the bench (${lang})`);
        await finder.getByLabel(s.share).check();
        await expect(finder.getByText(s.located)).toBeVisible();
        await expectAccessible(finder);
        await finder.getByRole("button", { name: s.send }).click();
        await expect(finder.getByRole("status")).toHaveText(s.sent);
        await expectAccessible(finder);
        await phone.close();

        const mail = await app.smtp.waitForMail(
          (m) => m.to.includes(owner.email) && m.text.includes(`bench (${lang})`),
        );
        expect(mail.text).toContain("https://www.google.com/maps/search/?api=1&query=59.3293,18.0686");

        await page.goto("/messages");
        await waitForHydration(page);
        await expect(page.getByRole("heading", { level: 1, name: s.messagesTitle })).toBeVisible();
        await expect(page.getByText(s.unread, { exact: true }).first()).toBeVisible();
        await expectAccessible(page);
        await shoot(ownerContext, "/messages", `owner-inbox-${lang}`);
        await page.getByRole("link", { name: new RegExp(`Keys ${lang}`) }).click();
        await expect(page.getByRole("link", { name: s.map })).toHaveAttribute(
          "href",
          "https://www.google.com/maps/search/?api=1&query=59.3293,18.0686",
        );
      },
    );

    englishOnly(lang)(
      "the owner chooses private contact on the product form; the dashboard card says so",
      async ({ page, app, user, consent }) => {
        void consent;
        const item = await createItem(
          depsOf(app.runtime),
          user.id,
          {
            name: "Laptop",
            findFee: 100,
            prodType: "laptop",
            contactInfo: "070-1",
            payment: "year",
            intent: "payLater",
          },
          lang === "sv" ? "sv" : "en",
        );
        await page.goto(`/product/edit/${item}`);
        await waitForHydration(page);
        await page.getByLabel(s.visibility).check();
        await expectAccessible(page);
        await shoot(page.context(), `/product/edit/${item}`, `form-${lang}`);
        await page.locator("form.product-form button[type=submit]").last().click();
        await expect(page).toHaveURL(/\/dashboard$/);
        await expect(page.getByText(s.badgePrivate)).toBeVisible();
        await shoot(page.context(), "/dashboard", `dashboard-${lang}`);
      },
    );
  });
}
