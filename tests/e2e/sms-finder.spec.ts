/**
 * A finder who only has SMS (decision 055), one walk per language against a server with the
 * 46elks and push-service stand-ins: the finder page and /find name Hittad's number; the
 * finder texts the sticker's code (the stand-in posts it to the webhook as 46elks does); the
 * owner gets it by mail, SMS (from SMS_NUMBER, with the #reference) and push; /messages
 * marks it "by SMS"; the owner answers on the web and by SMS, and the finder gets both from
 * SMS_NUMBER. No page, mail or SMS shows either side's number to the other.
 */
import { confirmPhone, setPendingPhone } from "../../app/server/alerts/alerts.repository.server";
import { createItem } from "../../app/server/items/items.service.server";
import { createTestDatabase, createTestRuntime, testEnv } from "../support/database";
import { depsOf } from "../support/deps";
import { startElks, type ElksStandIn } from "../support/elks";
import { PUSH_CA_FILE, startPushService, type PushStandIn } from "../support/push-service";
import { startServer } from "../support/server";
import { startSmtpServer } from "../support/smtp";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test as base, waitForHydration } from "./fixtures";

const NUMBER = "+46766861000";
const SECRET = "e2e-webhook-secret-0123456789abcdef";

interface StandIns {
  elks: ElksStandIn;
  push: PushStandIn;
}

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
      const db = await createTestDatabase(`e2esms${workerInfo.workerIndex}`);
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
        SMS_NUMBER: NUMBER,
        ELKS_WEBHOOK_SECRET: SECRET,
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
    finderPage: /No mobile data\? Text .+ and your message to 0766-86 10 00\./,
    find: "No mobile data? Text the code and your message to 0766-86 10 00.",
    received: /^Hittad: the owner has your message/,
    bySms: "by SMS",
    reply: "Your reply",
    send: "Send reply",
    sent: "Your reply has been sent.",
  },
  sv: {
    locale: "sv-SE",
    finderPage: /Ingen mobildata\? Sms:a .+ och ditt meddelande till 0766-86 10 00\./,
    find: "Ingen mobildata? Sms:a koden och ditt meddelande till 0766-86 10 00.",
    received: /^Hittad: ägaren har fått ditt meddelande/,
    bySms: "via sms",
    reply: "Ditt svar",
    send: "Skicka svar",
    sent: "Ditt svar har skickats.",
  },
} as const;

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`sms finder (${lang})`, () => {
    test.use({ locale: s.locale });
    test(`a finder who only has SMS reaches the owner, who answers on the web and by SMS (${lang})`, async ({
      page,
      browser,
      app,
      standIns: { elks, push },
    }) => {
      test.setTimeout(90_000);
      const n = lang === "en" ? "1" : "2";
      const ownerPhone = `+4670123460${n}`;
      // The finder's reply is Swedish for a Swedish number, English otherwise (a Norwegian one here).
      const finderPhone = lang === "en" ? "+4791234561" : "+46739876502";
      const owner = await createUser(app.runtime, { name: `Olle ${lang}`, language: lang });
      const db = app.runtime.database.db;
      await setPendingPhone(db, owner.id, { phone: ownerPhone, codeHash: "x", expiresAt: Date.now() + 60_000 });
      await confirmPhone(db, owner.id, ownerPhone, Date.now());
      const item = await createItem(
        depsOf(app.runtime),
        owner.id,
        {
          name: `Blue bike ${lang}`,
          findFee: 300,
          prodType: "other",
          contactInfo: "",
          payment: "year",
          intent: "payLater",
        },
        lang,
      );
      await db.updateTable("products").set({ payed: 1 }).where("id", "=", item).execute();
      const code = (await db.selectFrom("products").select("code").where("id", "=", item).executeTakeFirstOrThrow())
        .code;

      // 1. The finder page (the lean page an anonymous visitor gets) and /find name Hittad's number.
      const finderContext = await browser.newContext({ baseURL: app.server.url, locale: s.locale });
      await finderContext.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
      const finder = await finderContext.newPage();
      await finder.goto(`/product/${item}`);
      await expect(finder.getByText(s.finderPage)).toBeVisible();
      await expectAccessible(finder);
      await atPhoneAndDesk(finder, `sms-finder-page-${lang}`);
      await finder.goto("/find");
      await expect(finder.getByText(s.find)).toBeVisible();
      await expectAccessible(finder);
      await atPhoneAndDesk(finder, `sms-find-${lang}`);
      await finderContext.close();

      // 2. The owner's device gets notifications (the stand-in's subscription, as reach.spec.ts).
      await page.context().addCookies([
        { ...owner.sessionCookie, url: app.server.url },
        { name: "ConsentApproved", value: "true", url: app.server.url },
      ]);
      await page.goto("/messages");
      await waitForHydration(page);
      const sub = push.subscribe();
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

      // 3. The finder texts the code, spaced their own way; 46elks posts it to the webhook.
      const webhook = `${app.server.url}/webhooks/46elks/sms?secret=${SECRET}`;
      const words = `found your bike by the station (${lang})`;
      const typed = `${code.slice(0, 3).toLowerCase()} ${code.slice(3, 6)} ${code.slice(6)} ${words}`;
      const first = await elks.incoming(webhook, { from: finderPhone, to: NUMBER, message: typed });
      expect(first.reply).toMatch(s.received);

      // 4. The owner gets it by mail, by SMS from SMS_NUMBER with the reference, and by push.
      const mail = await app.smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes(words));
      const alert = await elks.waitFor((m) => m.to === ownerPhone && m.message.includes(`Blue bike ${lang}`));
      expect(alert.from).toBe(NUMBER);
      const ref = /#(\d{4})/.exec(alert.message)![1]!;
      const pushed = await push.waitFor((p) => p.subscriptionId === sub.id);
      expect(pushed.payload.body).toBe(words);
      for (const text of [mail.text, alert.message, JSON.stringify(pushed.payload)]) {
        expect(text).not.toContain(finderPhone.slice(3));
      }

      // 5. /messages marks it "by SMS"; the conversation says how the answer travels.
      await page.goto("/messages");
      await waitForHydration(page);
      await expect(page.getByText(s.bySms, { exact: true })).toBeVisible();
      await expect(page.locator("body")).not.toContainText(finderPhone.slice(3));
      await expectAccessible(page);
      await atPhoneAndDesk(page, `sms-messages-${lang}`);
      await page.getByRole("link", { name: new RegExp(`Blue bike ${lang}`) }).click();
      await waitForHydration(page);
      await expect(page.getByText(words)).toBeVisible();
      await page.getByLabel(s.reply).fill(`Thank you! I will fetch it tonight (${lang})`);
      await page.getByRole("button", { name: s.send }).click();
      await expect(page.getByRole("status")).toHaveText(s.sent);
      await expect(page.locator("body")).not.toContainText(finderPhone.slice(3));
      await expectAccessible(page);
      await atPhoneAndDesk(page, `sms-conversation-${lang}`);

      // 6. The finder gets the web answer from SMS_NUMBER; the owner also answers by SMS.
      const webAnswer = await elks.waitFor((m) => m.to === finderPhone && m.message.includes("fetch it tonight"));
      expect(webAnswer.from).toBe(NUMBER);
      expect(webAnswer.message).not.toContain(ownerPhone.slice(3));
      const bySms = await elks.incoming(webhook, {
        from: ownerPhone,
        to: NUMBER,
        message: `#${ref} See you at six (${lang})`,
      });
      expect(bySms.statuses).toEqual([204]);
      const smsAnswer = await elks.waitFor((m) => m.to === finderPhone && m.message.includes("See you at six"));
      expect(smsAnswer.from).toBe(NUMBER);
      expect(smsAnswer.message).not.toContain(ownerPhone.slice(3));
      await page.reload();
      await expect(page.getByText(`See you at six (${lang})`)).toBeVisible();
    });
  });
}
