/**
 * The finder's private link after sending (decision 057), in both languages at
 * 390 and 1280 px: one status announces "sent" (the link's copy result has a live region of
 * its own, not a second status), and "Write again" neither promises the private link the
 * finder is reading nor asks for contact details the conversation already has.
 */
import { createItem } from "../../app/server/items/items.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration, waitForPageScript } from "./fixtures";

const L = {
  en: {
    locale: "en-US",
    message: "Your message",
    contact: "Your email or phone (optional)",
    send: "Send message",
    sent: "Your message has been sent to the owner.",
    writeAgain: "Write again",
    linkPromise: "After sending you get a private link",
    writeAgainIntro: "Your message goes to the owner, and their answer appears here.",
    copy: "Copy link",
    robot: "I'm not a robot",
  },
  sv: {
    locale: "sv-SE",
    message: "Ditt meddelande",
    contact: "Din e-post eller ditt telefonnummer (frivilligt)",
    send: "Skicka meddelande",
    sent: "Ditt meddelande har skickats till ägaren.",
    writeAgain: "Skriv igen",
    linkPromise: "När du har skickat det får du en privat länk",
    writeAgainIntro: "Meddelandet går till ägaren och svaret visas här.",
    copy: "Kopiera länken",
    robot: "Jag är inte en robot",
  },
} as const;

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`the finder's private link (${lang})`, () => {
    test.use({ locale: s.locale, viewport: { width: 390, height: 844 } });
    test.describe.configure({ timeout: 90_000 });

    test("after sending, one status says it was sent and writing again asks only for the message", async ({
      page,
      app,
      consent,
    }) => {
      void consent;
      const owner = await createUser(app.runtime, { language: lang });
      const item = await createItem(
        depsOf(app.runtime),
        owner.id,
        {
          name: `Umbrella ${lang}`,
          findFee: 100,
          prodType: "other",
          contactInfo: "070-hidden",
          contactVisibility: "private",
          payment: "year",
          intent: "payLater",
        },
        lang,
      );
      await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", item).execute();

      await page.goto(`/product/${item}`);
      await waitForPageScript(page);
      // The first message promises the link and asks how the owner may answer.
      await expect(page.getByText(s.linkPromise)).toBeVisible();
      await page.getByLabel(s.message).fill(`Found it at the gate (${lang})`);
      await page.getByLabel(s.contact).fill(`finder-${lang}@example.test`);
      await page.getByRole("button", { name: s.send }).click();
      await page.waitForURL(/\/m\/[^?]+\?sent=1$/);
      await waitForHydration(page);
      // Hydrated, the copy button is there: still exactly one status, the one saying "sent".
      await expect(page.getByRole("button", { name: s.copy })).toBeVisible();
      await expect(page.getByRole("status")).toHaveCount(1);
      await expect(page.getByRole("status")).toHaveText(s.sent);

      const again = page.getByRole("region", { name: s.writeAgain });
      await expect(again).toContainText(s.writeAgainIntro);
      await expect(again).not.toContainText(s.linkPromise);
      await expect(again.getByLabel(s.contact)).toHaveCount(0);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `finder-thread-sent-${lang}`);
      if (process.env.SCREENSHOTS)
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.screenshot({ path: `/tmp/shots-ux-words/finder-thread-${lang}-${width}.png`, fullPage: true });
        }

      // Writing again: the message alone goes; the conversation keeps the first contact.
      await page.setViewportSize({ width: 390, height: 844 });
      await again.getByLabel(s.message).fill(`It is at the reception now (${lang})`);
      // With JavaScript the follow-up carries the captcha, as the first message's page would.
      await again.getByText(s.robot, { exact: true }).click();
      await expect(page.locator('altcha-widget [data-state="verified"]')).toHaveCount(1, { timeout: 20_000 });
      await again.getByRole("button", { name: s.send }).click();
      await expect(page.getByText(`It is at the reception now (${lang})`)).toBeVisible();
      await expect(page.getByRole("status")).toHaveCount(1);
      await expect(page.getByRole("status")).toHaveText(s.sent);
    });
  });
}
