/**
 * The printable QR and claims of a registered code (decision 052), in both languages at 390 and 1280 px: the
 * owner's item page has a printable QR of the sticker's short URL with the URL and the
 * typeable code under it and SVG/PNG downloads; /claim with a code already registered
 * tells its owner it is theirs (with a link) and anyone else the wrong-code answer with a
 * way to reach support. Screenshots with SCREENSHOTS=1.
 */
import { formatStickerCode } from "../../app/lib/domain/sticker-code";
import { createItem } from "../../app/server/items/items.service.server";
import { claimSticker, createBatch, getBatch } from "../../app/server/stickers/stickers.service.server";
import { depsOf } from "../support/deps";
import { decodeQrPng } from "../support/qr";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";

const T = {
  en: {
    locale: "en-US",
    qrTitle: "QR code to print",
    svg: "Download SVG",
    png: "Download PNG",
    yours: "This sticker is already registered to you.",
    open: "Open the item",
    wrong: /^That code does not match a sticker that can be registered/,
    support: "Contact support",
  },
  sv: {
    locale: "sv-SE",
    qrTitle: "QR-kod att skriva ut",
    svg: "Ladda ner SVG",
    png: "Ladda ner PNG",
    yours: "Det här klistermärket är redan registrerat på dig.",
    open: "Öppna saken",
    wrong: /^Koden stämmer inte med något klistermärke som kan registreras/,
    support: "Kontakta supporten",
  },
} as const;

const ITEM = {
  name: "Blue backpack",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-111 22 33",
  payment: "year",
  intent: "payLater",
} as const;

for (const [lang, tx] of Object.entries(T) as Array<[keyof typeof T, (typeof T)[keyof typeof T]]>) {
  test.describe(`printable QR and claiming a registered code (${lang})`, () => {
    test.use({ locale: tx.locale });

    test("the item page has a printable QR of the short URL with the code under it, SVG and PNG to download", async ({
      page,
      app,
      user,
      consent: _consent,
    }) => {
      test.slow();
      const deps = depsOf(app.runtime);
      const id = await createItem(deps, user.id, { ...ITEM }, lang);
      const { code } = await app.runtime.database.db
        .selectFrom("products")
        .select("code")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      await page.goto(`/product/${id}`);
      const section = page.getByRole("region", { name: tx.qrTitle });
      await expect(section).toBeVisible();
      const img = section.locator("img.item-qr-image");
      await expect(img).toHaveJSProperty("complete", true);
      expect(decodeQrPng(await img.screenshot())).toBe(`${app.server.url}/${id}`);
      await expect(section.locator(".item-qr-url")).toHaveText(`${new URL(app.server.url).host}/${id}`);
      await expect(section.locator(".item-qr-code")).toHaveText(formatStickerCode(code));
      const download = page.waitForEvent("download");
      await section.getByRole("link", { name: tx.png }).click();
      expect((await download).suggestedFilename()).toBe(`hittad-qr-${formatStickerCode(code)}.png`);
      await expect(section.getByRole("link", { name: tx.svg })).toHaveAttribute(
        "href",
        `/product/${id}/qr.svg?download`,
      );
      await expectAccessible(page);
      await section.scrollIntoViewIfNeeded();
      await atPhoneAndDesk(page, `item-qr-${lang}`);
      if (process.env.SCREENSHOTS) {
        await page.setViewportSize({ width: 390, height: 844 });
        await section.screenshot({ path: `test-results/screens/item-qr-section-${lang}-390.png` });
      }
    });

    test("a registered code: its owner is told it is theirs, anyone else gets the wrong-code answer and support", async ({
      page,
      app,
      user,
      browser,
      consent: _consent,
    }) => {
      test.slow();
      const deps = depsOf(app.runtime);
      const staff = await createUser(app.runtime, { name: "Staff" });
      const batch = await getBatch(
        deps,
        await createBatch(deps, staff.id, { size: 1, prepaidMonths: null, label: "e2e" }),
      );
      const sticker = batch.stickers[0]!;
      const id = await claimSticker(deps, { userId: user.id, ip: "127.0.0.9" }, { id: sticker.id }, { ...ITEM }, lang);
      await page.goto("/claim");
      await waitForHydration(page);
      await page.getByRole("textbox").fill(sticker.code);
      await page.getByRole("textbox").press("Enter");
      await expect(page.getByRole("alert")).toHaveText(tx.yours);
      await expect(page.getByRole("link", { name: tx.open })).toHaveAttribute("href", `/product/${id}`);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `claim-yours-${lang}`);

      const stranger = await createUser(app.runtime, { name: "Stranger Person" });
      const other = await browser.newContext({ locale: tx.locale });
      await other.addCookies([
        { ...stranger.sessionCookie, url: app.server.url },
        { name: "ConsentApproved", value: "true", url: app.server.url },
      ]);
      const p2 = await other.newPage();
      const theirs = await p2.request.get(`${app.server.url}/claim?code=${encodeURIComponent(sticker.code)}`);
      const wrong = await p2.request.get(`${app.server.url}/claim?code=ZZZ-ZZZ-ZZZ`);
      expect(theirs.status()).toBe(404);
      expect(wrong.status()).toBe(404);
      await p2.goto(`${app.server.url}/claim?code=${encodeURIComponent(sticker.code)}`);
      await expect(p2.getByRole("alert")).toHaveText(tx.wrong);
      await expect(p2.getByRole("link", { name: tx.support })).toHaveAttribute("href", "/contact");
      await expect(p2.getByText(tx.yours)).toHaveCount(0);
      await atPhoneAndDesk(p2, `claim-stranger-${lang}`);
      await other.close();
    });
  });
}
