import { expect, expectAccessible, test, waitForHydration } from "./fixtures";

test.describe("in English", () => {
  test.use({ locale: "en-US" });

  test("the consent overlay blocks the page until accepted, then sets ConsentApproved", async ({ page, context }) => {
    await page.goto("/");
    const dialog = page.getByRole("dialog", { name: "Cookies" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("bottom right");
    await expect(dialog).toContainText("third-party cookies");
    await expectAccessible(page);
    await waitForHydration(page);
    const accept = page.getByRole("button", { name: "Accept our cookies to continue" });
    await expect(accept).toBeFocused();
    // Focus stays in the dialog.
    for (let i = 0; i < 5; i++) await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await accept.click();
    await expect(dialog).toBeHidden();
    const cookie = (await context.cookies()).find((c) => c.name === "ConsentApproved");
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie?.path).toBe("/");
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
    await page.reload();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("header, footer and language switch without a reload", async ({ page, consent }) => {
    void consent;
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Hittad" })).toHaveAttribute("href", "/");
    await expect(header.getByRole("link", { name: "Support" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Companies" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Contact us" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText("© 2022");
    for (const h of ["Information", "Contact Us", "Language"])
      await expect(footer.getByRole("heading", { name: h })).toBeVisible();
    await expectAccessible(page);
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await footer.getByRole("link", { name: "Swedish" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "sv");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Få tillbaka det du tappat bort");
    await expect(footer.getByRole("link", { name: "Engelska" })).toBeVisible();
    // No full reload happened, and the choice is kept.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "sv");
  });

  test("unknown paths show 'Page not found' with the three hints", async ({ page, consent }) => {
    void consent;
    const res = await page.goto("/no-such-page");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expect(page.getByRole("main").getByRole("listitem")).toHaveCount(3);
    await expectAccessible(page);
  });
});

test.describe("in Swedish", () => {
  test.use({ locale: "sv-SE" });

  test("the site is Swedish for a Swedish browser, with the Swedish consent button", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "sv");
    await expect(page.getByRole("button", { name: "Acceptera våra cookies för att fortsätta" })).toBeVisible();
    await expectAccessible(page);
  });

  test("consent and language work without JavaScript", async ({ browser, app }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: "sv-SE", baseURL: app.server.url });
    const page = await context.newPage();
    await page.goto("/terms-missing");
    await page.getByRole("button", { name: "Acceptera våra cookies för att fortsätta" }).click();
    await expect(page).toHaveURL(/\/terms-missing$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.getByRole("contentinfo").getByRole("link", { name: "Engelska" }).click();
    await expect(page).toHaveURL(/\/terms-missing$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await context.close();
  });

  test("unknown paths: 'Sidan hittades inte'", async ({ page, consent }) => {
    void consent;
    await page.goto("/saknas");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sidan hittades inte");
    await expectAccessible(page);
  });
});
