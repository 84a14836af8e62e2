/**
 * A finder page that misses the cache is made from its template (decision 045, point 6):
 * the page React Router renders for the page's shape, filled with the item's values. For
 * every state a finder can meet, in both languages, with and without the consent cookie
 * and at both addresses, the page so made is byte for byte the page React Router renders
 * for the same request (an extra cookie keeps that one out of the cache), and its headers
 * are the ones a rendered and stored page gets. Two items of one shape share a template:
 * nothing of the first item may show on the second's page.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { insertItemRow, testStickerCode } from "../support/item-rows";
import { createUser, type TestUser } from "../support/users";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
let owner: TestUser;
const DAY = 86_400_000;
const TOKEN = "finder-template-metrics-token-0123456789";

beforeAll(async () => {
  db = await createTestDatabase("findertemplate");
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "1", METRICS_TOKEN: TOKEN });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  owner = await createUser(rt, { name: "Template Owner" });
  await rt.database.db
    .insertInto("organisations")
    .values({
      id: "tmpl-org",
      name: `Hotel "Öresund" & <Spa>`,
      orgNumber: "556677-8899",
      billingEmail: "billing@hotel.example",
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "11122",
      invoiceCity: "Stockholm",
      invoiceCountry: "SE",
      deskContact: "Reception, floor 2: +46 8 123 456 78 or desk@hotel.example",
      createdAt: Date.now(),
      updatedAt: Date.now(),
    } as never)
    .execute();
  // The app's first stored finder page gives the headers templates answer with.
  const first = await item({});
  await fetch(`${server.url}/product/${first}`);
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

let n = 0;
/** An item row as the app writes it, paid for a year unless `row` says otherwise. */
async function item(row: Record<string, unknown>): Promise<string> {
  n++;
  return insertItemRow(
    rt,
    {
      id: `Tmpl${String(n).padStart(6, "0")}`,
      code: testStickerCode("Z", n, 8),
      owner: owner.id,
      name: `Umbrella ${n}`,
      findFee: 100 + n,
      contactInfo: `Call +46 70 123 45 ${String(n).padStart(2, "0")} or write to owner${n}@example.com`,
    },
    row,
  );
}

async function withPhoto(id: string) {
  await rt.database.db
    .insertInto("item_photos")
    .values({ id: `photo-${id}`, itemId: id, position: 0, private: 0, createdAt: Date.now() })
    .execute();
  for (const [i, nominal] of [160, 320, 640, 1280].entries())
    await rt.database.db
      .insertInto("photo_variants")
      .values({
        photoId: `photo-${id}`,
        nominal,
        width: nominal - 7,
        height: Math.round(nominal * 0.75) - 3,
        hash: createHash("sha256").update(`${id}-${i}`).digest("hex"),
        size: 1000,
      })
      .execute();
  return id;
}

const PER_RESPONSE = new Set([
  "date",
  "x-request-id",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "vary",
  "connection",
  "keep-alive",
  "content-security-policy",
]);

async function page(path: string, cookie: string) {
  const res = await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} });
  const html = await res.text();
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !PER_RESPONSE.has(name)));
  return { status: res.status, html, headers, csp: res.headers.get("content-security-policy") ?? "" };
}

/** Pages made from their template so far (the metric). */
async function madeFromTemplates() {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const m = /hittad_finder_page_cache_total\{result="template"\} (\d+)/.exec(await res.text());
  return Number(m?.[1] ?? 0);
}

/** The rendered page as the cache stores it: no nonce, its inline scripts allowed by hash. */
function storable(html: string, csp: string) {
  const nonce = /<script nonce="([^"]+)"/.exec(html)?.[1];
  const stripped = nonce ? html.split(` nonce="${nonce}"`).join("") : html;
  const hashes = [...stripped.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter((m) => !/\bsrc=/.test(m[1]!))
    .map((m) => `'sha256-${createHash("sha256").update(m[2]!, "utf8").digest("base64")}'`);
  return { html: stripped, csp: csp.replace(/script-src [^;]*/, `script-src ${["'self'", ...hashes].join(" ")}`) };
}

/** Compares the template's page with React Router's for every language, consent and address. */
async function expectSamePages(id: string, mustContain: string[] = []) {
  for (const lang of ["sv", "en"])
    for (const consent of [false, true])
      for (const path of [`/product/${id}`, `/${id}`]) {
        const cookie = `lang=${lang}${consent ? "; ConsentApproved=1" : ""}`;
        const rendered = await page(path, `${cookie}; not-cacheable=1`);
        const before = await madeFromTemplates();
        const made = await page(path, cookie);
        const what = `${path} ${cookie}`;
        expect(made.status, what).toBe(200);
        expect(await madeFromTemplates(), `${what}: made from its template`).toBe(before + 1);
        const expected = storable(rendered.html, rendered.csp);
        expect(made.html, what).toBe(expected.html);
        expect(made.csp, what).toBe(expected.csp);
        expect(made.headers, what).toEqual(rendered.headers);
        for (const text of mustContain) expect(made.html, what).toContain(text);
        // The next visit is a hit with the same page.
        expect((await page(path, cookie)).html, what).toBe(made.html);
      }
}

describe("a finder page made from its template is the page React Router renders", () => {
  it("a paid item with public contact details, its name and contact with markup characters, and a second item of the same shape", async () => {
    const first = await item({
      name: `Kaffe "kopp" <b>&amp;</b> 'fat'`,
      contactInfo: `Ring 070-123 45 67, <i>"kväll"</i> & helg`,
    });
    await expectSamePages(first, ["&lt;b&gt;&amp;amp;&lt;/b&gt;", 'href="tel:']);
    const second = await item({ name: "Paraply", findFee: 1234, currency: "EUR", contactInfo: "mail@example.com" });
    await expectSamePages(second, ["Paraply", "€1,234", 'href="mailto:mail@example.com"']);
  });

  it("a lost item with a photo, and a paid item without one", async () => {
    await expectSamePages(await withPhoto(await item({ lostAt: Date.now() - DAY, prodType: "mobile" })), ["srcSet="]);
    await expectSamePages(await item({ prodType: "laptop" }));
  });

  it("a private contact: no contact details, the relay only", async () => {
    await expectSamePages(await item({ contactVisibility: "private", contactInfo: "secret +46 70 000 00 00" }));
  });

  it("an organisation's item: its desk, with its contact and without (private)", async () => {
    await expectSamePages(await item({ organisationId: "tmpl-org" }), ["Öresund"]);
    await expectSamePages(await withPhoto(await item({ organisationId: "tmpl-org", contactVisibility: "private" })));
  });

  it("an item whose paid year ran out: the relay it earned by a kept payment, read with the item", async () => {
    const lapsed = await item({ payed: 0, paidUntil: Date.now() - DAY });
    const now = Date.now();
    await rt.database.db
      .insertInto("orders")
      .values({
        id: `order-${lapsed}`,
        userId: owner.id,
        provider: "test",
        status: "paid",
        period: "year",
        lang: "sv",
        currency: "SEK",
        count: 1,
        unitAmount: 100,
        packageAmount: 0,
        discountAmount: 0,
        totalAmount: 100,
        adress: "",
        checkoutId: null,
        subscriptionId: null,
        customerId: null,
        paidAt: now - 366 * DAY,
        paidUntil: now - DAY,
        minimumUntil: null,
        endsAt: null,
        cancelledAt: null,
        createdAt: now - 366 * DAY,
        updatedAt: now - DAY,
      } as never)
      .execute();
    await rt.database.db
      .insertInto("order_items")
      .values({ orderId: `order-${lapsed}`, productId: lapsed })
      .execute();
    await expectSamePages(lapsed, ['id="relay-message"']);
  });

  it("an item never paid for and a switched-off sticker", async () => {
    await expectSamePages(await item({ payed: 0, paidUntil: null }));
    await expectSamePages(await item({ active: 0 }));
  });
});
