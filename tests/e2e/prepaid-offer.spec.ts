/**
 * The offer before a prepaid sticker's months end (decision 036) in the browser, both
 * languages: the dashboard card and the owner's item page say "Prepaid until …" and, in
 * the last 30 days, link to /order, where the item can be ticked to order ahead.
 */
import { addMonths } from "../../app/lib/domain/pricing";
import { formatDate } from "../../app/lib/domain/dates";
import { claimSticker, createBatch, getBatch } from "../../app/server/stickers/stickers.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, test } from "./fixtures";

const TEXT = {
  en: { locale: "en-GB", card: "Prepaid until", offer: "Subscribe to keep it active", ahead: "Prepaid until" },
  sv: {
    locale: "sv-SE",
    card: "Förbetald till",
    offer: "Teckna en prenumeration så att den fortsätter vara aktiv",
    ahead: "Förbetald till",
  },
} as const;

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];
  test.describe(`prepaid offer (${lang})`, () => {
    test.use({ locale: T.locale });

    test("in its last 30 days a prepaid item offers a subscription that /order takes ahead", async ({
      page,
      context,
      app,
      consent,
    }) => {
      void consent;
      const deps = depsOf(app.runtime);
      const owner = await createUser(app.runtime, { name: "Nora Berg", language: lang });
      const staff = await createUser(app.runtime, { name: "Staff", language: lang });
      const batch = await getBatch(
        deps,
        await createBatch(deps, staff.id, { size: 1, prepaidMonths: 6, label: "Pack" }),
      );
      const id = batch.stickers[0]!.id;
      const item = {
        contactVisibility: "public" as const,
        name: lang === "sv" ? "Röd cykel" : "Red bike",
        findFee: 100,
        prodType: "other" as const,
        contactInfo: "070-123 45 67",
        payment: "year" as const,
        intent: "payLater" as const,
      };
      await claimSticker(deps, { userId: owner.id, ip: "10.9.9.9" }, { id }, item, lang);
      await context.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);

      // Just claimed: the line, no offer yet.
      await page.goto("/dashboard");
      const card = page.locator(".item-card");
      await expect(card.locator(".item-prepaid")).toHaveText(`${T.card} ${formatDate(addMonths(Date.now(), 6), lang)}`);
      await expect(card.locator(".item-prepaid-offer")).toHaveCount(0);

      // Ten days left: the offer on the card and the item page.
      const until = Date.now() + 10 * 24 * 60 * 60_000;
      await app.runtime.database.db.updateTable("products").set({ paidUntil: until }).where("id", "=", id).execute();
      await page.goto("/dashboard");
      await expect(card.locator(".item-prepaid")).toHaveText(`${T.card} ${formatDate(until, lang)}`);
      await expect(card.getByRole("link", { name: T.offer })).toBeVisible();
      await atPhoneAndDesk(page, `prepaid-card-${lang}`);
      await page.goto(`/product/${id}`);
      await expect(page.locator(".item-prepaid").getByRole("link", { name: T.offer })).toBeVisible();
      await atPhoneAndDesk(page, `prepaid-item-${lang}`);

      await page.locator(".item-prepaid").getByRole("link", { name: T.offer }).click();
      await expect(page.locator(`.order-item[data-item="${id}"] .order-ahead`)).toContainText(
        `${T.ahead} ${formatDate(until, lang)}`,
      );
      await expect(page.locator(`#order-item-${id}`)).toBeEnabled();
      await atPhoneAndDesk(page, `prepaid-order-${lang}`);
    });
  });
}
