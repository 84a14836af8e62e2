/**
 * The anonymous finder page served from the page cache (docs/decisions/009-performance.md)
 * in a real browser: its hash-allowed inline scripts run (no CSP errors: the fixture fails
 * on console errors), React hydrates, and the address bar still becomes the short /{id}.
 */
import { createItem } from "../../app/server/items/items.service.server";
import { createUser } from "../support/users";
import { expect, expectAccessible, test, waitForHydration, type WorkerApp } from "./fixtures";

async function paidItem(app: WorkerApp, name: string) {
  const owner = await createUser(app.runtime);
  const id = await createItem(
    app.runtime.database.db,
    owner.id,
    { name, findFee: 50, prodType: "other", contactInfo: "Ring 070-1", payment: "year", intent: "payLater" },
    "en",
  );
  await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

test("a finder's second visit is served from the cache and still hydrates and shortens the URL", async ({
  page,
  app,
}) => {
  const owner = await createUser(app.runtime);
  const id = await createItem(
    app.runtime.database.db,
    owner.id,
    {
      name: "Red bicycle",
      findFee: 50,
      prodType: "other",
      contactInfo: "Ring 070-1",
      payment: "year",
      intent: "payLater",
    },
    "en",
  );
  await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  // First visit renders and stores the page; the second one is answered from the cache.
  expect((await page.request.get(`/product/${id}`)).headers()["content-security-policy"]).toContain("'nonce-");
  const res = await page.goto(`/product/${id}`);
  expect(res!.headers()["content-security-policy"]).toContain("'sha256-");
  await expect(page.getByRole("heading", { level: 1, name: "Red bicycle" })).toBeVisible();
  await waitForHydration(page);
  await expect(page).toHaveURL(new RegExp(`/${id}$`));
  await expectAccessible(page);
});

test.describe("translations loaded per page", () => {
  test.use({ locale: "sv-SE" });

  test("the finder page loads only its own translation areas, and the next page is translated after a client-side navigation", async ({
    page,
    app,
    consent,
  }) => {
    void consent;
    const id = await paidItem(app, "Blå cykel");
    const localeChunks: string[] = [];
    page.on("request", (r) => {
      const m = /\/assets\/([a-z]+)-[\w-]+\.js$/.exec(r.url());
      if (m) localeChunks.push(m[1]!);
    });
    await page.goto(`/${id}`);
    await waitForHydration(page);
    expect(localeChunks).not.toContain("support");
    await page.getByRole("banner").getByRole("link", { name: "Support" }).click();
    await expect(page).toHaveURL(/\/support$/);
    await expect(page.getByRole("heading", { level: 2, name: "Vanliga frågor" })).toBeVisible();
    await expect(page.locator("main")).not.toContainText("support.");
  });
});
