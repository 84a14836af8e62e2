/**
 * The anonymous finder page served from the page cache (docs/decisions/009-performance.md)
 * in a real browser: its hash-allowed inline script and stylesheet are applied (no CSP
 * errors: the fixture fails on console errors), and the address bar still becomes the
 * short /{id}. The page itself has no React (docs/decisions/020).
 */
import { createItem } from "../../app/server/items/items.service.server";
import { createUser } from "../support/users";
import { expect, expectAccessible, test, waitForHydration, waitForPageScript, type WorkerApp } from "./fixtures";
import { depsOf } from "../support/deps";

async function paidItem(app: WorkerApp, name: string) {
  const owner = await createUser(app.runtime);
  const id = await createItem(
    depsOf(app.runtime),
    owner.id,
    { name, findFee: 50, prodType: "other", contactInfo: "Ring 070-1", payment: "year", intent: "payLater" },
    "en",
  );
  await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

test("a finder's second visit is served from the cache, styled, and still shortens the URL", async ({ page, app }) => {
  const owner = await createUser(app.runtime);
  const id = await createItem(
    depsOf(app.runtime),
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
  // First visit renders and stores the page and is answered with the stored bytes, as the
  // second one from the cache is: scripts allowed by their hash, no nonce (decision 045).
  const first = (await page.request.get(`/product/${id}`)).headers()["content-security-policy"];
  expect(first).toContain("'sha256-");
  expect(first).not.toContain("'nonce-");
  const res = await page.goto(`/product/${id}`);
  expect(res!.headers()["content-security-policy"]).toContain("'sha256-");
  await expect(page.getByRole("heading", { level: 1, name: "Red bicycle" })).toBeVisible();
  await waitForPageScript(page);
  // The inline stylesheet applies (Bootstrap's container padding).
  expect(await page.locator("main").evaluate((el) => getComputedStyle(el).paddingLeft)).toBe("12px");
  await expect(page).toHaveURL(new RegExp(`/${id}$`));
  await expectAccessible(page);
});

test.describe("the finder page's next page", () => {
  test.use({ locale: "sv-SE" });

  test("the finder page loads no script file, nor does the sign-in page a finder goes on to; both translated", async ({
    page,
    app,
    consent,
  }) => {
    void consent;
    const id = await paidItem(app, "Blå cykel");
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto(`/${id}`);
    await waitForPageScript(page);
    expect(scripts).toEqual([]);
    // The sign-in form is lean for visitors too (decision 042), its texts all on the server.
    await page.getByRole("banner").getByRole("link", { name: "Logga in" }).click();
    await expect(page).toHaveURL(/\/login/);
    await waitForPageScript(page);
    await expect(page.getByRole("heading", { level: 1, name: "Logga in" })).toBeVisible();
    await expect(page.locator("main")).not.toContainText("auth.");
    expect(scripts).toEqual([]);
  });
});

// Decision 045: what a signed-in page costs a phone's main thread before it answers. Each SVG
// image is an isolated document of its own (the first 12–30 ms); the first ICU number or date
// formatter a tab makes costs 20–50 ms. Neither is needed to show these pages.
test("the dashboard, the item form and /order hydrate with no SVG image and no ICU number or date formatter; forced colours keep the controls' marks", async ({
  page,
  app,
  consent,
  user,
}) => {
  void consent;
  const id = await createItem(
    depsOf(app.runtime),
    user.id,
    {
      name: "Black wallet",
      findFee: 1500,
      prodType: "other",
      contactInfo: "Call 070-1",
      payment: "year",
      intent: "payLater",
    },
    "en",
  );
  await page.addInitScript(() => {
    const made: string[] = ((window as unknown as { __intlMade: string[] }).__intlMade = []);
    for (const name of ["NumberFormat", "DateTimeFormat"] as const) {
      const Real = Intl[name];
      Intl[name] = new Proxy(Real, {
        construct: (target, args) => (made.push(name), Reflect.construct(target, args)),
        apply: (target, self, args) => (made.push(name), Reflect.apply(target, self, args)),
      }) as never;
    }
    for (const [proto, method] of [
      [Number.prototype, "toLocaleString"],
      [Date.prototype, "toLocaleString"],
      [Date.prototype, "toLocaleDateString"],
    ] as Array<[object, string]>) {
      const real = (proto as Record<string, (...a: unknown[]) => unknown>)[method]!;
      Object.defineProperty(proto, method, {
        value(this: unknown, ...a: unknown[]) {
          made.push(method);
          return real.apply(this, a);
        },
      });
    }
  });
  for (const path of ["/dashboard", `/product/edit/${id}`, "/order"]) {
    await page.goto(path);
    await waitForHydration(page);
    await page.waitForLoadState("load");
    const found = await page.evaluate(() => ({
      intl: (window as unknown as { __intlMade: string[] }).__intlMade,
      svgImages: [
        ...[...document.images].map((i) => i.getAttribute("src") ?? "").filter((src) => /\.svg|image\/svg/.test(src)),
        ...[...document.querySelectorAll("link[rel~=icon]")]
          .map((l) => (l as HTMLLinkElement).href)
          .filter((h) => /\.svg/.test(h)),
        ...[...document.querySelectorAll("*")]
          .flatMap((el) => [getComputedStyle(el).backgroundImage, getComputedStyle(el).maskImage])
          .filter((v) => /svg/.test(v)),
      ],
    }));
    expect(found, path).toEqual({ intl: [], svgImages: [] });
  }
  // Forced colours drop gradient backgrounds: there the controls are the system's own and the
  // menu's bars are drawn in its text colour, so a ticked box still shows its tick.
  await page.emulateMedia({ forcedColors: "active" });
  await page.goto(`/product/edit/${id}`);
  const forced = await page.evaluate(() => {
    const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
    return {
      checkbox: style('input[type="checkbox"]').appearance,
      radio: style('input[type="radio"]').appearance,
      select: style("select.form-select").appearance,
      // The bars in the system's text colour (its CanvasText, as the body's text is).
      bars: style(".navbar-toggler-icon").backgroundImage.includes(style("body").color),
    };
  });
  expect(forced).toEqual({ checkbox: "auto", radio: "auto", select: "auto", bars: true });
});
