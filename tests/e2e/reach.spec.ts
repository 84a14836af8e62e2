/**
 * Reach the owner when the lost thing is the phone (decision 033, "Done when"), one walk per
 * language against a server with the 46elks and push-service stand-ins: the owner verifies
 * a mobile number, names a trusted contact (only a number) who confirms with the code of
 * their SMS, and subscribes this device; a finder WITHOUT JavaScript writes; the message
 * arrives by mail (SMTP stand-in), by SMS (46elks stand-in) and by push (decrypted by the
 * stand-in), and at the contact, who answers through the link in their SMS; the finder
 * reads the answer; the owner sees each delivery's status in the conversation.
 *
 * Subscribing: Chromium's real PushManager talks only to its own push service, which
 * cannot reach a stand-in, so the page posts the stand-in subscription's
 * PushSubscription.toJSON() to /api/push/subscriptions itself (same origin, the owner's
 * session), exactly as tests/integration/push.test.ts does over HTTP.
 */
import type { Browser } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { createTestDatabase, createTestRuntime, testEnv } from "../support/database";
import { depsOf } from "../support/deps";
import { startElks, type ElksStandIn } from "../support/elks";
import { PUSH_CA_FILE, startPushService, type PushStandIn } from "../support/push-service";
import { startServer } from "../support/server";
import { startSmtpServer } from "../support/smtp";
import { acceptCurrentDpa } from "../support/dpa";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test as base, waitForHydration, type WorkerApp } from "./fixtures";
import { uniqueOrgNumber } from "../support/org-numbers";

interface StandIns {
  elks: ElksStandIn;
  push: PushStandIn;
}

/** The worker's app with the SMS and push stand-ins wired in (every other fixture uses it). */
const test = base.extend<Record<never, never>, { standIns: StandIns }>({
  standIns: [
    async ({}, use) => {
      const standIns = { elks: await startElks(), push: await startPushService() };
      await use(standIns);
      await Promise.all([standIns.elks.close(), standIns.push.close()]);
    },
    { scope: "worker" },
  ],
  app: [
    async ({ standIns: { elks, push } }, use, workerInfo) => {
      const db = await createTestDatabase(`e2ereach${workerInfo.workerIndex}`);
      const smtp = await startSmtpServer();
      const env = testEnv(db, {
        RATE_LIMIT_DISABLED: "1",
        SMTP_URL: smtp.url,
        MAIL_POLL_MS: "200",
        ELKS_API_URL: elks.url,
        ELKS_API_USERNAME: elks.username,
        ELKS_API_PASSWORD: elks.password,
        PUSH_ALLOW_HOSTS: push.hostPort,
        NODE_EXTRA_CA_CERTS: PUSH_CA_FILE,
      });
      const server = await startServer(env);
      const runtime = await createTestRuntime({ ...env, BASE_URL: server.url });
      await use({ server, runtime, db, env: { ...env, BASE_URL: server.url }, smtp });
      await server.stop();
      await runtime.database.close();
      await smtp.close();
      await db.drop();
    },
    { scope: "worker", timeout: 60_000 },
  ],
});

const L = {
  en: {
    locale: "en-GB",
    phoneLabel: "Mobile number",
    sendCode: "Send code",
    codeLabel: /^Code sent to/,
    confirmNumber: "Confirm number",
    verified: "Your mobile number is confirmed.",
    trusted: "Trusted contacts",
    name: "Name",
    add: "Add trusted contact",
    contactCode: "Code from the SMS",
    confirm: "Confirm",
    confirmed: /You are now a trusted contact/,
    confirmedStatus: "Confirmed",
    message: "Your message",
    send: "Send message",
    sent: "Your message has been sent to the owner.",
    answer: "Your answer to the finder",
    sendAnswer: "Send answer",
    answerSent: "Your answer is sent to the finder.",
    byContact: "Kim, your trusted contact",
    deskLink: "Manage the desk's trusted contacts",
    deskTitle: "Trusted contacts of Acme en's desk",
    email: "Email",
    pending: "Waiting for confirmation",
    dpaNotice: /an admin must accept the data processing agreement/,
    phoneOffer: "Send a code by SMS",
    never: "Never contact me again",
    neverDone: /Hittad will not contact this email address again/,
    delivered: /Delivered by SMS to \+46 70/,
    byEmail: /Sent by email to/,
    byPush: /Sent by push to/,
    toContact: /by SMS to Kim \(\+46 73/,
  },
  sv: {
    locale: "sv-SE",
    phoneLabel: "Mobilnummer",
    sendCode: "Skicka kod",
    codeLabel: /^Kod skickad till/,
    confirmNumber: "Bekräfta numret",
    verified: "Ditt mobilnummer är bekräftat.",
    trusted: "Betrodda kontakter",
    name: "Namn",
    add: "Lägg till betrodd kontakt",
    contactCode: "Kod från sms:et",
    confirm: "Bekräfta",
    confirmed: /Nu är du betrodd kontakt/,
    confirmedStatus: "Bekräftad",
    message: "Ditt meddelande",
    send: "Skicka meddelande",
    sent: "Ditt meddelande har skickats till ägaren.",
    answer: "Ditt svar till upphittaren",
    sendAnswer: "Skicka svar",
    answerSent: "Ditt svar är skickat till upphittaren.",
    byContact: "Kim, din betrodda kontakt",
    deskLink: "Hantera hittegodsdiskens betrodda kontakter",
    deskTitle: "Betrodda kontakter för Acme svs hittegodsdisk",
    email: "E-post",
    pending: "Väntar på bekräftelse",
    dpaNotice: /måste en administratör godkänna personuppgiftsbiträdesavtalet/,
    phoneOffer: "Skicka en kod med sms",
    never: "Kontakta mig aldrig igen",
    neverDone: /Hittad kontaktar inte den här e-postadressen igen/,
    delivered: /Levererat som sms till \+46 70/,
    byEmail: /Skickat som mejl till/,
    byPush: /Skickat som push till/,
    toContact: /som sms till Kim \(\+46 73/,
  },
} as const;

/** Another person's browser (the contact's, the finder's), cookies accepted. */
async function context(browser: Browser, app: WorkerApp, locale: string, javaScriptEnabled = true) {
  const ctx = await browser.newContext({
    baseURL: app.server.url,
    locale,
    viewport: { width: 390, height: 844 },
    javaScriptEnabled,
  });
  await ctx.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
  return ctx;
}

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`reach (${lang})`, () => {
    test.use({ locale: s.locale });
    test(`reach the owner (${lang}): SMS, a trusted contact, push; a finder without JavaScript; each delivery's status`, async ({
      page,
      browser,
      app,
      standIns,
    }) => {
      test.setTimeout(60_000);
      const n = lang === "en" ? "1" : "2";
      const ownerPhone = `+4670123450${n}`;
      const contactPhone = `+4673555120${n}`;
      const owner = await createUser(app.runtime, { name: `Olle ${lang}`, language: lang });
      await page.context().addCookies([
        { ...owner.sessionCookie, url: app.server.url },
        { name: "ConsentApproved", value: "true", url: app.server.url },
      ]);

      // 1. The owner verifies a mobile number (typed the Swedish way).
      await page.goto("/account/alerts");
      await waitForHydration(page);
      await page
        .getByRole("region", { name: s.phoneLabel })
        .getByRole("textbox", { name: s.phoneLabel })
        .fill(`070-123 45 0${n}`);
      await page.getByRole("button", { name: s.sendCode }).click();
      const codeSms = await standIns.elks.waitFor((m) => m.to === ownerPhone);
      await page.getByLabel(s.codeLabel).fill(/\d{6}/.exec(codeSms.message)![0]);
      await page.getByRole("button", { name: s.confirmNumber }).click();
      await expect(page.getByRole("status")).toHaveText(s.verified);

      // 2. A trusted contact with only a number; they confirm with the code of their SMS.
      const trusted = page.getByRole("region", { name: s.trusted });
      await trusted.getByLabel(s.name).fill("Kim");
      await trusted.getByRole("textbox", { name: s.phoneLabel }).fill(`073-555 12 0${n}`);
      await trusted.getByRole("button", { name: s.add }).click();
      const invite = await standIns.elks.waitFor((m) => m.to === contactPhone);
      const kimContext = await context(browser, app, s.locale);
      const kim = await kimContext.newPage();
      await kim.goto(new URL(/https?:\/\/\S+\/t\/c\/\S+/.exec(invite.message)![0]).pathname);
      await waitForHydration(kim);
      await expectAccessible(kim);
      await atPhoneAndDesk(kim, `reach-contact-code-${lang}`);
      await kim.getByLabel(s.contactCode).fill(/\d{6}/.exec(invite.message)![0]);
      await kim.getByRole("button", { name: s.confirm, exact: true }).click();
      await expect(kim.getByRole("status")).toHaveText(s.confirmed);
      await page.reload();
      await expect(
        page.getByRole("region", { name: s.trusted }).getByText(s.confirmedStatus, { exact: true }),
      ).toBeVisible();
      await atPhoneAndDesk(page, `reach-alerts-${lang}`);

      // 3. This device gets notifications (the stand-in's subscription; see the file's comment).
      const sub = standIns.push.subscribe();
      const status = await page.evaluate(
        (body) =>
          fetch("/api/push/subscriptions", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(body),
          }).then((r) => r.status),
        sub.toJSON(),
      );
      expect(status).toBe(201);

      // 4. A finder without JavaScript writes.
      const item = await createItem(
        depsOf(app.runtime),
        owner.id,
        {
          name: `Red phone ${lang}`,
          findFee: 300,
          prodType: "mobile",
          contactInfo: "",
          payment: "year",
          intent: "payLater",
        },
        lang,
      );
      await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", item).execute();
      const finderContext = await context(browser, app, s.locale, false);
      const finder = await finderContext.newPage();
      await finder.goto(`/product/${item}`);
      const words = `Found your phone at the station (${lang})`;
      await finder.getByLabel(s.message).fill(words);
      await finder.getByRole("button", { name: s.send }).click();
      await expect(finder.getByRole("status")).toHaveText(s.sent);
      const finderUrl = finder.url();

      // 5. It arrives by mail, by SMS, by push (decrypted) and at the contact.
      await app.smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes(words));
      const ownerSms = await standIns.elks.waitFor(
        (m) => m.to === ownerPhone && m.message.includes(`Red phone ${lang}`),
      );
      const pushed = await standIns.push.waitFor((p) => p.subscriptionId === sub.id);
      expect(pushed.payload.title).toContain(`Red phone ${lang}`);
      expect(pushed.payload.body).toBe(words);
      const conversationPath = new URL(pushed.payload.url).pathname;
      const kimSms = await standIns.elks.waitFor(
        (m) => m.to === contactPhone && m.message.includes(`Red phone ${lang}`),
      );
      expect(kimSms.message).toMatch(/\/t\/s\/[A-Za-z0-9_-]{10}$/);
      // 46elks reports the owner's SMS delivered.
      expect(await standIns.elks.report(ownerSms)).toBe(204);

      // 6. The contact answers through their link; the finder reads it (still no JavaScript).
      await kim.goto(new URL(/https?:\/\/\S+\/t\/r\/[A-Za-z0-9_-]+/.exec(kimSms.message)![0]).pathname);
      await waitForHydration(kim);
      await kim.getByLabel(s.answer).fill(`Kim here (${lang}): I can fetch it at six`);
      await kim.getByRole("button", { name: s.sendAnswer }).click();
      await expect(kim.getByRole("status")).toHaveText(s.answerSent);
      await kimContext.close();
      await finder.goto(finderUrl);
      await expect(finder.getByText(`Kim here (${lang}): I can fetch it at six`)).toBeVisible();
      await expect(finder.getByText("Kim", { exact: true })).toHaveCount(0);
      await finderContext.close();

      // 7. The owner sees the answer, by whom, and how each alert went out.
      await page.goto(conversationPath);
      await waitForHydration(page);
      await expect(page.getByText(s.byContact)).toBeVisible();
      await expect(page.getByText(s.delivered)).toBeVisible();
      await expect(page.getByText(s.byEmail).first()).toBeVisible();
      await expect(page.getByText(s.byPush)).toBeVisible();
      await expect(page.getByText(s.toContact)).toBeVisible();
      await expectAccessible(page);
      await atPhoneAndDesk(page, `reach-conversation-${lang}`);
    });

    test(`the desk's trusted contacts (${lang}): an admin reaches them from the organisation page, accepts the agreement, names one; the contact confirms the address, is offered a code for the number, or says never`, async ({
      page,
      browser,
      app,
    }) => {
      test.setTimeout(60_000);
      const admin = await createUser(app.runtime, { name: `Ada Admin-${lang}`, language: lang });
      const org = await createOrganisation(depsOf(app.runtime), admin.id, {
        name: `Acme ${lang}`,
        orgNumber: uniqueOrgNumber(),
        billingEmail: `billing-${lang}@example.test`,
        invoiceStreet: "Storgatan 1",
        invoicePostcode: "90326",
        invoiceCity: "Umeå",
        invoiceCountry: "SE",
        vatNumber: null,
        deskContact: "Reception",
      });
      await page.context().addCookies([
        { ...admin.sessionCookie, url: app.server.url },
        { name: "ConsentApproved", value: "true", url: app.server.url },
      ]);
      await page.goto(`/organisations/${org}`);
      await page.getByRole("link", { name: s.deskLink }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(s.deskTitle);
      // No agreement yet: the page says why there is no form, and where to accept it.
      const trusted = page.getByRole("region", { name: s.trusted });
      await expect(trusted.getByText(s.dpaNotice)).toBeVisible();
      await expect(trusted.getByLabel(s.name)).toHaveCount(0);
      await atPhoneAndDesk(page, `reach-desk-contacts-dpa-${lang}`);
      await acceptCurrentDpa(depsOf(app.runtime), admin.id, org);
      await page.reload();
      await waitForHydration(page);
      const rita = `rita-${lang}@example.test`;
      await trusted.getByLabel(s.name).fill("Rita");
      await trusted.getByLabel(s.email).fill(rita);
      await trusted.getByRole("textbox", { name: s.phoneLabel }).fill(`073-555 13 0${lang === "en" ? 1 : 2}`);
      await trusted.getByRole("button", { name: s.add }).click();
      await expect(page.getByRole("region", { name: s.trusted }).getByText(s.pending)).toBeVisible();
      // Saved: the form is empty again for the next contact, nothing left to send twice.
      await expect(trusted.getByLabel(s.name)).toHaveValue("");
      await expect(trusted.getByLabel(s.email)).toHaveValue("");
      // The consent request names the admin by first name, never the organisation.
      const invite = await app.smtp.waitForMail((m) => m.to.includes(rita));
      expect(invite.text).toContain(`Ada,`);
      expect(`${invite.subject} ${invite.text}`).not.toContain("Acme");
      await expectAccessible(page);
      await atPhoneAndDesk(page, `reach-desk-contacts-${lang}`);

      const ritaContext = await context(browser, app, s.locale);
      const ritaPage = await ritaContext.newPage();
      await ritaPage.goto(new URL(/https?:\/\/\S+\/t\/c\/\S+/.exec(invite.text)![0]).pathname);
      await waitForHydration(ritaPage);
      await expectAccessible(ritaPage);
      await atPhoneAndDesk(ritaPage, `reach-contact-email-${lang}`);
      await ritaPage.getByRole("button", { name: s.confirm, exact: true }).click();
      await expect(ritaPage.getByRole("button", { name: s.phoneOffer })).toBeVisible();
      await atPhoneAndDesk(ritaPage, `reach-contact-phone-offer-${lang}`);
      // The mail's "never contact me again" link: a page, and a button that does it.
      await ritaPage.goto(new URL(/https?:\/\/\S+\/t\/n\/\S+/.exec(invite.text)![0]).pathname);
      await waitForHydration(ritaPage);
      await expectAccessible(ritaPage);
      await atPhoneAndDesk(ritaPage, `reach-never-${lang}`);
      await ritaPage.getByRole("button", { name: s.never }).click();
      await expect(ritaPage.getByRole("status")).toHaveText(s.neverDone);
      await atPhoneAndDesk(ritaPage, `reach-never-done-${lang}`);
      await ritaContext.close();
    });
  });
}
