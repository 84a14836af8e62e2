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
  },
  sv: {
    locale: "sv-SE",
    section: "Notiser på dina enheter",
    devices: "Enheter som får notiser",
    remove: "Ta bort Chrome, Android",
    removed: "Enheten får inte längre notiser.",
    none: "Ingen enhet får notiser än.",
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
  });
}
