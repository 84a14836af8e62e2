/**
 * The anonymous finder page cache (docs/decisions/009-performance.md) over HTTP against the
 * production server: a stored page is the same page with hash-allowed inline scripts, a
 * signed-in owner never gets it, and a save, a payment change or the end of the paid
 * period shows at once.
 */
import { createHash } from "node:crypto";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem } from "../../app/server/items/items.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { httpClient } from "../support/http";
import { createUser, type TestUser } from "../support/users";
import { depsOf } from "../support/deps";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
let owner: TestUser;

beforeAll(async () => {
  db = await createTestDatabase("itemcache");
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  owner = await createUser(rt, { name: "Cache Owner" });
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

async function paidItem(name: string, paidUntil: number | null = null) {
  const id = await createItem(
    depsOf(rt),
    owner.id,
    { name, findFee: 100, prodType: "other", contactInfo: "Call me", payment: "year", intent: "payLater" },
    "en",
  );
  await rt.database.db.updateTable("products").set({ payed: 1, paidUntil }).where("id", "=", id).execute();
  return id;
}

async function get(path: string, cookie?: string) {
  const res = await httpClient(server.url).get(path, { cookie, follow: true });
  return { res, html: await res.text(), csp: res.headers.get("content-security-policy") ?? "" };
}

/** The bytes on the wire (fetch would decompress them). */
function raw(
  path: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

function inlineScripts(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/\bsrc=/.test(m[1]!));
}

describe("anonymous finder page cache", () => {
  it("the first visit is answered with the page as stored and the second gets the same page, its inline scripts allowed by hash instead of a nonce", async () => {
    const id = await paidItem("Cached umbrella");
    const first = await get(`/product/${id}`);
    const second = await get(`/product/${id}`);
    expect(second.res.status).toBe(200);
    expect(second.html).toContain("Cached umbrella");
    // The rendered page is stored and sent as a hit sends it (decision 045): no nonce in either.
    expect(first.html).toBe(second.html);
    expect(first.csp).toBe(second.csp);
    expect(first.html).not.toContain(" nonce=");
    const scriptSrc = /script-src ([^;]*)/.exec(second.csp)![1]!;
    expect(scriptSrc).not.toMatch(/nonce-|unsafe-inline/);
    const scripts = inlineScripts(second.html);
    expect(scripts.length).toBeGreaterThan(0);
    for (const m of scripts) {
      const hash = createHash("sha256").update(m[2]!).digest("base64");
      expect(scriptSrc).toContain(`'sha256-${hash}'`);
    }
    // Everything but the CSP is the rendered page's (security headers included).
    for (const name of ["x-content-type-options", "referrer-policy", "cache-control", "content-type"]) {
      expect(second.res.headers.get(name), name).toBe(first.res.headers.get(name));
    }
    expect(second.res.headers.get("x-request-id")).not.toBe(first.res.headers.get("x-request-id"));
  });

  it("the finder page ships no framework JavaScript: one inline page script ≤ 3 KB gzip and the stylesheet inline, both CSP-allowed; the owner's view keeps the full app", async () => {
    const id = await paidItem("Lean scarf");
    for (const page of [await get(`/${id}`), await get(`/${id}`)]) {
      // Rendered and answered as stored, then a hit: the same rules.
      expect(page.html).not.toMatch(/<script[^>]*\bsrc=|modulepreload|__reactRouterContext|rel="stylesheet"/);
      const scripts = inlineScripts(page.html);
      expect(scripts).toHaveLength(1);
      expect(gzipSync(scripts[0]![2]!).length).toBeLessThanOrEqual(3 * 1024);
      const css = /<style>([\s\S]*?)<\/style>/.exec(page.html)?.[1];
      expect(css?.length).toBeGreaterThan(10_000);
      const styleSrc = /style-src ([^;]*)/.exec(page.csp)![1]!;
      expect(styleSrc).toContain(`'sha256-${createHash("sha256").update(css!).digest("base64")}'`);
      expect(styleSrc).not.toContain("unsafe-inline");
    }
    const mine = await get(`/${id}`, owner.cookie);
    expect(mine.html).toMatch(/<script[^>]*type="module"|modulepreload/);
    expect(mine.html).toContain("__reactRouterContext");
  });

  it("a cached page is sent in the encoding the client accepts, with Vary and the length of the bytes sent; all decode to the same page", async () => {
    const id = await paidItem("Encoded kettle");
    const path = `/product/${id}`;
    await get(path);
    const plain = await raw(path, { "Accept-Encoding": "identity" });
    // The stored page (no nonce) is what every later answer carries.
    expect(plain.status).toBe(200);
    expect(plain.headers["content-security-policy"]).not.toMatch(/nonce-/);
    const html = plain.body.toString("utf8");
    expect(html).toContain("Encoded kettle");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await raw(path, { "Accept-Encoding": "gzip, deflate, br" });
    const gzip = await raw(path, { "Accept-Encoding": "gzip, br;q=0" });
    const refused = await raw(path, { "Accept-Encoding": "gzip;q=0, br;q=0" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(brotliDecompressSync(br.body).toString("utf8")).toBe(html);
    expect(gunzipSync(gzip.body).toString("utf8")).toBe(html);
    expect(refused.body.toString("utf8")).toBe(html);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    for (const res of [plain, br, gzip, refused]) {
      expect(res.headers.vary).toBe("Accept-Encoding");
      expect(Number(res.headers["content-length"])).toBe(res.body.length);
      // The security headers of the rendered page, on every encoding.
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["content-security-policy"]).toBe(plain.headers["content-security-policy"]);
    }
  });

  it("HEAD of a cached page has the headers of its GET and no body", async () => {
    const id = await paidItem("Headless lamp");
    await get(`/${id}`);
    const headers = { "Accept-Encoding": "gzip, deflate, br" };
    const full = await raw(`/${id}`, headers);
    const head = await raw(`/${id}`, headers, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ["content-length", "content-encoding", "vary", "content-type", "content-security-policy"]) {
      expect(head.headers[name], name).toBe(full.headers[name]);
    }
  });

  it("a cached page carries its own request id: a proxy's is echoed, else a new one per response", async () => {
    const id = await paidItem("Traced torch");
    await get(`/${id}`);
    const fromProxy = await raw(`/${id}`, { "X-Request-Id": "proxy-req-42" });
    expect(fromProxy.headers["content-security-policy"]).not.toMatch(/nonce-/);
    expect(fromProxy.headers["x-request-id"]).toBe("proxy-req-42");
    const [a, b] = [await raw(`/${id}`, {}), await raw(`/${id}`, {})];
    expect(a.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers["x-request-id"]).not.toBe(a.headers["x-request-id"]);
  });

  it("each language and each URL has its own page", async () => {
    const id = await paidItem("Language bag");
    await get(`/${id}`);
    const en = await get(`/${id}`);
    const sv = await get(`/${id}`, "lang=sv");
    expect(en.html).toContain('lang="en"');
    expect(sv.html).toContain('lang="sv"');
  });

  it("a signed-in visitor (the owner) always gets a freshly rendered page with a nonce", async () => {
    const id = await paidItem("Owner's watch");
    await get(`/product/${id}`);
    await get(`/product/${id}`);
    const mine = await get(`/product/${id}`, owner.cookie);
    expect(mine.csp).toMatch(/'nonce-[^']+'/);
  });

  it("the owner's save shows on the next anonymous visit", async () => {
    const id = await paidItem("Old name");
    await get(`/product/${id}`);
    expect((await get(`/product/${id}`)).html).toContain("Old name");
    const res = await fetch(`${server.url}/product/edit/${id}`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: owner.cookie, Origin: server.url },
      body: new URLSearchParams({
        name: "New name",
        findFee: "100",
        prodType: "other",
        contactInfo: "Call me",
        payment: "year",
        intent: "payLater",
      }),
    });
    expect(res.status).toBe(302);
    const after = await get(`/product/${id}`);
    expect(after.html).toContain("New name");
    expect(after.html).not.toContain("Old name");
  });

  it("the end of the paid period shows at once: the page becomes 'not paid'", async () => {
    const id = await paidItem("Expiring scarf", Date.now() + 1500);
    await get(`/${id}`);
    expect((await get(`/${id}`)).html).toContain("Expiring scarf");
    await new Promise((r) => setTimeout(r, 1600));
    const after = await get(`/${id}`);
    expect(after.html).not.toContain("Expiring scarf");
  });

  it("a payment change made elsewhere (another instance) shows within the version check interval", async () => {
    const id = await paidItem("Unpaid later");
    await get(`/${id}`);
    expect((await get(`/${id}`)).html).toContain("Unpaid later");
    await rt.database.db.updateTable("products").set({ payed: 0 }).where("id", "=", id).execute();
    await new Promise((r) => setTimeout(r, 5200));
    expect((await get(`/${id}`)).html).not.toContain("Unpaid later");
  }, 15_000);
});
