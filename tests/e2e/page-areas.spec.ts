/**
 * Each page's browser loads only the translation areas it renders before hydrating (the
 * root's and its route's `handle.i18n`, docs/decisions/020). A missing area shows up in
 * two ways, both checked here on every page an owner, staff or a visitor reaches: a
 * hydration error (the fixtures fail a test on any console error) and a raw key such as
 * `common.counterOver` in the text or in an accessible name. The areas are the same in
 * both languages, so one language (Swedish) is walked; app/i18n/route-areas.test.ts checks
 * the declarations against the code.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { grantAdmin } from "../../app/server/admin/admin.repository.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { createOrder } from "../../app/server/orders/checkout.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { expect, test, waitForPageReady } from "./fixtures";
import { uniqueOrgNumber } from "../support/org-numbers";

const localesDir = path.resolve(import.meta.dirname, "../../app/locales/sv");

/** Every key as i18next shows it when its area is missing (no plural suffix). */
function translationKeys(): Set<string> {
  const keys = new Set<string>();
  const walk = (value: unknown, at: string) => {
    if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) walk(v, `${at}.${k}`);
    else keys.add(at.replace(/_(zero|one|two|few|many|other)$/, ""));
  };
  for (const file of fs.readdirSync(localesDir).filter((f) => f.endsWith(".json"))) {
    walk(JSON.parse(fs.readFileSync(path.join(localesDir, file), "utf8")), file.replace(/\.json$/, ""));
  }
  return keys;
}

async function rawKeysOn(page: Page, keys: Set<string>): Promise<string[]> {
  const text = await page.evaluate(() => {
    const attributes = [...document.querySelectorAll("[aria-label], [placeholder], [title], [alt]")].flatMap((el) =>
      ["aria-label", "placeholder", "title", "alt"].map((a) => el.getAttribute(a) ?? ""),
    );
    return [document.title, document.body.innerText, ...attributes].join("\n");
  });
  return [...new Set(text.match(/[a-z]+(?:\.[A-Za-z0-9_]+)+/g) ?? [])].filter((t) => keys.has(t));
}

test.describe("translations per page", () => {
  test.use({ locale: "sv-SE" });

  test("every page has the translations it shows before hydrating: no raw key, no hydration error", async ({
    page,
    app,
    context,
    consent,
  }) => {
    void consent;
    test.setTimeout(240_000);
    const deps = depsOf(app.runtime);
    const owner = await createUser(app.runtime, { name: "Anna Svensson", language: "sv" });
    await keepOrderAddress(
      deps,
      owner.id,
      {
        firstname: "Anna",
        lastname: "Svensson",
        email: owner.email,
        co: "",
        address: "Storgatan 1",
        address2: "",
        city: "Uppsala",
        state: "",
        zip: "753 20",
        country: "Sverige",
      },
      false,
    );
    const item = (name: string) =>
      createItem(
        deps,
        owner.id,
        {
          name,
          findFee: 100000,
          prodType: "laptop",
          contactInfo: "070-123 45 67",
          payment: "month",
          intent: "payLater",
        },
        "sv",
      );
    const paid = await item("Laptop");
    const unpaid = await item("Svart telefon");
    const paidOrder = await createOrder(deps, { userId: owner.id, itemIds: [paid], period: "month", lang: "sv" });
    const pay = await fetch(`${app.server.url}/order/checkout/${paidOrder.id}`, {
      method: "POST",
      headers: { cookie: owner.cookie, origin: app.server.url, "content-type": "application/x-www-form-urlencoded" },
      body: "",
      redirect: "manual",
    });
    expect(pay.status).toBe(302);
    const pendingOrder = await createOrder(deps, {
      userId: owner.id,
      itemIds: [unpaid],
      period: "year",
      lang: "sv",
    });
    await grantAdmin(app.runtime.database.db, owner.email);
    const organisation = await createOrganisation(deps, owner.id, {
      name: "Hittegods AB",
      orgNumber: uniqueOrgNumber(),
      billingEmail: owner.email,
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "75320",
      invoiceCity: "Uppsala",
      invoiceCountry: "SE",
      vatNumber: null,
      deskContact: "Receptionen",
    });

    const anonymous = [
      "/",
      "/companies",
      "/support",
      "/terms",
      "/cookies",
      "/contact",
      "/login",
      "/user/register",
      "/resetpassword",
      "/resetpassword/new?token=not-a-token",
      "/find",
      "/find?code=0000000",
      `/product/${paid}`,
      `/product/${unpaid}`,
      "/no-such-page/at-all",
    ];
    const signedIn = [
      "/dashboard",
      "/dashboard/import",
      "/account",
      "/account/delete",
      "/messages",
      "/product/register",
      `/product/edit/${paid}`,
      `/product/${paid}`,
      `/product/${paid}/replacement`,
      `/product/${unpaid}/delete`,
      "/user/register-adress",
      "/user/verify-email",
      "/order",
      `/order/checkout/${pendingOrder.id}`,
      `/order/complete/${paidOrder.id}`,
      `/order/${paidOrder.id}/receipt`,
      `/order/${paidOrder.id}/payment`,
      `/order/${paidOrder.id}/cancel`,
      "/organisations/new",
      `/organisations/${organisation}`,
      "/admin/messages",
      "/admin/shipments",
      "/admin/orders",
      "/admin/backups",
    ];
    const keys = translationKeys();
    for (const [paths, session] of [
      [anonymous, false],
      [signedIn, true],
    ] as const) {
      if (session) await context.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);
      for (const p of paths) {
        await test.step(p, async () => {
          await page.goto(p);
          await waitForPageReady(page);
          expect.soft(await rawKeysOn(page, keys), `raw translation keys on ${p}`).toEqual([]);
        });
      }
    }
  });
});
