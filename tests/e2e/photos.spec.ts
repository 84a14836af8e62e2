/**
 * Item photos in the browser (decision 035), one walk per language at a phone's and a desk's
 * width: a photo chosen on the product form with JavaScript (previewed, made smaller
 * before upload), a second one uploaded from the item's page without JavaScript, the
 * anonymous finder page without JavaScript showing the first public photo (lost mode
 * leads with it), and the photos made private disappearing for the finder.
 */
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { phonePhotoWithGps } from "../support/images";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration } from "./fixtures";

const L = {
  en: {
    locale: "en-GB",
    name: "Name",
    fee: "Finder's fee",
    contact: "Contact info",
    add: "Add photos",
    payLater: "Save and pay later",
    upload: "Upload",
    makePrivate: "Make private",
    privateBadge: "Private",
    alt: (name: string) => `Photo of ${name}`,
    tooLarge: "The photo is larger than 15 MB.",
  },
  sv: {
    locale: "sv-SE",
    name: "Namn",
    fee: "Hittelön",
    contact: "Kontaktuppgifter",
    add: "Lägg till foton",
    payLater: "Spara och betala senare",
    upload: "Ladda upp",
    makePrivate: "Gör privat",
    privateBadge: "Privat",
    alt: (name: string) => `Foto av ${name}`,
    tooLarge: "Fotot är större än 15 MB.",
  },
} as const;

const SHOTS = "/work/wt/shots/photos";

/** Both widths: nothing wider than the screen (atPhoneAndDesk), and a picture to look at. */
async function shoot(page: Page, name: string) {
  await atPhoneAndDesk(page, name);
  if (!fs.existsSync(SHOTS)) return;
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

let jpeg: Buffer;
test.beforeAll(async () => {
  jpeg = await phonePhotoWithGps();
});

for (const [lang, s] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
  test.describe(`photos (${lang})`, () => {
    test.use({ locale: s.locale });

    test(`upload with and without JavaScript, the finder sees the photo, private hides it (${lang})`, async ({
      app,
      browser,
      page,
      user,
      consent: _consent,
    }) => {
      test.setTimeout(120_000);
      const itemName = `Svart mobil ${lang}`;
      // 1. With JavaScript: the product form, a photo chosen, previewed, then saved.
      await page.goto("/product/register");
      await waitForHydration(page);
      await page.getByLabel(s.name, { exact: true }).fill(itemName);
      await page.getByLabel(new RegExp(`^${s.fee}`)).fill("200");
      await page.locator("#product-prodType").selectOption("mobile");
      await page.getByLabel(s.contact, { exact: true }).fill("070-123 45 67");
      // A file over the limit that the browser cannot shrink (here a 16 MB PDF named .jpg)
      // is taken out before it is sent, with the server's message; nothing typed is lost.
      const oversized = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(16 * 1024 * 1024)]);
      await page.getByLabel(s.add).setInputFiles({ name: "scan.jpg", mimeType: "image/jpeg", buffer: oversized });
      await expect(page.locator(".photo-picker [role=alert]")).toContainText(s.tooLarge);
      expect(await page.locator("#product-photo").evaluate((el) => (el as HTMLInputElement).files!.length)).toBe(0);
      await expect(page.getByLabel(s.name, { exact: true })).toHaveValue(itemName);
      await page.getByLabel(s.add).setInputFiles({ name: "phone.jpg", mimeType: "image/jpeg", buffer: jpeg });
      await expect(page.locator("img.photo-preview")).toHaveCount(1);
      await expect(page.locator(".photo-picker [role=alert]")).toHaveCount(0);
      // Made smaller in the browser before upload: the file in the input is no longer the original.
      const sent = await page.locator("#product-photo").evaluate((el) => (el as HTMLInputElement).files![0]!.size);
      expect(sent).toBeLessThan(jpeg.length);
      await expectAccessible(page, { label: "the product form with a photo" });
      await shoot(page, `form-with-photo-${lang}`);
      await page.getByRole("button", { name: s.payLater, exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard/, { timeout: 20_000 });
      await expect(page.locator("img.item-thumb")).toHaveAttribute("alt", s.alt(itemName));
      const item = await app.runtime.database.db
        .selectFrom("products")
        .select("id")
        .where("owner", "=", user.id)
        .executeTakeFirstOrThrow();
      await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", item.id).execute();

      // 2. Without JavaScript: the item's page, a second photo by plain multipart POST.
      const noJs = await browser.newContext({ locale: s.locale, javaScriptEnabled: false, baseURL: app.server.url });
      await noJs.addCookies([
        { ...user.sessionCookie, url: app.server.url },
        { name: "ConsentApproved", value: "true", url: app.server.url },
      ]);
      const owner = await noJs.newPage();
      await owner.goto(`/product/${item.id}`);
      await owner
        .locator(`#photo-upload-${item.id}`)
        .setInputFiles({ name: "second.jpg", mimeType: "image/jpeg", buffer: jpeg });
      await owner.locator("#photos").getByRole("button", { name: s.upload, exact: true }).click();
      await expect(owner).toHaveURL(new RegExp(`/product/${item.id}#photos$`));
      await expect(owner.locator(".photo-item")).toHaveCount(2);
      await shoot(owner, `item-view-${lang}`);

      // 3. The anonymous finder, without JavaScript: the first public photo.
      const finderContext = await browser.newContext({
        locale: s.locale,
        javaScriptEnabled: false,
        baseURL: app.server.url,
      });
      await finderContext.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
      const finder = await finderContext.newPage();
      await finder.goto(`/${item.id}`);
      const img = finder.locator("img.item-photo");
      await expect(img).toHaveAttribute("alt", s.alt(itemName));
      await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await shoot(finder, `finder-with-photo-${lang}`);
      // Lost mode leads with the photo, above the banner.
      await app.runtime.database.db
        .updateTable("products")
        .set({ lostAt: Date.now(), updatedAt: Date.now() })
        .where("id", "=", item.id)
        .execute();
      await expect
        .poll(async () => {
          await finder.goto(`/${item.id}`);
          return finder.locator(".item-page > :first-child").getAttribute("class");
        })
        .toBe("item-photo");
      await expect(finder.locator(".lost-banner")).toBeVisible();
      await shoot(finder, `finder-lost-${lang}`);

      // 4. Both photos made private (no JavaScript): the finder sees none.
      for (let i = 0; i < 2; i++) {
        await owner.locator("#photos").getByRole("button", { name: s.makePrivate, exact: true }).first().click();
        await expect(owner.locator(".photo-item .badge", { hasText: s.privateBadge })).toHaveCount(i + 1);
      }
      await finder.goto(`/${item.id}`);
      await expect(finder.locator("img.item-photo")).toHaveCount(0);
      await expect(finder.locator("img[src*='/photo/']")).toHaveCount(0);
      await noJs.close();
      await finderContext.close();
    });
  });
}
