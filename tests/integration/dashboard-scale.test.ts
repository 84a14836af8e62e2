/**
 * Decision 021, over HTTP against the production server and a real database (SQLite,
 * or PostgreSQL with DATABASE_URL): a company owner with 5,000 items gets a dashboard of
 * one page at a time, filtered and counted in SQL, and an order page that orders "all
 * unpaid (matching the filter)" without ticking 5,000 boxes, with server-computed totals.
 * Another owner's items never appear or count.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPrice, orderTotals } from "../../app/lib/domain/pricing";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

const ITEMS = 5000;
const TYPES = ["mobile", "laptop", "other"] as const;
const BASE = Date.parse("2026-01-01T00:00:00Z");

/**
 * The company's item i: "Item i" (every 250th "Blue bag i"), type by i % 3, unpaid when
 * i % 4 === 0 (1,250), lost when i % 100 === 1 (50); item 0 is the newest.
 */
const company = {
  name: (i: number) => (i % 250 === 0 ? `Blue bag ${i}` : `Item ${i}`),
  id: (i: number) => `Co${String(i).padStart(8, "0")}`,
  unpaid: (i: number) => i % 4 === 0,
};

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
let owner: TestUser;
let other: TestUser;
const { get, post } = httpClient(() => server.url);

async function seed(rows: Array<Record<string, unknown>>) {
  await rt.database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto("products")
        .values(rows.slice(i, i + 500) as never)
        .execute();
  });
}

function row(ownerId: string, id: string, i: number, name: string, unpaid: boolean, lost: boolean) {
  return {
    id,
    code: id.toUpperCase(),
    owner: ownerId,
    name,
    findFee: 100,
    currency: "EUR",
    prodType: TYPES[i % 3],
    contactInfo: `Desk ${i}`,
    payment: "year",
    payed: unpaid ? 0 : 1,
    paidUntil: unpaid ? null : Date.parse("2099-01-01T00:00:00Z"),
    createdAt: BASE - i * 1000,
    updatedAt: BASE - i * 1000,
    lostAt: lost ? BASE : null,
  };
}

/** A complete postal address for the user's orders (decision 018 requires one). */
function keepAddress(userId: string) {
  return keepOrderAddress(
    depsOf(rt),
    userId,
    {
      firstname: "Company",
      lastname: "Owner",
      email: "company@example.test",
      co: "",
      address: "Storgatan 1",
      address2: "",
      city: "Uppsala",
      state: "",
      zip: "753 20",
      country: "Sweden",
    },
    false,
  );
}

beforeAll(async () => {
  db = await createTestDatabase("scale");
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  owner = await createUser(rt, { name: "Company Owner" });
  other = await createUser(rt, { name: "Other Owner" });
  await seed(
    Array.from({ length: ITEMS }, (_, i) =>
      row(owner.id, company.id(i), i, company.name(i), company.unpaid(i), i % 100 === 1),
    ),
  );
  // Another owner's unpaid, lost blue bags, newer than all of the company's.
  await seed(
    Array.from({ length: 30 }, (_, i) => ({
      ...row(other.id, `Ot${String(i).padStart(8, "0")}`, i, `Blue bag other ${i}`, true, true),
      createdAt: BASE + 1000 + i,
    })),
  );
  for (const u of [owner, other]) await keepAddress(u.id);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

const cards = (html: string) => [...html.matchAll(/id="item-(Co\d{8}|Ot\d{8})-name"/g)].map((m) => m[1]!);
const label = usingPostgres() ? "PostgreSQL" : "SQLite";

describe(`dashboard of an owner with 5,000 items on ${label}`, () => {
  it("the first page is 24 newest cards in at most 100 KB of HTML, QR images lazy but the first, counters over all items", async () => {
    const res = await get("/dashboard", { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(100 * 1024);
    expect(cards(html)).toEqual(Array.from({ length: 24 }, (_, i) => company.id(i)));
    const qrs = html.match(/<img[^>]*class="item-qr[^>]*>/g) ?? [];
    expect(qrs).toHaveLength(24);
    // The first card's QR is the largest image above the fold: fetched at once (decision 045).
    expect(qrs[0]).toContain('loading="eager"');
    expect(qrs[0]).toContain('fetchPriority="high"');
    for (const img of qrs.slice(1)) expect(img).toContain('loading="lazy"');
    // Counted in SQL over all 5,000, not over the 24 shown.
    expect(html).toContain("You have 1,250 unactivated items.");
    expect(html).toContain("Showing 1–24 of 5,000 items.");
    expect(html).toContain('href="/dashboard?page=2"');
    expect(html).toContain('aria-current="page"');
  });

  it("?page= shows the next items; a page past the end shows the last page", async () => {
    const second = await (await get("/dashboard?page=2", { cookie: owner.cookie })).text();
    expect(cards(second)).toEqual(Array.from({ length: 24 }, (_, i) => company.id(24 + i)));
    expect(second).toContain("Showing 25–48 of 5,000 items.");
    const last = await (await get("/dashboard?page=9999", { cookie: owner.cookie })).text();
    // 5,000 = 208 pages of 24 and 8 more.
    expect(cards(last)).toEqual(Array.from({ length: 8 }, (_, i) => company.id(4992 + i)));
    expect(last).toContain('href="/dashboard?page=208"');
  });

  it("search by name, type, paid/unpaid and lost filter on the server; page links keep the filter", async () => {
    const blue = await (await get("/dashboard?q=BLUE+bag", { cookie: owner.cookie })).text();
    expect(cards(blue)).toEqual(Array.from({ length: 20 }, (_, k) => company.id(k * 250)));
    expect(blue).toContain("20 of your 5,000 items match.");
    // The filter form shows what is filtered.
    expect(blue).toMatch(/name="q"[^>]*value="BLUE bag"/);

    const unpaidLaptops = await (
      await get("/dashboard?q=blue+bag&type=laptop&paid=unpaid", { cookie: owner.cookie })
    ).text();
    // Blue bags with i a multiple of 500 and i % 3 === 1: 1000, 2500, 4000.
    expect(cards(unpaidLaptops)).toEqual([1000, 2500, 4000].map(company.id));

    const paid = await (await get("/dashboard?paid=paid&type=other", { cookie: owner.cookie })).text();
    expect(paid).toContain(`of your 5,000 items match.`);
    expect(cards(paid).every((id) => Number(id.slice(2)) % 3 === 2 && !company.unpaid(Number(id.slice(2))))).toBe(true);

    const lost = await (await get("/dashboard?lost=1&page=3", { cookie: owner.cookie })).text();
    // 50 lost items: page 3 holds the last two (i = 4801, 4901).
    expect(cards(lost)).toEqual([4801, 4901].map(company.id));
    expect(lost).toContain("50 of your 5,000 items match.");
    expect(lost).toContain('href="/dashboard?lost=1&amp;page=2"');
    expect(lost).toContain('href="/dashboard?lost=1"');
  });

  it("no match says so; % and _ in the search are plain characters", async () => {
    for (const q of ["nothing-like-this", "%", "Item_1", "\\"]) {
      const res = await get(`/dashboard?q=${encodeURIComponent(q)}`, { cookie: owner.cookie });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(cards(html)).toEqual([]);
      expect(html).toContain("No items match the filter.");
    }
    const sv = await (await get("/dashboard?q=zzz", { cookie: owner.cookie, lang: "sv" })).text();
    expect(sv).toContain("Inga saker matchar filtret.");
    expect(sv).toContain("Rensa filtret");
  });

  it("the name search ignores case for å, ä and ö too, alike on SQLite and PostgreSQL", async () => {
    const third = await createUser(rt, { name: "Third Owner" });
    await seed([row(third.id, "Ot00000999", 999, "Äppelklocka från Öland", true, false)]);
    for (const q of ["äpp", "ÄPPEL", "klocka FRÅN öland"]) {
      const html = await (await get(`/dashboard?q=${encodeURIComponent(q)}`, { cookie: third.cookie })).text();
      expect(cards(html), q).toEqual(["Ot00000999"]);
    }
  });

  it("bad filter values are ignored (never a 500)", async () => {
    const res = await get("/dashboard?page=-3&type=car&paid=maybe&lost=yes&q=%3Cscript%3E", {
      cookie: owner.cookie,
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain("<script>");
    for (const path of ["/dashboard?page=abc", "/dashboard?page=1e9", "/dashboard?q=" + "x".repeat(5000)]) {
      const r = await get(path, { cookie: owner.cookie });
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    }
  });

  it("another owner's items never appear or count", async () => {
    for (const path of ["/dashboard", "/dashboard?q=blue", "/dashboard?lost=1", "/dashboard?paid=unpaid"]) {
      const html = await (await get(path, { cookie: owner.cookie })).text();
      expect(html).not.toContain("Blue bag other");
      expect(html).not.toMatch(/Ot\d{8}/);
    }
    const theirs = await (await get("/dashboard", { cookie: other.cookie })).text();
    expect(cards(theirs)).toHaveLength(24);
    expect(cards(theirs).every((id) => id.startsWith("Ot"))).toBe(true);
    expect(theirs).toContain("You have 30 unactivated items.");
    expect(theirs).toContain("Showing 1–24 of 30 items.");
  });
});

describe(`/order of an owner with 5,000 items on ${label}`, () => {
  const ordersOf = (userId: string) =>
    rt.database.db.selectFrom("orders").selectAll().where("userId", "=", userId).orderBy("createdAt").execute();
  const itemsOf = async (orderId: string) =>
    (await rt.database.db.selectFrom("order_items").select("productId").where("orderId", "=", orderId).execute()).map(
      (r) => r.productId,
    );

  it("shows one page of items, a filter and 'all unpaid' chosen, with the server's count", async () => {
    const res = await get("/order", { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(Buffer.byteLength(html)).toBeLessThan(150 * 1024);
    expect((html.match(/class="card mb-2 order-item"/g) ?? []).length).toBe(50);
    expect(html).toMatch(/id="order-scope-all"[^>]*checked/);
    expect(html).toContain("All my unpaid items (1,250 items)");
    expect(html).toContain('href="/order?page=2"');
    // The summary counts the 1,250 (orderTotals: the one pricing of page and server).
    const total = formatPrice(orderTotals({ lang: "en", period: "year", count: 1250 }).total, "en");
    expect(html).toMatch(new RegExp(`id="order-total"[^>]*>${total}<`));
  });

  it("'all unpaid' orders every unpaid item of the owner, counted and priced on the server", async () => {
    const res = await post(
      "/order",
      [
        ["immediateStart", "yes"],
        ["scope", "allUnpaid"],
        ["payment", "year"],
        // Forged: another owner's id and a total; both ignored with "all unpaid".
        ["items", "Ot00000001"],
        ["total", "1"],
      ],
      { cookie: owner.cookie },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/order\/checkout\//);
    const [order] = await ordersOf(owner.id);
    const totals = orderTotals({ lang: "en", period: "year", count: 1250 });
    expect(order).toMatchObject({ count: 1250, totalAmount: totals.minor.total, status: "pending" });
    const ids = await itemsOf(order!.id);
    expect(ids).toHaveLength(1250);
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: 1250 }, (_, k) => company.id(k * 4))));
    await rt.database.db.deleteFrom("orders").where("id", "=", order!.id).execute();
  }, 60_000);

  it("'all unpaid' over 2,000 items is refused with a translated 400 (a provider's amount limit); nothing is created", async () => {
    const big = await createUser(rt, { name: "Big Owner" });
    await keepAddress(big.id);
    await seed(
      Array.from({ length: 2001 }, (_, i) =>
        row(big.id, `Bg${String(i).padStart(8, "0")}`, i, `Box ${i}`, true, false),
      ),
    );
    const form: Array<[string, string]> = [
      ["scope", "allUnpaid"],
      ["payment", "year"],
      ["immediateStart", "yes"],
    ];
    const res = await post("/order", form, { cookie: big.cookie, lang: "sv" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("En beställning kan omfatta högst 2\u00a0000 saker.");
    expect(await ordersOf(big.id)).toEqual([]);
    // Narrowed by a filter under the limit, the same owner can order.
    const narrowed = await post("/order?q=Box%201", form, { cookie: big.cookie });
    expect(narrowed.status).toBe(302);
  }, 60_000);

  it("'all unpaid' with a filter orders only the unpaid items the filter matches", async () => {
    const page = await (await get("/order?q=blue+bag&type=laptop", { cookie: owner.cookie })).text();
    expect(page).toContain("All unpaid items that match the filter (3 items)");
    const res = await post(
      "/order?q=blue+bag&type=laptop",
      [
        ["immediateStart", "yes"],
        ["scope", "allUnpaid"],
        ["payment", "month"],
      ],
      { cookie: owner.cookie },
    );
    expect(res.status).toBe(302);
    const [order] = await ordersOf(owner.id);
    expect(order).toMatchObject({
      count: 3,
      totalAmount: orderTotals({ lang: "en", period: "month", count: 3 }).minor.total,
    });
    expect((await itemsOf(order!.id)).sort()).toEqual([1000, 2500, 4000].map(company.id));
    await rt.database.db.deleteFrom("orders").where("id", "=", order!.id).execute();

    // "Paid only" leaves nothing unpaid to order: the translated 4xx, no order.
    const none = await post(
      "/order?paid=paid",
      [
        ["immediateStart", "yes"],
        ["scope", "allUnpaid"],
        ["payment", "year"],
      ],
      { cookie: owner.cookie },
    );
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("Please select at least one item to activate.");
    expect(await ordersOf(owner.id)).toHaveLength(0);
  });

  it("another owner's 'all unpaid' orders only their own items", async () => {
    const res = await post(
      "/order?q=blue+bag",
      [
        ["immediateStart", "yes"],
        ["scope", "allUnpaid"],
        ["payment", "year"],
      ],
      { cookie: other.cookie },
    );
    expect(res.status).toBe(302);
    const [order] = await ordersOf(other.id);
    expect(order).toMatchObject({ count: 30 });
    const ids = await itemsOf(order!.id);
    expect(ids).toHaveLength(30);
    expect(ids.every((id) => id.startsWith("Ot"))).toBe(true);
    expect(await ordersOf(owner.id)).toHaveLength(0);
  });
});
