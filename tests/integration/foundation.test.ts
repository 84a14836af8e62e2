import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { createUser } from "../support/users";
import { sql } from "kysely";

let db: TestDatabase;
let server: TestServer;

beforeAll(async () => {
  db = await createTestDatabase("foundation", { empty: true });
  server = await startServer(testEnv(db));
});
afterAll(async () => {
  await server?.stop();
  await db?.drop();
});

describe(`foundation on ${process.env.DATABASE_URL?.startsWith("postgres") ? "PostgreSQL" : "SQLite"}`, () => {
  it("GET /healthz answers 200 once the server serves", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
  });

  it("GET /readyz answers 200 when the database is reachable", async () => {
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(200);
  });

  it("runs the migrations at start-up (real tables exist)", async () => {
    const rt = await createTestRuntime(testEnv(db));
    const rows = await sql<{ n: number }>`select count(*) as n from products`.execute(rt.database.db);
    expect(Number(rows.rows[0]!.n)).toBe(0);
    await rt.database.close();
  });

  it("serves / in Swedish to a browser preferring Swedish, English otherwise", async () => {
    const sv = await (await fetch(`${server.url}/`, { headers: { "Accept-Language": "sv-SE,sv;q=0.9" } })).text();
    expect(sv).toContain('<html lang="sv"');
    expect(sv).toContain("Acceptera våra cookies för att fortsätta");
    const en = await (await fetch(`${server.url}/`, { headers: { "Accept-Language": "en-US" } })).text();
    expect(en).toContain('<html lang="en"');
    expect(en).toContain("Accept our cookies to continue");
  });

  it("a language cookie overrides the browser language", async () => {
    const html = await (
      await fetch(`${server.url}/`, { headers: { "Accept-Language": "sv-SE", Cookie: "lang=en" } })
    ).text();
    expect(html).toContain('<html lang="en"');
  });

  it("sends security headers and a CSP with a nonce and no unsafe-inline script", async () => {
    const res = await fetch(`${server.url}/`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBeTruthy();
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc)![1];
    const html = await res.text();
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("unknown paths are a 404 'Page not found'", async () => {
    const res = await fetch(`${server.url}/no-such-page`, { headers: { "Accept-Language": "en" } });
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Page not found");
    const sv = await (await fetch(`${server.url}/no/such/page`, { headers: { "Accept-Language": "sv" } })).text();
    expect(sv).toContain("Sidan hittades inte");
  });

  it("'Page not found' ships no framework to an anonymous visitor, whichever route answered it", async () => {
    // A mistyped short URL (/{id}), an unknown item id and an unknown path: the lean page's
    // one inline script, no script file, no module preload (decision 042).
    for (const path of ["/no/such/page", "/nosuchcode", "/product/nosuch"]) {
      const res = await fetch(`${server.url}${path}`, { headers: { "Accept-Language": "en" } });
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expect(html, path).toContain("Page not found");
      expect(html.match(/<script\b[^>]*>/g) ?? [], path).toHaveLength(1);
      expect(html, path).not.toMatch(/<script[^>]+src=|modulepreload/);
    }
  });

  it("a page that hydrates fetches its module preloads at low priority, behind its stylesheet (decision 045)", async () => {
    const rt = await createTestRuntime(testEnv(db));
    try {
      const user = await createUser(rt);
      const res = await fetch(`${server.url}/dashboard`, { headers: { Cookie: `${user.cookie}; ConsentApproved=1` } });
      expect(res.status).toBe(200);
      const preloads = (await res.text()).match(/<link\b[^>]*\brel="modulepreload"[^>]*>/g) ?? [];
      // React Router's entry, its manifest and the route's chunks: all of them, not only some.
      expect(preloads.length).toBeGreaterThan(5);
      expect(preloads.filter((link) => !link.includes('fetchPriority="low"'))).toEqual([]);
    } finally {
      await rt.database.close();
    }
  });

  it("POST /consent sets ConsentApproved for a year (SameSite=Lax, Path=/) and goes back", async () => {
    const res = await fetch(`${server.url}/consent`, {
      method: "POST",
      body: new URLSearchParams({ redirectTo: "/support#help" }),
      headers: { Origin: server.url },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/support#help");
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^ConsentApproved=/);
    expect(setCookie).toContain("Max-Age=31536000");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain("SameSite=Lax");
  });

  it("a consent redirect never leaves the site", async () => {
    const res = await fetch(`${server.url}/consent`, {
      method: "POST",
      body: new URLSearchParams({ redirectTo: "//evil.test/" }),
      headers: { Origin: server.url },
      redirect: "manual",
    });
    expect(res.headers.get("location")).toBe("/");
  });

  it("refuses state-changing requests from another origin", async () => {
    const res = await fetch(`${server.url}/consent`, {
      method: "POST",
      body: new URLSearchParams({ redirectTo: "/" }),
      headers: { Origin: "https://evil.test" },
      redirect: "manual",
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("the language link sets the cookie and returns to the same page", async () => {
    const res = await fetch(`${server.url}/language/sv?redirectTo=%2Fterms`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/terms");
    expect(res.headers.get("set-cookie")).toMatch(/^lang=sv;/);
    expect((await fetch(`${server.url}/language/fr`, { redirect: "manual" })).status).toBe(404);
  });

  it("logs one line per request with method, url, status, time and request id, never cookies", async () => {
    const res = await fetch(`${server.url}/no-such-page?from=log-test`, {
      headers: { Cookie: "ConsentApproved=true; secret-cookie=do-not-log", "User-Agent": "log-test-agent" },
    });
    const id = res.headers.get("x-request-id");
    await res.text();
    // Log lines are written in batches, at least every 100 ms (decision 021).
    await expect.poll(() => server.logs(), { timeout: 2000, interval: 50 }).toContain("/no-such-page?from=log-test");
    const line = server
      .logs()
      .split("\n")
      .find((l) => l.includes("/no-such-page?from=log-test"));
    expect(line, "request log line").toBeTruthy();
    const entry = JSON.parse(line!);
    expect(entry.req).toEqual({ id, method: "GET", url: "/no-such-page?from=log-test" });
    expect(entry.res).toEqual({ statusCode: 404 });
    expect(typeof entry.responseTime).toBe("number");
    expect(line).not.toContain("do-not-log");
    expect(line).not.toContain("log-test-agent");
  });

  it("shuts down gracefully on SIGTERM", async () => {
    const other = await startServer(testEnv(db));
    const code = await other.stop("SIGTERM");
    expect(code).toBe(0);
  });

  it("a server that cannot start logs why as a fatal line before it exits (buffered log lines are flushed on exit)", async () => {
    const failed = await startServer(testEnv(db, { ALLOW_TEST_PAYMENTS: "0" })).then(
      () => "",
      (err: Error) => err.message,
    );
    const fatal = failed.split("\n").find((l) => l.startsWith("{") && l.includes('"msg":"start-up failed"'));
    expect(fatal, `the fatal log line in:\n${failed}`).toBeTruthy();
    expect(JSON.parse(fatal!)).toMatchObject({
      level: 60,
      service: "hittad",
      err: expect.stringContaining("ALLOW_TEST_PAYMENTS"),
    });
  });
});
