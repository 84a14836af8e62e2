/**
 * Web push on /account (decision 034), in both languages: the installable app's
 * manifest is linked for a signed-in owner (not on anonymous pages), the section offers
 * notifications on this device, lists the devices that get them and removes one. Real
 * subscribing needs a browser push service, which a test browser has not: the device is
 * stored as the API would store it (tests/integration/push.test.ts covers the API).
 */
import { randomUUID } from "node:crypto";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";

const texts = {
  en: {
    locale: "en-US",
    section: "Notifications on your devices",
    devices: "Devices that get notifications",
    remove: "Remove Chrome, Android",
    removed: "The device no longer gets notifications.",
    none: "No device gets notifications yet.",
    enable: "Get notifications on this device",
    enabling: "Turning on notifications…",
    unreachable: /^Your browser's push service did not answer/,
    cannotKeep: /^This browser cannot keep notifications here: a private window/,
  },
  sv: {
    locale: "sv-SE",
    section: "Notiser på dina enheter",
    devices: "Enheter som får notiser",
    remove: "Ta bort Chrome, Android",
    removed: "Enheten får inte längre notiser.",
    none: "Ingen enhet får notiser än.",
    enable: "Få notiser på den här enheten",
    enabling: "Slår på notiser…",
    unreachable: /^Webbläsarens notistjänst svarade inte/,
    cannotKeep: /^Den här webbläsaren kan inte behålla notiser här: ett privat fönster/,
  },
} as const;

for (const [lang, tx] of Object.entries(texts)) {
  test.describe(`push notifications on /account (${lang})`, () => {
    test.use({ locale: tx.locale });

    test("the manifest is linked for owners, and /account lists and removes the devices that get notifications", async ({
      page,
      app,
      user,
      consent: _consent,
    }) => {
      // Two widths, axe and a removal: more than the default half minute on a loaded machine.
      test.slow();
      await app.runtime.database.db
        .insertInto("push_subscriptions")
        .values({
          id: randomUUID(),
          userId: user.id,
          endpoint: `https://push.example/${randomUUID()}`,
          p256dh: Buffer.alloc(65, 4).toString("base64url"),
          auth: Buffer.alloc(16, 1).toString("base64url"),
          label: "Chrome, Android",
          createdAt: Date.now(),
          lastSentAt: null,
        })
        .execute();
      await page.goto("/account");
      await waitForHydration(page);
      await expect(page.locator('head link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
      const section = page.getByRole("region", { name: tx.section });
      await expect(section.getByRole("heading", { name: tx.devices })).toBeVisible();
      await expect(section.getByText("Chrome, Android")).toBeVisible();
      await expectAccessible(page);
      await atPhoneAndDesk(page, `account-push-${lang}`);
      await section.getByRole("button", { name: tx.remove }).click();
      await expect(page.getByRole("status").filter({ hasText: tx.removed })).toBeVisible();
      await expect(page.getByRole("region", { name: tx.section }).getByText(tx.none)).toBeVisible();

      // Anonymous pages do not link it.
      await page.context().clearCookies({ name: user.sessionCookie.name });
      await page.goto("/");
      await expect(page.locator('link[rel="manifest"]')).toHaveCount(0);
    });

    test("a push service that cannot be reached times out with a clear message; a browser that cannot keep notifications says so (issue #46 point 10)", async ({
      page,
      context,
      user: _user,
      consent: _consent,
    }) => {
      test.slow();
      await context.grantPermissions(["notifications"]);
      await page.clock.install();
      // The browser's push service never answers, as when it cannot be reached.
      await page.addInitScript(() => {
        PushManager.prototype.subscribe = () => new Promise(() => {});
      });
      await page.goto("/account");
      await waitForHydration(page);
      const section = page.getByRole("region", { name: tx.section });
      const button = section.getByRole("button", { name: tx.enable });
      await button.click();
      await expect(section.getByRole("status")).toHaveText(tx.enabling);
      await expect(button).toBeDisabled();
      // The service worker is in place (real time), so the time limit that runs out is the push service's.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
      await page.clock.runFor(16_000);
      await expect(section.getByRole("status")).toHaveText(tx.unreachable);
      await expect(button).toBeEnabled();
      await expectAccessible(page);
      await atPhoneAndDesk(page, `account-push-unreachable-${lang}`);

      // A private window: the browser refuses the service worker.
      await page.addInitScript(() => {
        ServiceWorkerContainer.prototype.register = () =>
          Promise.reject(new DOMException("The operation is insecure.", "SecurityError"));
      });
      await page.reload();
      await waitForHydration(page);
      await section.getByRole("button", { name: tx.enable }).click();
      await expect(section.getByRole("status")).toHaveText(tx.cannotKeep);
      await atPhoneAndDesk(page, `account-push-cannot-keep-${lang}`);
    });
  });
}
