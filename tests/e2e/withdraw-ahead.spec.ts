/**
 * Withdrawing from an order placed ahead for a prepaid sticker's item (decisions 036 and
 * 041) in the browser, both languages: the page says the subscription ends before it
 * starts and the item stays active until its prepaid end, everything paid goes back, and
 * the dashboard still shows the item prepaid. A Stripe order on trial (nothing charged)
 * says there is nothing to refund.
 */
import { addMonths } from "../../app/lib/domain/pricing";
import { formatDate } from "../../app/lib/domain/dates";
import { createOrder } from "../../app/server/orders/checkout.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { claimSticker, createBatch, getBatch } from "../../app/server/stickers/stickers.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test } from "./fixtures";
import { ADDRESS } from "../support/service-fixtures";

const TEXT = {
  en: {
    locale: "en-GB",
    endsAhead: "The subscription ends at once, before it starts",
    notStarted: "The subscription had not started yet, so you get everything back.",
    nothingPaid: "Nothing has been charged for this order yet, so there is nothing to refund.",
    pay: "Complete test payment",
    confirm: /^Withdraw and refund /,
    withdrawn: "You have withdrawn from the order.",
    card: "Prepaid until",
  },
  sv: {
    locale: "sv-SE",
    endsAhead: "Prenumerationen avslutas direkt, innan den börjar",
    notStarted: "Prenumerationen hade inte börjat ännu, så du får tillbaka allt.",
    nothingPaid: "Ingenting har dragits för beställningen ännu, så det finns inget att återbetala.",
    pay: "Slutför testbetalningen",
    confirm: /^Ångra köpet och få tillbaka /,
    withdrawn: "Du har ångrat beställningen.",
    card: "Förbetald till",
  },
} as const;

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];
  test.describe(`withdrawal of an order placed ahead (${lang})`, () => {
    test.use({ locale: T.locale });

    test("before the prepaid end everything goes back and the item stays prepaid", async ({
      page,
      context,
      app,
      consent: _consent,
    }) => {
      const deps = depsOf(app.runtime);
      const owner = await createUser(app.runtime, { name: "Alva Ahead", language: lang });
      const staff = await createUser(app.runtime, { name: "Staff", language: lang });
      const batch = await getBatch(
        deps,
        await createBatch(deps, staff.id, { size: 1, prepaidMonths: 6, label: "Pack" }),
      );
      const id = batch.stickers[0]!.id;
      await claimSticker(
        deps,
        { userId: owner.id, ip: "10.9.9.8" },
        { id },
        {
          contactVisibility: "public",
          name: lang === "sv" ? "Röd cykel" : "Red bike",
          findFee: 100,
          prodType: "other",
          contactInfo: "070-123 45 67",
          payment: "year",
          intent: "payLater",
        },
        lang,
      );
      await keepOrderAddress(
        deps,
        owner.id,
        { ...ADDRESS, firstname: "Alva", lastname: "Ahead", email: owner.email },
        false,
      );
      const order = await createOrder(deps, {
        userId: owner.id,
        itemIds: [id],
        period: "year",
        lang,
        immediateStart: true,
      });
      await context.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);
      await page.goto(`/order/checkout/${order.id}`);
      await page.getByRole("button", { name: T.pay }).click();
      await expect(page).toHaveURL(/\/order\/complete\//);
      const until = formatDate(addMonths(Date.now(), 6), lang);

      await page.goto(`/order/${order.id}/withdraw`);
      await expect(page.getByText(T.endsAhead)).toContainText(until);
      await expect(page.getByText(T.notStarted)).toBeVisible();
      await expect(page.locator(".withdraw-refund")).toHaveAttribute("data-refund", String(order.totalAmount));
      await expectAccessible(page);
      await atPhoneAndDesk(page, `withdraw-ahead-${lang}`);
      await page.getByRole("button", { name: T.confirm }).click();
      await expect(page).toHaveURL(/\/dashboard\?billing=withdrawn/);
      await expect(page.getByRole("alert").filter({ hasText: T.withdrawn })).toBeVisible();
      await expect(page.locator(".item-card .item-prepaid")).toHaveText(`${T.card} ${until}`);

      // The same page for a Stripe order still on trial (its state as the webhook leaves it:
      // paid up to its start, nothing charged): nothing to refund.
      const trial = await createOrder(deps, {
        userId: owner.id,
        itemIds: [id],
        period: "year",
        lang,
        immediateStart: true,
      });
      await app.runtime.database.db
        .updateTable("orders")
        .set({ provider: "stripe", status: "paid", paidAt: Date.now(), paidUntil: trial.startsAt, renewing: 1 })
        .where("id", "=", trial.id)
        .execute();
      await page.goto(`/order/${trial.id}/withdraw`);
      await expect(page.locator(".withdraw-refund")).toHaveText(T.nothingPaid);
      await expectAccessible(page);
      await atPhoneAndDesk(page, `withdraw-ahead-trial-${lang}`);
    });
  });
}
