/**
 * React DOM hydrates React's server HTML in place (decision 045; decision 044 ran Preact
 * here, and this test is what that taught us). A difference between server and browser
 * shows as server elements removed and new ones made: a page drawn twice, a stylesheet
 * dropped, a part that suspends taking the place of the elements after it. On each kind of
 * page that hydrates, from the end of parsing until the page has settled, no server element
 * of the body is removed but scripts (the inline ones that carried the server's data have
 * run), React's own streaming placeholders (the hidden `div#S:n` that carries a part sent
 * after the shell and the `template#B:n` it replaces) and what the page itself removes once
 * it runs (named per page); no id or landmark is there twice; and the head keeps the
 * server's stylesheets.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { depsOf } from "../support/deps";
import { createTestOrganisation, joinOrganisation } from "../support/service-fixtures";
import { createUser } from "../support/users";
import { expect, test, waitForHydration } from "./fixtures";

/** React's markers for a part streamed after the shell, removed by its own inline script. */
const STREAMING_PLACEHOLDER = /^(div#S:\d+|template#B:\d+)$/;

/**
 * Server elements the page lost, as `tag#id.class` lines: every element removed from the
 * document from its first byte on that is not in it any more. Watched from the start, not
 * from the end of parsing: React Router's module script is `async`, so on a streamed page
 * React can hydrate (and the page remove its no-script notes) while the parser still runs.
 * An element moved rather than dropped (React's streaming script puts a late part in its
 * place) is still in the document and does not count.
 */
async function recordRemovals(context: BrowserContext) {
  await context.addInitScript(() => {
    const removed: Element[] = [];
    const name = (e: Element) =>
      `${e.localName}${e.id ? `#${e.id}` : ""}${typeof e.className === "string" && e.className ? `.${e.className.split(" ")[0]}` : ""}`;
    (window as unknown as { __removed: () => string[] }).__removed = () =>
      removed.filter((e) => !e.isConnected).map(name);
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.target instanceof Element && r.target.closest("head")) continue;
        for (const n of r.removedNodes) if (n instanceof Element && n.localName !== "head") removed.push(n);
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

async function expectHydratedInPlace(page: Page, path: string, removedByThePage: string[] = []) {
  const response = await page.goto(path);
  const html = await response!.text();
  const serverHead = html.slice(0, html.indexOf("</head>"));
  const stylesheets = [...serverHead.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
  expect(stylesheets.length, `${path}: the server's stylesheets`).toBeGreaterThan(0);
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  // What the page itself removes after hydrating (a no-script note) goes in the render
  // after React's first effects, which a loaded machine can run after the network is idle:
  // asked again until then. Anything else removed stays in the list and fails.
  await expect
    .poll(
      async () =>
        (await page.evaluate(() => (window as unknown as { __removed: () => string[] }).__removed())).filter(
          (r) => !/^script\b/.test(r) && !STREAMING_PLACEHOLDER.test(r),
        ),
      { message: `${path}: server elements removed`, timeout: 15_000 },
    )
    .toEqual(removedByThePage);
  const ids = await page.evaluate(() => [...document.querySelectorAll("[id]")].map((e) => e.id));
  expect(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    `${path}: ids there twice`,
  ).toEqual([]);
  for (const landmark of ["html", "head", "body", "header", "main", "footer"]) {
    await expect(page.locator(landmark), `${path}: one ${landmark}`).toHaveCount(1);
  }
  const hrefs = await page.evaluate(() =>
    [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => l.getAttribute("href")),
  );
  expect(hrefs, `${path}: the server's stylesheets, once each`).toEqual(stylesheets);
}

// Seventeen page states, each loaded and left to settle.
test.describe.configure({ timeout: 120_000 });

for (const lang of ["en", "sv"] as const) {
  test.describe(`hydration (${lang})`, () => {
    test.use({ locale: lang === "en" ? "en-GB" : "sv-SE" });

    test("React hydrates the server's HTML in place: nothing drawn twice, dropped or taken by its neighbour", async ({
      page,
      context,
      app,
      user,
      consent,
    }) => {
      void consent;
      const deps = depsOf(app.runtime);
      const input = {
        findFee: 120,
        prodType: "laptop",
        contactInfo: "Call 070-111 22 33",
        payment: "year",
        intent: "payLater",
      } as const;
      const ids: string[] = [];
      for (const name of ["Grey laptop", "Blue bag"]) {
        ids.push(await createItem(deps, user.id, { ...input, name }, lang));
      }
      await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", ids[0]!).execute();
      // The user is the organisation's admin; a member joins.
      const org = await createTestOrganisation(deps, user);
      const member = await createUser(app.runtime, { name: "Max Member", language: lang });
      await joinOrganisation(deps, org, member, "member");
      // Someone else's item: a signed-in visitor gets the full finder page (copy button, message form).
      const theirs = await createItem(deps, member.id, { ...input, name: "Red scarf" }, lang);
      await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", theirs).execute();
      await recordRemovals(context);

      const pages: Array<[string, string[]?]> = [
        ["/dashboard"],
        ["/dashboard?q=laptop&paid=no"],
        ["/dashboard/import"],
        ["/account"],
        ["/account/alerts"],
        [`/product/${ids[0]}`],
        [`/product/edit/${ids[1]}`],
        ["/product/register"],
        // The note for browsers without JavaScript gives way to the "share my location" box.
        [`/product/${theirs}`, ["p#relay-location-noscript.form-text"]],
        [`/product/${ids[0]}/photos`],
        ["/messages"],
        // Its "recompute" button is for browsers without JavaScript, and so is the note that
        // Swish needs the yearly plan (decision 056: Swedish prices only).
        ["/order", lang === "sv" ? ["div.mb-3", "p.small"] : ["div.mb-3"]],
        [`/organisations/${org}`],
        ["/organisations/new"],
        ["/no/such/page"],
      ];
      for (const [path, removedByThePage] of pages) await expectHydratedInPlace(page, path, removedByThePage);

      // Right after saving an item: the saved message, then the push offer, which loads late.
      await context.addCookies([{ name: "flash", value: "saved", url: app.server.url }]);
      await expectHydratedInPlace(page, "/dashboard");
      await expect(page.locator(".alert-success").first()).toBeVisible();

      // Before the cookie choice: the page is inert under the consent dialog.
      await context.clearCookies({ name: "ConsentApproved" });
      await expectHydratedInPlace(page, "/account");
    });
  });
}
