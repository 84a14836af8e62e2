/**
 * An organisation's webhooks page (decision 061) in both languages: its admin opens it from
 * the organisation's page, is refused an endpoint on a private address (the field says
 * why), sees an endpoint's events, its secret on demand and its delivery log, sends a test
 * event and disables it. Endpoints are stored as the service stores them (a real one needs
 * a public host; tests/integration/webhooks.test.ts delivers to a local receiver). Axe;
 * screenshots with SCREENSHOTS=1.
 */
import { randomUUID } from "node:crypto";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { newWebhookSecret } from "../../app/server/webhooks/webhooks.service.server";
import { depsOf } from "../support/deps";
import { uniqueOrgNumber } from "../support/org-numbers";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";

const TEXT = {
  en: {
    locale: "en-US",
    link: "Manage webhooks",
    title: (org: string) => `Webhooks for ${org}`,
    url: "Endpoint URL",
    scanned: "A thing was scanned",
    add: "Add endpoint",
    private: "That address is on a private network; the endpoint must be reachable from the internet.",
    secret: "Show signing secret",
    log: "Latest deliveries",
    test: "Send a test event",
    testDone: "A test event is on its way.",
    disable: "Disable",
    disabled: "The endpoint is disabled.",
    enable: "Enable",
  },
  sv: {
    locale: "sv-SE",
    link: "Hantera webhooks",
    title: (org: string) => `Webhooks för ${org}`,
    url: "Mottagarens URL",
    scanned: "En sak skannades",
    add: "Lägg till mottagare",
    private: "Adressen ligger i ett privat nät; mottagaren måste gå att nå från internet.",
    secret: "Visa signeringshemligheten",
    log: "Senaste leveranserna",
    test: "Skicka en testhändelse",
    testDone: "En testhändelse är på väg.",
    disable: "Stäng av",
    disabled: "Mottagaren är avstängd.",
    enable: "Slå på",
  },
} as const;

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];
  test.describe(`an organisation's webhooks (${lang})`, () => {
    test.use({ locale: T.locale });

    test("its admin is refused a private address, reads an endpoint's log, sends a test event and disables it", async ({
      app,
      context,
      page,
      consent,
    }) => {
      void consent;
      test.slow();
      const deps = depsOf(app.runtime);
      const admin = await createUser(app.runtime, { name: "Ada Admin", language: lang });
      const orgName = `Hooks AB ${lang}`;
      const org = await createOrganisation(deps, admin.id, {
        name: orgName,
        orgNumber: uniqueOrgNumber(),
        billingEmail: `billing-hooks-${lang}@hooks.example`,
        invoiceStreet: "Storgatan 1",
        invoicePostcode: "903 26",
        invoiceCity: "Umeå",
        invoiceCountry: "SE",
        vatNumber: null,
        deskContact: "Reception",
      });
      await context.addCookies([{ ...admin.sessionCookie, url: app.server.url }]);
      const db = app.runtime.database.db;
      const id = `we_${randomUUID().replace(/-/g, "").slice(0, 22)}`;
      const now = Date.now();
      await db
        .insertInto("webhook_endpoints")
        .values({
          id,
          organisationId: org,
          url: "https://assets.hooks.example/hittad/events",
          secret: newWebhookSecret(),
          events: "item.scanned,message.received,order.paid",
          enabled: 1,
          disabledReason: null,
          createdAt: now - 86_400_000,
          createdBy: admin.id,
          failingSince: null,
        })
        .execute();
      const lines: [string, number | null, number][] = [
        ["item.scanned", 204, 182],
        ["message.received", 500, 1204],
        ["message.received", null, 10_003],
        ["order.paid", 200, 95],
      ];
      for (const [i, [type, status, ms]] of lines.entries()) {
        await db
          .insertInto("webhook_deliveries")
          .values({
            id: randomUUID(),
            endpointId: id,
            eventId: `msg_${String(i).padStart(27, "a")}`,
            eventType: type,
            attemptedAt: now - (lines.length - i) * 600_000,
            statusCode: status,
            durationMs: ms,
            ok: status !== null && status < 300 ? 1 : 0,
            error: status === null ? "no answer within 10000 ms" : null,
          })
          .execute();
      }

      await page.goto(`/organisations/${org}`);
      await page.getByRole("link", { name: T.link }).click();
      await expect(page.getByRole("heading", { level: 1, name: T.title(orgName) })).toBeVisible();
      await waitForHydration(page);

      await page.getByLabel(T.url).fill("https://10.0.0.7/hook");
      await page.getByLabel(new RegExp(T.scanned)).check();
      await page.getByRole("button", { name: T.add }).click();
      await expect(page.getByText(T.private).first()).toBeVisible();
      await expect(page.getByLabel(T.url)).toHaveValue("https://10.0.0.7/hook");
      // Said beside the field alone (no alert above the form): the focus goes to the field.
      await expect(page.getByLabel(T.url)).toBeFocused();

      await expect(page.getByRole("heading", { name: T.log })).toBeVisible();
      await expect(page.getByText("assets.hooks.example/hittad/events")).toBeVisible();
      await page.getByText(T.secret).click();
      await expect(page.locator("code", { hasText: /^whsec_/ })).toBeVisible();
      await expectAccessible(page);
      await atPhoneAndDesk(page, `webhooks-${lang}`);

      await page.getByRole("button", { name: T.test }).click();
      await expect(page.getByRole("status").filter({ hasText: T.testDone })).toBeVisible();
      const queued = await db.selectFrom("mail_outbox").select("subject").where("to", "=", id).execute();
      expect(queued).toEqual([{ subject: "webhook.test" }]);
      await page.getByRole("button", { name: T.disable }).click();
      await expect(page.getByRole("status").filter({ hasText: T.disabled })).toBeVisible();
      await expect(page.getByRole("button", { name: T.enable })).toBeVisible();
    });
  });
}
