/**
 * Nothing typed is lost when the page's script arrives late (decision 032): on a slow
 * phone a signed-in user types into the server-rendered form before React hydrates it.
 * Every script is held back until the fields are filled, then released; after hydration
 * (and a render that follows it) every field still holds what was typed, the derived text
 * (counter, price, suggestion) follows it, and the browser logged no hydration error (the
 * fixture fails the test on any console error).
 */
import type { Page } from "@playwright/test";
import { CONTACT_INFO_MAX } from "../../app/lib/forms/product-form";
import { formatPrice, orderTotals } from "../../app/lib/domain/pricing";
import { createItem } from "../../app/server/items/items.service.server";
import { depsOf } from "../support/deps";
import { expect, test, waitForHydration } from "./fixtures";

/** Holds every JavaScript module back until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.js(\?.*)?$/, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

/** Collects React's hydration complaints (also console errors, which the fixture fails on). */
function hydrationErrors(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (msg) => {
    if (/hydrat/i.test(msg.text())) seen.push(msg.text());
  });
  page.on("pageerror", (err) => {
    if (/hydrat/i.test(err.message)) seen.push(err.message);
  });
  return seen;
}

test.describe("typing before hydration", () => {
  test.use({ locale: "en-US" });

  test("the product form keeps the name, fee, value and plan typed before its script ran, and saves them", async ({
    page,
    app,
    user,
    consent,
  }) => {
    void consent;
    const errors = hydrationErrors(page);
    const release = await holdScripts(page);
    await page.goto("/product/register", { waitUntil: "domcontentloaded" });
    await page.locator("#product-name").fill("Slow phone bag");
    await page.locator("#product-findFee").fill("250");
    await page.locator("#product-approxValue").fill("2500");
    await page.locator("#product-payment-month").check();
    await page.locator("#product-contactInfo").fill("Call 070-555 12 34");
    release();
    await waitForHydration(page);
    // A render after hydration (the counter, the suggestion) must not put the old values back.
    await page.locator("#product-name").press("End");
    await page.locator("#product-name").pressSequentially("!");
    await expect(page.locator("#product-name")).toHaveValue("Slow phone bag!");
    await expect(page.locator("#product-findFee")).toHaveValue("250");
    await expect(page.locator("#product-approxValue")).toHaveValue("2500");
    await expect(page.locator("#product-payment-month")).toBeChecked();
    // What the page derives from the fields follows what was typed before hydration.
    await expect(page.locator("#product-contactInfo-counter")).toContainText(
      String(CONTACT_INFO_MAX - "Call 070-555 12 34".length),
    );
    await expect(page.locator(".fee-suggest [role=status]")).toContainText("250");
    await page.getByLabel("Type").selectOption("other");
    await page.getByRole("button", { name: "Save and pay later" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const row = await app.runtime.database.db
      .selectFrom("products")
      .select(["name", "findFee", "approxValue"])
      .where("owner", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "Slow phone bag!", findFee: 250 });
    expect(Number(row.approxValue)).toBe(2500);
    expect(errors).toEqual([]);
  });

  test("the contact form of a signed-in user keeps every field typed before its script ran", async ({
    page,
    user,
    consent,
  }) => {
    void user;
    void consent;
    const errors = hydrationErrors(page);
    const release = await holdScripts(page);
    await page.goto("/contact", { waitUntil: "domcontentloaded" });
    await page.locator("#contact-name").fill("Anna Slow");
    await page.locator("#contact-email").fill("anna.slow@example.test");
    await page.locator("#contact-message").fill("Typed before the script arrived.");
    release();
    await waitForHydration(page);
    await page.locator("#contact-message").press("End");
    await page.locator("#contact-message").pressSequentially(" More.");
    await expect(page.locator("#contact-name")).toHaveValue("Anna Slow");
    await expect(page.locator("#contact-email")).toHaveValue("anna.slow@example.test");
    await expect(page.locator("#contact-message")).toHaveValue("Typed before the script arrived. More.");
    expect(errors).toEqual([]);
  });

  test("the order page keeps the ticks and the plan chosen before its script ran", async ({
    page,
    app,
    user,
    consent,
  }) => {
    void consent;
    const ids: string[] = [];
    for (const name of ["Slow one", "Slow two", "Slow three"]) {
      ids.push(
        await createItem(
          depsOf(app.runtime),
          user.id,
          { name, findFee: 100, prodType: "other", contactInfo: "Call me", payment: "year", intent: "payLater" },
          "en",
        ),
      );
    }
    const errors = hydrationErrors(page);
    const release = await holdScripts(page);
    await page.goto("/order", { waitUntil: "domcontentloaded" });
    await page.locator(`#order-item-${ids[0]}`).uncheck();
    await page.locator("#order-payment-month").check();
    release();
    await waitForHydration(page);
    await expect(page.locator(`#order-item-${ids[0]}`)).not.toBeChecked();
    await expect(page.locator(`#order-item-${ids[1]}`)).toBeChecked();
    await expect(page.locator("#order-payment-month")).toBeChecked();
    // The summary follows: two items, monthly.
    await expect(page.locator(".order-summary")).toContainText(
      formatPrice(orderTotals({ lang: "en", period: "month", count: 2 }).total, "en"),
    );
    await page.locator(`#order-item-${ids[0]}`).check();
    await expect(page.locator(`#order-item-${ids[0]}`)).toBeChecked();
    await expect(page.locator("#order-payment-month")).toBeChecked();
    expect(errors).toEqual([]);
  });
});
