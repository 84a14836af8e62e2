/**
 * The organisations' REST API (decision 054) over HTTP against the production server, on
 * SQLite and, with DATABASE_URL=postgres://…, on PostgreSQL, called through the client
 * generated from its own OpenAPI document (tests/support/api-v1.d.ts, openapi-fetch): items
 * made, listed page by page and filtered, changed, archived and brought back; a sticker
 * claimed; scans and conversations read and a finder answered; POSTs done once per
 * Idempotency-Key; 401 without a key, 403 for a read key writing, 404 across
 * organisations, 429 past the key's limit with the draft's RateLimit headers.
 */
import { randomUUID } from "node:crypto";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createApiKey } from "../../app/server/api/api-keys.service.server";
import { createItem } from "../../app/server/items/items.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { insertConversation, insertRelayMessage } from "../../app/server/relay/relay.repository.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createBatch, getBatch } from "../../app/server/stickers/stickers.service.server";
import type { paths } from "../support/api-v1";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { uniqueOrgNumber } from "../support/org-numbers";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

/** Small, so the limit is reached in a test; the headers report it as they would 600. */
const LIMIT = 60;

let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
let admin: TestUser;
let adminB: TestUser;
let orgA: string;
let orgB: string;
/** Every key made, to search the server's log for. */
const keys: string[] = [];

const details = (name: string) => ({
  name,
  orgNumber: uniqueOrgNumber(),
  billingEmail: "billing@acme.example",
  invoiceStreet: "Storgatan 1",
  invoicePostcode: "903 26",
  invoiceCity: "Umeå",
  invoiceCountry: "SE",
  vatNumber: null,
  deskContact: "Reception",
});

async function keyFor(organisationId: string, who: TestUser, scope: "read" | "read-write" = "read-write") {
  const { key } = await createApiKey(depsOf(rt), { id: who.id, name: who.name }, organisationId, {
    name: `Test ${randomUUID().slice(0, 6)}`,
    scope,
  });
  keys.push(key);
  return key;
}

function client(key?: string, lang = "en") {
  return createClient<paths>({
    baseUrl: `${server.url}/api/v1`,
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), "Accept-Language": lang },
  });
}

beforeAll(async () => {
  tdb = await createTestDatabase("api");
  const env = testEnv(tdb, { API_RATE_LIMIT: String(LIMIT) });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  admin = await createUser(rt, { name: "Alva Admin" });
  adminB = await createUser(rt, { name: "Berit Boss" });
  orgA = await createOrganisation(depsOf(rt), admin.id, details("Acme AB"));
  orgB = await createOrganisation(depsOf(rt), adminB.id, details("Other AB"));
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await tdb?.drop();
});

describe(`the REST API (${process.env.DATABASE_URL?.startsWith("postgres") ? "PostgreSQL" : "SQLite"})`, () => {
  it("refuses a request without a key with 401 problem+json, in the language asked for", async () => {
    const { response, error } = await client(undefined, "sv").GET("/items", { params: { query: {} } });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(error).toMatchObject({ status: 401, code: "auth.missing", title: "Unauthorized" });
    expect(error?.detail).toContain("Skicka din API-nyckel");
    const made = await client(`hit_${"x".repeat(43)}`).GET("/items", { params: { query: {} } });
    expect(made.error).toMatchObject({ status: 401, code: "auth.invalid" });
  });

  it("makes, lists page by page, filters, changes, archives and brings back items", async () => {
    const api = client(await keyFor(orgA, admin));
    const names = ["Projector 3B", "Laptop 1042", "Laptop 1043"];
    const made: string[] = [];
    for (const [i, name] of names.entries()) {
      const { data, response } = await api.POST("/items", {
        body: { name, type: i === 0 ? "other" : "laptop", finderFee: 100 },
      });
      expect(response.status).toBe(201);
      expect(data).toMatchObject({ name, status: "unpaid", finderFee: { amount: 100 }, assignedTo: null });
      made.push(data!.id);
    }
    // Items made by the API are the organisation's, as the dashboard has them.
    const row = await rt.database.db
      .selectFrom("products")
      .select(["organisationId", "owner", "payed"])
      .where("id", "=", made[0]!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ organisationId: orgA, owner: admin.id });
    expect(Number(row.payed)).toBe(0);

    const first = await api.GET("/items", { params: { query: { limit: 2 } } });
    expect(first.data!.data.map((i) => i.name)).toEqual(["Laptop 1043", "Laptop 1042"]);
    expect(first.data!.nextCursor).toEqual(expect.any(String));
    const second = await api.GET("/items", { params: { query: { limit: 2, cursor: first.data!.nextCursor! } } });
    expect(second.data!.data.map((i) => i.name)).toEqual(["Projector 3B"]);
    expect(second.data!.nextCursor).toBeNull();
    const laptops = await api.GET("/items", { params: { query: { type: "laptop", q: "1042" } } });
    expect(laptops.data!.data.map((i) => i.id)).toEqual([made[1]]);

    const changed = await api.PATCH("/items/{id}", {
      params: { path: { id: made[0]! } },
      body: { name: "Projector 3B (room 204)", lost: true },
    });
    expect(changed.data).toMatchObject({ name: "Projector 3B (room 204)", type: "other" });
    expect(changed.data!.lostSince).toEqual(expect.any(String));
    const archived = await api.POST("/items/{id}/archive", { params: { path: { id: made[0]! } } });
    expect(archived.data!.status).toBe("deactivated");
    const back = await api.PATCH("/items/{id}", { params: { path: { id: made[0]! } }, body: { active: true } });
    expect(back.data!.status).toBe("unpaid");
    const read = await api.GET("/items/{id}", { params: { path: { id: made[0]! } } });
    expect(read.data).toEqual(back.data);
  });

  it("refuses input that does not pass with 400 and the fields, never a 500", async () => {
    const api = client(await keyFor(orgA, admin));
    const bad = await api.POST("/items", { body: { name: "", finderFee: -1 } as never });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ code: "input.invalid" });
    expect(bad.error!.errors!.map((e) => e.path)).toEqual(expect.arrayContaining(["body.name", "body.finderFee"]));
    const unknown = await api.POST("/items", { body: { name: "X", owner: "someone" } as never });
    expect(unknown.error).toMatchObject({ code: "input.invalid" });
    const notJson = await fetch(`${server.url}/api/v1/items`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await keyFor(orgA, admin)}`, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ code: "body.invalid" });
    const cursor = await api.GET("/items", { params: { query: { cursor: "garbage!" } } });
    expect(cursor.error).toMatchObject({ status: 400, code: "input.invalid" });
  });

  it("does a POST once per Idempotency-Key and body; another body with the key is 422", async () => {
    const api = client(await keyFor(orgA, admin));
    const idem = randomUUID();
    const body = { name: "Camera 7", type: "other" as const };
    const headers = { "Idempotency-Key": idem };
    const one = await api.POST("/items", { params: { header: headers }, body });
    const two = await api.POST("/items", { params: { header: headers }, body });
    expect(one.response.status).toBe(201);
    expect(two.response.status).toBe(201);
    expect(two.response.headers.get("idempotent-replayed")).toBe("true");
    expect(two.data).toEqual(one.data);
    const rows = await rt.database.db.selectFrom("products").select("id").where("name", "=", "Camera 7").execute();
    expect(rows).toHaveLength(1);
    const other = await api.POST("/items", { params: { header: headers }, body: { ...body, name: "Camera 8" } });
    expect(other.response.status).toBe(422);
    expect(other.error).toMatchObject({ code: "idempotency.mismatch" });
  });

  it("refuses a read key writing with 403, and answers another organisation's ids with 404", async () => {
    const reader = client(await keyFor(orgA, admin, "read"));
    const write = await reader.POST("/items", { body: { name: "Not allowed" } });
    expect(write.response.status).toBe(403);
    expect(write.error).toMatchObject({ code: "scope.readOnly" });
    expect((await reader.GET("/items", { params: { query: {} } })).response.status).toBe(200);

    const mine = await client(await keyFor(orgA, admin)).POST("/items", { body: { name: "Ours" } });
    const otherAdmin = await createUser(rt, { name: "Cecilia Chef" });
    const orgC = await createOrganisation(depsOf(rt), otherAdmin.id, details("Third AB"));
    const theirs = client(await keyFor(orgC, otherAdmin));
    const got = await theirs.GET("/items/{id}", { params: { path: { id: mine.data!.id } } });
    expect(got.response.status).toBe(404);
    expect(got.error).toMatchObject({ code: "notFound" });
    const patched = await theirs.PATCH("/items/{id}", {
      params: { path: { id: mine.data!.id } },
      body: { name: "Ha" },
    });
    expect(patched.response.status).toBe(404);
    expect((await theirs.GET("/items", { params: { query: {} } })).data!.data).toEqual([]);
  });

  it("claims a pre-printed sticker as a new item of the organisation", async () => {
    const batchId = await createBatch(depsOf(rt), admin.id, { size: 2, prepaidMonths: 12, label: "API batch" });
    const [sticker] = (await getBatch(depsOf(rt), batchId)).stickers;
    const api = client(await keyFor(orgA, admin));
    const claimed = await api.POST("/stickers/claim", { body: { code: sticker!.code, name: "Laptop 2001" } });
    expect(claimed.response.status).toBe(201);
    expect(claimed.data).toMatchObject({ id: sticker!.id, name: "Laptop 2001", status: "active" });
    const again = await api.POST("/stickers/claim", { body: { code: sticker!.code } });
    expect(again.response.status).toBe(404);
    expect(again.error).toMatchObject({ code: "claim.notClaimable" });
  });

  it("reads an item's scans and conversations, and replies to the finder as the organisation", async () => {
    const api = client(await keyFor(orgA, admin));
    const item = (await api.POST("/items", { body: { name: "Bike 12" } })).data!;
    const db = rt.database.db;
    // A paid item relays (decision 013).
    await db.updateTable("products").set({ payed: 1, paidUntil: null }).where("id", "=", item.id).execute();
    const t0 = Date.UTC(2026, 10, 20, 12);
    await db
      .insertInto("item_scans")
      .values([0, 1, 2].map((i) => ({ productId: item.id, scannedAt: t0 + i * 60_000, lang: "sv", device: "phone" })))
      .execute();
    const scans = await api.GET("/items/{id}/scans", {
      params: { path: { id: item.id }, query: { since: new Date(t0 + 60_000).toISOString() } },
    });
    expect(scans.data!.data.map((s) => s.scannedAt)).toEqual([
      new Date(t0 + 60_000).toISOString(),
      new Date(t0 + 120_000).toISOString(),
    ]);

    const conversationId = randomUUID();
    await insertConversation(db, {
      id: conversationId,
      itemId: item.id,
      ownerId: admin.id,
      finderToken: randomUUID(),
      finderContact: "finder-secret@example.test",
      finderLang: "sv",
      createdAt: t0,
      lastMessageAt: t0,
      returned: null,
      finderConfirmedAt: null,
    });
    await insertRelayMessage(db, {
      id: randomUUID(),
      conversationId,
      author: "finder",
      text: "Hittade cykeln vid stationen",
      latitude: null,
      longitude: null,
      createdAt: t0,
      readAt: null,
    });
    const list = await api.GET("/items/{id}/conversations", { params: { path: { id: item.id }, query: {} } });
    expect(list.data!.data).toEqual([expect.objectContaining({ id: conversationId, channel: "web" })]);
    expect(JSON.stringify(list.data)).not.toContain("finder-secret");
    const all = await api.GET("/conversations", { params: { query: {} } });
    expect(all.data!.data.map((c) => c.id)).toContain(conversationId);
    const reply = await api.POST("/conversations/{id}/messages", {
      params: { path: { id: conversationId } },
      body: { text: "Tack! Lämna den i receptionen." },
    });
    expect(reply.response.status).toBe(201);
    expect(reply.data).toMatchObject({ author: "organisation", text: "Tack! Lämna den i receptionen." });
    const messages = await api.GET("/conversations/{id}/messages", { params: { path: { id: conversationId } } });
    expect(messages.data!.data.map((m) => m.author)).toEqual(["finder", "organisation"]);
    expect(JSON.stringify(messages.data)).not.toContain("finder-secret");
    const foreign = client(await keyFor(orgB, adminB, "read"));
    expect(
      (await foreign.GET("/conversations/{id}", { params: { path: { id: conversationId } } })).response.status,
    ).toBe(404);
  });

  it("lists the organisation's members, orders and invoices", async () => {
    const api = client(await keyFor(orgA, admin, "read"));
    const members = await api.GET("/members");
    expect(members.data!.data).toEqual([expect.objectContaining({ userId: admin.id, role: "admin" })]);
    expect((await api.GET("/orders")).data!.data).toEqual([]);
    expect((await api.GET("/invoices")).data!.data).toEqual([]);
  });

  it("reports what paid each order: paymentMethod card or swish, while method keeps saying checkout", async () => {
    const deps = depsOf(rt);
    const paid = async (payWith: "card" | "swish") => {
      const item = await createItem(
        deps,
        admin.id,
        {
          name: "Projektor",
          findFee: 0,
          prodType: "other",
          contactInfo: "",
          contactVisibility: "private",
          payment: "year",
          intent: "payLater",
        },
        "sv",
        orgA,
      );
      const order = await createOrder(deps, {
        userId: admin.id,
        itemIds: [item],
        organisationId: orgA,
        period: "year",
        lang: "sv",
        payWith,
      });
      await completeTestPayment(deps, {
        userId: admin.id,
        orderId: order.id,
        ...(payWith === "swish" ? { phone: "070-123 45 67" } : {}),
      });
      return order.id;
    };
    const swish = await paid("swish");
    const card = await paid("card");
    const orders = (await client(await keyFor(orgA, admin, "read")).GET("/orders")).data!.data;
    expect(orders).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: swish, method: "card", paymentMethod: "swish", state: "paid" }),
        expect.objectContaining({ id: card, method: "card", paymentMethod: "card", state: "paid" }),
      ]),
    );
  });

  it(`counts each key's requests and answers 429 with Retry-After past ${LIMIT} a minute`, async () => {
    const api = client(await keyFor(orgA, admin, "read"));
    const first = await api.GET("/members");
    expect(first.response.headers.get("ratelimit-policy")).toBe(`"per-key";q=${LIMIT};w=60`);
    expect(first.response.headers.get("ratelimit")).toMatch(new RegExp(`^"per-key";r=${LIMIT - 1};t=\\d+$`));
    for (let i = 1; i < LIMIT; i++) expect((await api.GET("/members")).response.status).toBe(200);
    const refused = await api.GET("/members");
    expect(refused.response.status).toBe(429);
    expect(refused.error).toMatchObject({ code: "rateLimited" });
    expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.response.headers.get("ratelimit")).toMatch(/^"per-key";r=0;t=\d+$/);
    // Another key of the same organisation has its own count.
    expect((await client(await keyFor(orgA, admin, "read")).GET("/members")).response.status).toBe(200);
  });

  it("serves its OpenAPI document (in English) and reference page (in the reader's language, descriptions too) without a key", async () => {
    const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    expect(doc).toMatchObject({ openapi: "3.1.0", servers: [{ url: `${server.url}/api/v1` }] });
    expect(doc.components.schemas.Item.properties.code.description).toBe(
      "The typeable sticker code printed under the QR code.",
    );
    const page = await fetch(`${server.url}/api/docs`, { headers: { Cookie: "lang=sv" } });
    expect(page.status).toBe(200);
    // The page is in the reader's language: no shared cache may hand it to another reader.
    expect(page.headers.get("cache-control")).toBe("private, max-age=300");
    expect(page.headers.get("vary")).toMatch(/Cookie, Accept-Language/);
    const html = await page.text();
    expect(html).toContain("Hittads API-referens");
    expect(html).toContain("POST /api/v1/items");
    expect(html).toContain("Klistermärkets kod som går att skriva in, tryckt under QR-koden.");
    expect(html).toContain("En del av sakens namn (oavsett stora eller små bokstäver).");
    expect(html).not.toContain("The typeable sticker code");
    expect(html).not.toContain("Part of the item&#x27;s name");
    const english = await (await fetch(`${server.url}/api/docs`, { headers: { Cookie: "lang=en" } })).text();
    expect(english).toContain("The typeable sticker code printed under the QR code.");
  });

  it("never writes a key to the server's log", async () => {
    await new Promise((r) => setTimeout(r, 300));
    expect(keys.length).toBeGreaterThan(5);
    const logs = server.logs();
    expect(logs).toContain("/api/v1/items");
    for (const key of keys) expect(logs).not.toContain(key.slice(4));
  });
});
