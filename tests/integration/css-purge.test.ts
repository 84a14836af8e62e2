/**
 * Decision 020: the production build ships only the CSS rules the site uses
 * (scripts/lib/vite-purge-css.ts, docs/decisions/020). Over HTTP against the production
 * server, every page of the authorization matrix (tests/quality/route-table.ts) as every
 * kind of visitor, forms refused with errors, the finder page (lean) and its owner's view,
 * a relay thread with the owner's reply, error pages, some in Swedish too: every selector
 * of the whole stylesheet (app/styles/app.scss compiled here, unpurged) whose classes are
 * all in a page's HTML must still have a selector with the same classes in the stylesheet
 * that page gets — the linked file, or the lean page's inline <style>. Per selector, not
 * per class: a class whose only rules need another class no page uses (nav-item with
 * nav-fill) has nothing to keep.
 */
import path from "node:path";
import { compile } from "sass";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server"; // the receipt mail of the test payment is translated
import { insertMessage } from "../../app/server/support/support.repository.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { replyAsOwner, sendFinderMessage } from "../../app/server/relay/relay.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { RUNTIME_CLASSES } from "../../app/styles/runtime-classes";
import { ROUTE_TABLE, type Expectation, type Role } from "../quality/route-table";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase, usingPostgres } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";
import { uniqueOrgNumber } from "../support/org-numbers";

const ADMIN_EMAIL = "css-admin@example.test";
const MESSAGE_ID = "cssMessage000000000000000";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
let users: Record<Exclude<Role, "anonymous">, TestUser>;
const fillers: Record<string, string> = {};
const http = httpClient(() => server.url);

/**
 * The class sets of the selectors of `css`: `.navbar-expand-md .navbar-nav > .nav-link`
 * gives "nav-link navbar-expand-md navbar-nav". Classes inside `:not(…)`, `:is(…)` and
 * attribute selectors do not count (they need not be on the page for the rule to apply).
 */
function selectorClassSets(css: string): Set<string> {
  const sets = new Set<string>();
  const noComments = css.replace(/\/\*[\s\S]*?\*\//g, "");
  // Preludes only: a declaration's value (a data: URL's ".org") is no class.
  for (const [, prelude] of noComments.matchAll(/([^{}]+)\{/g)) {
    if (prelude!.trim().startsWith("@")) continue;
    for (const selector of outerSelectors(prelude!)) {
      const classes = [...new Set([...selector.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]!))].sort();
      if (classes.length) sets.add(classes.join(" "));
    }
  }
  return sets;
}

/** `selector` split at its top-level commas, each without its (…) and […] groups. */
function outerSelectors(selector: string): string[] {
  const parts = [""];
  let depth = 0;
  for (const ch of selector) {
    if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    else if (depth === 0 && ch === ",") parts.push("");
    else if (depth === 0) parts[parts.length - 1] += ch;
  }
  return parts;
}

function classTokens(html: string): Set<string> {
  const tokens = new Set<string>();
  for (const [, value] of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const t of value!.split(/\s+/)) if (t) tokens.add(t);
  }
  return tokens;
}

const full = selectorClassSets(
  compile(path.resolve(import.meta.dirname, "../../app/styles/app.scss"), {
    loadPaths: [path.resolve(import.meta.dirname, "../../node_modules")],
    quietDeps: true,
    silenceDeprecations: ["import", "global-builtin", "color-functions", "if-function"],
    logger: { warn: () => {} },
  }).css,
);

beforeAll(async () => {
  db = await createTestDatabase("css");
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "1", ADMIN_EMAILS: ADMIN_EMAIL });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  users = {
    owner: await createUser(rt, { name: "Olivia Owner" }),
    other: await createUser(rt, { name: "Oscar Other" }),
    admin: await createUser(rt, { name: "Ada Admin", email: ADMIN_EMAIL }),
  };
  const deps = depsOf(rt);
  const newItem = (name: string) =>
    createItem(
      deps,
      users.owner.id,
      { name, findFee: 100, prodType: "mobile", contactInfo: "Call 070", payment: "year", intent: "payLater" },
      "en",
    );
  fillers.item = await newItem("Olivia's phone");
  fillers.spareItem = await newItem("Olivia's umbrella");
  const orderItem = await newItem("Olivia's laptop");
  const paidItem = await newItem("Olivia's keys");
  fillers.paidItem = paidItem;
  await keepOrderAddress(
    deps,
    users.owner.id,
    {
      firstname: "Olivia",
      lastname: "Owner",
      email: users.owner.email,
      co: "",
      address: "Storgatan 1",
      address2: "",
      city: "Umeå",
      state: "",
      zip: "90326",
      country: "Sweden",
    },
    false,
  );
  fillers.order = (
    await createOrder(deps, { userId: users.owner.id, itemIds: [orderItem], period: "year", lang: "en" })
  ).id;
  fillers.paidOrder = (
    await createOrder(deps, { userId: users.owner.id, itemIds: [paidItem], period: "year", lang: "en" })
  ).id;
  await completeTestPayment(deps, { userId: users.owner.id, orderId: fillers.paidOrder });
  const sent = await sendFinderMessage(
    deps,
    paidItem,
    { message: "Found your keys", contact: "", captchaToken: "", js: false, trap: false },
    { ip: "192.0.2.1", lang: "en", viewerId: null },
  );
  fillers.conversation = sent.conversationId;
  fillers.finderToken = sent.token;
  await replyAsOwner(deps, users.owner.id, sent.conversationId, "Thank you!");
  fillers.organisation = await createOrganisation(deps, users.owner.id, {
    name: "Olivia's company",
    orgNumber: uniqueOrgNumber(),
    billingEmail: "billing@example.test",
    invoiceStreet: "Storgatan 1",
    invoicePostcode: "90326",
    invoiceCity: "Umeå",
    invoiceCountry: "SE",
    vatNumber: null,
    deskContact: "Reception",
  });
  fillers.inviteToken = "no-such-invite";
  await insertMessage(rt.database.db, {
    id: MESSAGE_ID,
    name: "Sam Sender",
    email: "sam@example.test",
    message: "Where is my sticker?",
    lang: "en",
    createdAt: Date.now(),
  });
  fillers.message = MESSAGE_ID;
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

const fill = (s: string) => s.replace(/\{(\w+)\}/g, (_, k: string) => fillers[k] ?? `{${k}}`);
const cookieFor = (role: Role) =>
  role === "anonymous" ? "ConsentApproved=true" : `${users[role].cookie}; ConsentApproved=true`;
const statusOf = (cell: number | Expectation) => (typeof cell === "number" ? cell : cell.status);

interface Page {
  label: string;
  html: string;
}

/** The stylesheet a page gets: its inline <style> (a lean page) or the linked site stylesheet. */
const stylesheets = new Map<string, string>();
async function servedCss(html: string): Promise<string> {
  const inline = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join("");
  const hrefs = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g)]
    .map((m) => /href="([^"]+)"/.exec(m[0])?.[1])
    .filter((h): h is string => !!h && /\/app-[\w-]+\.css$/.test(h));
  let css = inline;
  for (const href of hrefs) {
    if (!stylesheets.has(href)) {
      const res = await http.get(href);
      expect(res.status, href).toBe(200);
      stylesheets.set(href, await res.text());
    }
    css += stylesheets.get(href);
  }
  return css;
}

async function pages(): Promise<Page[]> {
  const out: Page[] = [];
  const keep = async (label: string, res: Response) => {
    const body = await res.text();
    if (res.headers.get("content-type")?.startsWith("text/html")) out.push({ label, html: body });
  };
  for (const row of ROUTE_TABLE) {
    for (const role of ["anonymous", "owner", "other", "admin"] as const) {
      const url = fill(row.url);
      await keep(`GET ${url} as ${role}`, await http.get(url, { cookie: cookieFor(role) }));
      // Refused forms render their errors; POSTs that would change something are left out.
      const status = statusOf(row.post[role]);
      if (status >= 400 && status < 500 && status !== 404 && status !== 405 && !row.json) {
        const body = Object.fromEntries(Object.entries(row.body ?? {}).map(([k, v]) => [k, fill(v)]));
        await keep(`POST ${url} as ${role}`, await http.post(url, body, { cookie: cookieFor(role) }));
      }
    }
  }
  const more: Array<[string, Role]> = [
    [`/product/${fillers.paidItem}`, "anonymous"], // the lean finder page
    [`/product/${fillers.paidItem}`, "owner"],
    [`/${fillers.paidItem}`, "anonymous"],
    [`/messages/${fillers.conversation}`, "owner"], // the owner's reply in the thread
    [`/m/${fillers.finderToken}`, "anonymous"],
    ["/", "anonymous"],
    ["/dashboard", "owner"],
    ["/order", "owner"],
    ["/login", "anonymous"],
  ];
  for (const [url, role] of more) {
    for (const lang of ["en", "sv"] as const) {
      await keep(`GET ${url} as ${role} (${lang})`, await http.get(url, { cookie: cookieFor(role), lang }));
    }
  }
  // Forms refused with field errors and a form alert.
  await keep("POST /login wrong password", await http.post("/login", { email: users.other.email, password: "x" }));
  await keep("POST /user/register empty", await http.post("/user/register", { name: "", email: "", password: "" }));
  await keep(
    "POST /product/register empty as owner",
    await http.post("/product/register", { name: "" }, { cookie: cookieFor("owner") }),
  );
  return out;
}

// The stylesheet a page gets does not depend on the database: the SQLite leg covers it.
describe.skipIf(usingPostgres())("the served stylesheet (issue #18)", () => {
  it("keeps every rule of the whole stylesheet whose classes are all on the page, on every page", async () => {
    const all = await pages();
    expect(all.length).toBeGreaterThan(100);
    const leanPages = all.filter((p) => /<style\b/.test(p.html) && !/rel="stylesheet"[^>]*app-/.test(p.html));
    expect(leanPages.length, "the lean finder page was fetched").toBeGreaterThan(0);
    const missing = new Set<string>();
    const parsed = new Map<string, Set<string>>();
    let checked = 0;
    for (const page of all) {
      const css = await servedCss(page.html);
      if (!parsed.has(css)) parsed.set(css, selectorClassSets(css));
      const served = parsed.get(css)!;
      expect(served.size, `${page.label} gets a stylesheet`).toBeGreaterThan(20);
      const tokens = classTokens(page.html);
      for (const set of full) {
        if (!set.split(" ").every((c) => tokens.has(c))) continue;
        checked++;
        if (!served.has(set)) missing.add(`.${set.replaceAll(" ", " .")} (${page.label})`);
      }
    }
    expect([...missing]).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  }, 180_000); // ~250 pages on a busy 2-core machine

  it("keeps the rules of classes that only run time adds (page script, composed names)", async () => {
    const home = await http.get("/", { cookie: cookieFor("owner") });
    const served = selectorClassSets(await servedCss(await home.text()));
    // Bootstrap behaviours we reproduce: the navbar toggler and the user menu.
    const styles = (sets: Set<string>, c: string) => [...sets].some((set) => set.split(" ").includes(c));
    const runtime = [...RUNTIME_CLASSES, "show", "collapsed"].filter((c) => styles(full, c));
    expect(runtime.length).toBeGreaterThan(4);
    expect(runtime.filter((c) => !styles(served, c))).toEqual([]);
  });

  it("is smaller than the whole stylesheet (the purge ran)", async () => {
    const home = await http.get("/");
    const served = selectorClassSets(await servedCss(await home.text()));
    expect(served.size).toBeLessThan(full.size / 2);
  });
});
