import type { Page } from "@playwright/test";
import { grantAdmin } from "../../app/server/admin/admin.repository.server";
import { expect, expectAccessible, test, waitForPageReady, englishOnly } from "./fixtures";

const LANGS = {
  en: {
    locale: "en-US",
    title: "Contact us",
    name: "Name (optional)",
    email: "Email",
    message: "Message",
    send: "Send message",
    robot: "I'm not a robot",
    captchaRequired: "Please complete the captcha verification",
    success: "Message sent successfully!",
    used: "This captcha has already been used. Please verify again.",
    failed: "Failed to send message",
    generic: "An error occurred. Please try again.",
    inbox: "Support inbox",
    unread: "Unread",
    markHandled: "Mark handled",
    handledBy: "Marked handled by",
    reply: "Your reply",
    sendReply: "Send reply",
    replySent: "Reply queued for sending.",
    replySubject: "Reply from Hittad support",
    notFound: "Page not found",
  },
  sv: {
    locale: "sv-SE",
    title: "Kontakta oss",
    name: "Namn (valfritt)",
    email: "E-post",
    message: "Meddelande",
    send: "Skicka meddelande",
    robot: "Jag är inte en robot",
    captchaRequired: "Slutför captcha-verifieringen",
    success: "Meddelandet har skickats!",
    used: "Den här captchan har redan använts. Verifiera igen.",
    failed: "Det gick inte att skicka meddelandet",
    generic: "Ett fel uppstod. Försök igen.",
    inbox: "Supportinkorg",
    unread: "Oläst",
    markHandled: "Markera som hanterat",
    handledBy: "Markerat som hanterat av",
    reply: "Ditt svar",
    sendReply: "Skicka svar",
    replySent: "Svaret har lagts i kö för att skickas.",
    replySubject: "Svar från Hittads support",
    notFound: "Sidan hittades inte",
  },
} as const;

async function solveCaptcha(page: Page, robot: string) {
  // The widget draws its own check mark over the input: click the label like a person.
  await page.getByText(robot, { exact: true }).click();
  await expect(page.locator('altcha-widget [data-state="verified"]')).toHaveCount(1, { timeout: 20_000 });
}

for (const [lang, s] of Object.entries(LANGS)) {
  test.describe(`contact form (${lang})`, () => {
    test.use({ locale: s.locale });

    englishOnly(lang)(
      "without a captcha solution: captcha error, no request, nothing stored; typing clears the error",
      async ({ page, app, consent }) => {
        void consent;
        const email = `nocaptcha-${lang}@example.test`;
        const requests: string[] = [];
        page.on("request", (r) => {
          if (r.url().endsWith("/api/contact")) requests.push(r.url());
        });
        await page.goto("/contact");
        await expect(page.getByRole("heading", { level: 1, name: s.title })).toBeVisible();
        await waitForPageReady(page);
        await expect(page.getByRole("checkbox", { name: s.robot })).toBeVisible();
        await expectAccessible(page);
        await page.getByLabel(s.email).fill(email);
        await page.getByLabel(s.message).fill("Hello without captcha");
        await page.getByRole("button", { name: s.send }).click();
        await expect(page.getByRole("alert")).toHaveText(s.captchaRequired);
        await page.getByLabel(s.message).pressSequentially("!");
        await expect(page.getByRole("alert")).toHaveCount(0);
        expect(requests).toEqual([]);
        const rows = await app.runtime.database.db
          .selectFrom("contact_messages")
          .select("id")
          .where("email", "=", email)
          .execute();
        expect(rows).toEqual([]);
      },
    );

    test.describe("sending", () => {
      // These make /api/contact fail on purpose; Chromium logs each failed fetch.
      test.use({ expectedConsoleErrors: [/^Failed to load resource: .* \(http:\/\/localhost:\d+\/api\/contact\)$/] });

      test("solved captcha: success text, fields and captcha cleared, message stored and mailed; a replayed solution shows the server's message", async ({
        page,
        app,
        consent,
      }) => {
        void consent;
        const email = `sender-${lang}@example.test`;
        await page.goto("/contact");
        await waitForPageReady(page);
        await page.getByLabel(s.name).fill("Ada Avsändare");
        await page.getByLabel(s.email).fill(email);
        await page.getByLabel(s.message).fill(`Hello from the ${lang} form <script>alert(1)</script>`);
        await solveCaptcha(page, s.robot);
        const sent = page.waitForRequest((r) => r.url().endsWith("/api/contact") && r.method() === "POST");
        await page.getByRole("button", { name: s.send }).click();
        await expect(page.getByRole("status").filter({ hasText: s.success })).toBeVisible();
        const firstToken = ((await sent).postDataJSON() as { captchaToken: string }).captchaToken;
        await expect(page.getByLabel(s.name)).toHaveValue("");
        await expect(page.getByLabel(s.email)).toHaveValue("");
        await expect(page.getByLabel(s.message)).toHaveValue("");
        await expect(page.getByRole("checkbox", { name: s.robot })).not.toBeChecked();
        await expectAccessible(page);

        const row = await app.runtime.database.db
          .selectFrom("contact_messages")
          .selectAll()
          .where("email", "=", email)
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({ name: "Ada Avsändare", lang });
        const mail = await app.smtp.waitForMail((m) => m.replyTo.includes(email));
        expect(mail.text).toContain(`Hello from the ${lang} form`);

        // Typing after success returns to idle.
        await page.getByLabel(s.email).fill(email);
        await expect(page.getByRole("status").filter({ hasText: s.success })).toHaveCount(0);

        // Replay: a fresh solution is made, but the request carries the used one.
        await page.getByLabel(s.message).fill("Second message");
        await solveCaptcha(page, s.robot);
        await page.route("**/api/contact", async (route) => {
          const body = route.request().postDataJSON() as Record<string, string>;
          await route.continue({ postData: JSON.stringify({ ...body, captchaToken: firstToken }) });
        });
        await page.getByRole("button", { name: s.send }).click();
        await expect(page.getByRole("alert")).toHaveText(s.used);
        // Input is kept after an error.
        await expect(page.getByLabel(s.message)).toHaveValue("Second message");
        const count = await app.runtime.database.db
          .selectFrom("contact_messages")
          .select("id")
          .where("email", "=", email)
          .execute();
        expect(count).toHaveLength(1);
      });

      englishOnly(lang)(
        "a non-JSON error shows 'Failed to send message' and a network failure the generic error",
        async ({ page, consent }) => {
          void consent;
          await page.goto("/contact");
          await waitForPageReady(page);
          await page.getByLabel(s.email).fill("x@example.test");
          await page.getByLabel(s.message).fill("x");
          await solveCaptcha(page, s.robot);
          await page.route("**/api/contact", (route) => route.fulfill({ status: 502, body: "Bad gateway" }));
          await page.getByRole("button", { name: s.send }).click();
          await expect(page.getByRole("alert")).toHaveText(s.failed);
          await page.unroute("**/api/contact");
          await page.route("**/api/contact", (route) => route.abort());
          await solveCaptcha(page, s.robot);
          await page.getByRole("button", { name: s.send }).click();
          await expect(page.getByRole("alert")).toHaveText(s.generic);
        },
      );
    });

    englishOnly(lang)(
      "admin reads a message, marks it handled and replies by mail",
      async ({ page, app, user, consent }) => {
        void consent;
        await grantAdmin(app.runtime.database.db, user.email);
        const db = app.runtime.database.db;
        const id = `e2e-${lang}-${Date.now()}`;
        const sender = `asker-${lang}-${Date.now()}@example.test`;
        await db
          .insertInto("contact_messages")
          .values({
            id,
            name: `Asker ${lang}`,
            email: sender,
            message: `Where are my stickers (${lang})? <img src=x onerror=alert(1)>`,
            lang,
            createdAt: Date.now(),
            readAt: null,
            handledAt: null,
            handledBy: null,
          })
          .execute();
        await page.goto("/admin/messages");
        await expect(page.getByRole("heading", { level: 1, name: s.inbox })).toBeVisible();
        const item = page.getByRole("listitem").filter({ hasText: `Asker ${lang}` });
        await expect(item.getByText(s.unread)).toBeVisible();
        await expectAccessible(page);
        await waitForPageReady(page);
        await item.getByRole("link").click();
        await expect(page.getByRole("heading", { level: 1, name: `Asker ${lang}` })).toBeVisible();
        await expect(page.getByText(`Where are my stickers (${lang})? <img src=x onerror=alert(1)>`)).toBeVisible();
        await expectAccessible(page);
        await page.getByRole("button", { name: s.markHandled }).click();
        await expect(page.getByText(`${s.handledBy} ${user.email}`)).toBeVisible();
        await page.getByRole("textbox", { name: s.reply }).fill("They were posted today.");
        await page.getByRole("button", { name: s.sendReply }).click();
        await expect(page.getByRole("status").filter({ hasText: s.replySent })).toBeVisible();
        await expect(page.getByText("They were posted today.")).toBeVisible();
        const mail = await app.smtp.waitForMail((m) => m.to.includes(sender));
        expect(mail.subject).toBe(s.replySubject);
        expect(mail.text).toContain("They were posted today.");
        await page.goto("/admin/messages");
        await expect(
          page
            .getByRole("listitem")
            .filter({ hasText: `Asker ${lang}` })
            .getByText(s.unread),
        ).toHaveCount(0);
      },
    );

    englishOnly(lang)(
      "a signed-in user without the admin role gets 404 on admin pages",
      async ({ page, user, consent }) => {
        void consent;
        void user;
        const res = await page.goto("/admin/messages");
        expect(res?.status()).toBe(404);
        await expect(page.getByRole("heading", { level: 1, name: s.notFound })).toBeVisible();
        await expectAccessible(page);
        expect((await page.goto("/admin/messages/anything"))?.status()).toBe(404);
      },
    );
  });
}

test.describe("contact form without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "sv-SE" });

  test("posts as a plain form: errors are shown with the input kept, and the page says the captcha needs JavaScript", async ({
    page,
    app,
    consent,
  }) => {
    void consent;
    await page.goto("/contact");
    // Playwright's text selectors skip <noscript>; the CSS one does not.
    const notice = page.locator("noscript .alert");
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("Captchan kräver JavaScript");
    await expect(notice).toContainText("support@hittad.se");
    await page.getByLabel("E-post").fill("not-an-email");
    await page.getByLabel("Meddelande").fill("Skickat utan JavaScript");
    await page.getByRole("button", { name: "Skicka meddelande" }).click();
    await expect(page.getByRole("alert")).toHaveText("Ange en giltig e-postadress.");
    await expect(page.getByLabel("E-post")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Meddelande")).toHaveValue("Skickat utan JavaScript");
    // (axe needs page scripts, so the accessibility checks run in the tests above.)
    await page.getByLabel("E-post").fill("nojs@example.test");
    await page.getByRole("button", { name: "Skicka meddelande" }).click();
    await expect(page.getByRole("alert")).toHaveText("Slutför captcha-verifieringen");
    await expect(page.getByLabel("E-post")).toHaveValue("nojs@example.test");
    const rows = await app.runtime.database.db
      .selectFrom("contact_messages")
      .select("id")
      .where("email", "=", "nojs@example.test")
      .execute();
    expect(rows).toEqual([]);
  });
});
