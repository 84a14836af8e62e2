/**
 * Nothing typed is lost when the page's script arrives late (issue #32 point 4): on a slow
 * phone a signed-in user types into the server-rendered form before React hydrates it.
 * The scripts are held back until the fields are filled, then released; after hydration
 * (and a render that follows it) every field still holds what was typed, and the form
 * saves it.
 */
import type { Page } from "@playwright/test";
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

test.describe("typing before hydration", () => {
  test.use({ locale: "en-US" });

  test("the product form keeps the name, fee, value and plan typed before its script ran", async ({
    page,
    user,
    consent,
  }) => {
    void user;
    void consent;
    const release = await holdScripts(page);
    await page.goto("/product/register", { waitUntil: "domcontentloaded" });
    await page.locator("#product-name").fill("Slow phone bag");
    await page.locator("#product-findFee").fill("250");
    await page.locator("#product-approxValue").fill("2500");
    await page.locator("#product-payment-month").check();
    release();
    await waitForHydration(page);
    // A render after hydration (the counter, the suggestion) must not put the old values back.
    await page.locator("#product-name").press("End");
    await page.locator("#product-name").pressSequentially("!");
    await expect(page.locator("#product-name")).toHaveValue("Slow phone bag!");
    await expect(page.locator("#product-findFee")).toHaveValue("250");
    await expect(page.locator("#product-approxValue")).toHaveValue("2500");
    await expect(page.locator("input[name=payment][value=month]")).toBeChecked();
  });

  test("the contact form of a signed-in user keeps every field typed before its script ran", async ({
    page,
    user,
    consent,
  }) => {
    void user;
    void consent;
    const release = await holdScripts(page);
    await page.goto("/contact", { waitUntil: "domcontentloaded" });
    await page.locator("#contact-name").fill("Anna Slow");
    await page.locator("#contact-email").fill("anna.slow@example.test");
    await page.locator("#contact-message").fill("Typed before the script arrived.");
    release();
    await waitForHydration(page);
    await page.locator("#contact-message").pressSequentially(" More.");
    await expect(page.locator("#contact-name")).toHaveValue("Anna Slow");
    await expect(page.locator("#contact-email")).toHaveValue("anna.slow@example.test");
    await expect(page.locator("#contact-message")).toHaveValue("Typed before the script arrived. More.");
  });
});
