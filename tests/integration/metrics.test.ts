/**
 * GET /metrics (decision 037) against the production server, on SQLite
 * and, with DATABASE_URL=postgres://…, on PostgreSQL: off without METRICS_TOKEN, readable
 * only with the bearer token, in Prometheus' text format, and its numbers move with what
 * the server does (requests per route, finder page cache hits, the mail queue).
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem } from "../../app/server/items/items.service.server";
import { recordBackup } from "../../app/server/backup/backups.repository.server";
import { enqueueMail } from "../../app/server/mail/mail.server";
import { admitSms } from "../../app/server/sms/sms-guard.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { startServer, type TestServer } from "../support/server";
import { createUser } from "../support/users";

const TOKEN = "metrics-token-0123456789abcdef";
let tdb: TestDatabase;
let server: TestServer;
let plain: TestServer;
let rt: Runtime;
let metricsPort: number;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A port where nothing listens: mail to it fails and stays in the queue (retried later). */
async function closedPort() {
  return freePort();
}

beforeAll(async () => {
  tdb = await createTestDatabase("metrics");
  metricsPort = await freePort();
  // Both servers share the database and so the mail queue: neither may deliver the test's
  // mail (a mail outbox directory would), or the queue gauges have nothing to show.
  const smtp = `smtp://127.0.0.1:${await closedPort()}`;
  const env = testEnv(tdb, {
    RATE_LIMIT_DISABLED: "1",
    METRICS_TOKEN: TOKEN,
    METRICS_PORT: String(metricsPort),
    SMTP_URL: smtp,
  });
  server = await startServer(env);
  plain = await startServer(testEnv(tdb, { RATE_LIMIT_DISABLED: "1", SMTP_URL: smtp }));
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
});
afterAll(async () => {
  await server?.stop();
  await plain?.stop();
  await rt?.database.close();
  await tdb?.drop();
});

const scrape = (base = server.url, token = TOKEN) =>
  fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });

async function get(path: string) {
  const res = await fetch(`${server.url}${path}`);
  await res.text();
  return res;
}

/** The value of one sample line, or 0 when the series does not exist yet. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("metrics endpoint", () => {
  it("is off without METRICS_TOKEN: 404, whatever the request carries", async () => {
    expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
    expect((await scrape(plain.url)).status).toBe(404);
  });

  it("answers only the bearer token: 401 without it or with another, 200 with it", async () => {
    const none = await fetch(`${server.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await none.text()).not.toContain("hittad_");
    expect((await scrape(server.url, `${TOKEN}x`)).status).toBe(401);
    expect((await scrape(server.url, TOKEN.slice(0, -1))).status).toBe(401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers.get("cache-control")).toBe("no-store");
  });

  it("is in Prometheus' text format: HELP and TYPE for every metric, then its samples", async () => {
    const text = await (await scrape()).text();
    for (const [name, type] of [
      ["hittad_http_requests_total", "counter"],
      ["hittad_http_request_duration_seconds", "histogram"],
      ["hittad_finder_page_cache_total", "counter"],
      ["hittad_finder_page_cache_entries", "gauge"],
      ["hittad_finder_page_cache_bytes", "gauge"],
      ["hittad_scan_log_pending", "gauge"],
      ["hittad_scan_log_flush_duration_seconds", "histogram"],
      ["hittad_queue_depth", "gauge"],
      ["hittad_queue_failed", "gauge"],
      ["hittad_queue_oldest_age_seconds", "gauge"],
      ["hittad_job_runs_total", "counter"],
      ["hittad_job_duration_seconds", "histogram"],
      ["hittad_process_cpu_seconds_total", "counter"],
    ]) {
      expect(text).toContain(`# HELP ${name} `);
      expect(text).toContain(`# TYPE ${name} ${type}`);
    }
    // PostgreSQL's pool (SQLite has one connection and no pool).
    if (usingPostgres()) expect(sample(text, 'hittad_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    else expect(text).not.toContain("hittad_db_pool_connections{");
    // Every sample line: a metric name, optional labels, a number. Prometheus reads the number
    // with Go's strconv.ParseFloat, which takes NaN in any case; prom-client writes "Nan".
    for (const line of text.split("\n").filter((l) => l && !l.startsWith("#"))) {
      expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? -?(\d+(\.\d+)?(e[+-]?\d+)?|[Nn]a[Nn]|\+Inf|-Inf)$/);
    }
  });

  it("counts requests per route id, method and status, never per path", async () => {
    const home = 'hittad_http_requests_total{route="routes/home",method="GET",status="200"}';
    const missing = 'hittad_http_requests_total{route="routes/not-found",method="GET",status="404"}';
    const before = await (await scrape()).text();
    // A request is counted when its last byte is out: read each answer to its end.
    await get("/");
    await get("/");
    await get("/no/such/page");
    const after = await (await scrape()).text();
    expect(sample(after, home) - sample(before, home)).toBe(2);
    expect(sample(after, missing) - sample(before, missing)).toBe(1);
    expect(after).not.toContain("no/such/page");
    expect(after).toMatch(
      /hittad_http_request_duration_seconds_bucket\{le="[^"]+",route="routes\/home",method="GET",status="200"\}/,
    );
  });

  it("counts finder pages answered from the cache and the misses that filled it", async () => {
    const owner = await createUser(rt, { name: "Metrics Owner" });
    const id = await createItem(
      depsOf(rt),
      owner.id,
      {
        name: "Metered umbrella",
        findFee: 100,
        prodType: "other",
        contactInfo: "Call me",
        payment: "year",
        intent: "payLater",
      },
      "en",
    );
    await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
    const hit = 'hittad_finder_page_cache_total{result="hit"}';
    const miss = 'hittad_finder_page_cache_total{result="miss"}';
    const finder = 'hittad_http_requests_total{route="routes/item",method="GET",status="200"}';
    const before = await (await scrape()).text();
    for (let i = 0; i < 3; i++) expect((await get(`/product/${id}`)).status).toBe(200);
    const after = await (await scrape()).text();
    expect(sample(after, miss) - sample(before, miss)).toBe(1);
    expect(sample(after, hit) - sample(before, hit)).toBe(2);
    // Hits are answered before Express and still count as requests of the finder page.
    expect(sample(after, finder) - sample(before, finder)).toBe(3);
    // What the cache holds, so a soak can tell its pages from the rest of the process's memory.
    expect(sample(after, "hittad_finder_page_cache_entries") - sample(before, "hittad_finder_page_cache_entries")).toBe(
      1,
    );
    expect(
      sample(after, "hittad_finder_page_cache_bytes") - sample(before, "hittad_finder_page_cache_bytes"),
    ).toBeGreaterThan(1000);
    expect(after).not.toContain(id);
  });

  it("the mail queue gauges move when mail is queued and cannot be delivered", async () => {
    const depth = 'hittad_queue_depth{queue="mail"}';
    const before = sample(await (await scrape()).text(), depth);
    await enqueueMail(rt.database.db, { to: "someone@example.com", subject: "Queued", text: "Hello" }, rt.clock());
    await enqueueMail(rt.database.db, { to: "someone@example.com", subject: "Queued", text: "Hello" }, rt.clock());
    const after = await (await scrape()).text();
    expect(sample(after, depth) - before).toBe(2);
    await new Promise((r) => setTimeout(r, 1100));
    // A second later the undeliverable mail still waits for its retry, and its age shows.
    const later = await (await scrape()).text();
    expect(sample(later, 'hittad_queue_oldest_age_seconds{queue="mail"}')).toBeGreaterThanOrEqual(1);
    expect(sample(later, depth) - before).toBe(2);
  });

  it("shows the age and size of the last good backup: +Inf before the first, then the newest good one's", async () => {
    const age = "hittad_backup_last_good_age_seconds";
    const size = "hittad_backup_last_good_size_bytes";
    const none = await (await scrape()).text();
    expect(none).toContain(`${age} +Inf`);
    expect(sample(none, size)).toBe(0);
    const at = Date.now() - 3_600_000;
    // As makeBackup logs them (decision 048): a good one an hour old, a failed one since.
    await recordBackup(rt.database.db, {
      name: "hittad-good",
      trigger: "scheduled",
      startedAt: at,
      finishedAt: at + 5000,
      result: "ok",
      sizeBytes: 123_456,
      error: null,
    });
    await recordBackup(rt.database.db, {
      name: "hittad-failed",
      trigger: "scheduled",
      startedAt: Date.now() - 60_000,
      finishedAt: Date.now() - 50_000,
      result: "failed",
      sizeBytes: null,
      error: "disk full",
    });
    const text = await (await scrape()).text();
    expect(sample(text, age)).toBeGreaterThanOrEqual(3600);
    expect(sample(text, age)).toBeLessThan(3700);
    expect(sample(text, size)).toBe(123_456);
  });

  it("the SMS budget gauges show the SMS counted today and SMS_DAILY_BUDGET (decision 046)", async () => {
    const used = "hittad_sms_budget_used";
    const before = await (await scrape()).text();
    expect(before).toContain(`# TYPE ${used} gauge`);
    expect(sample(before, "hittad_sms_budget_limit")).toBe(rt.config.sms.dailyBudget);
    await rt.database.db
      .transaction()
      .execute((trx) => admitSms(trx, rt.config, { accountKey: "account:metrics-test" }, Date.now()));
    expect(sample(await (await scrape()).text(), used) - sample(before, used)).toBe(1);
  });

  it("METRICS_PORT serves the same metrics with the same token, and nothing else", async () => {
    const base = `http://127.0.0.1:${metricsPort}`;
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const ok = await scrape(base);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("# TYPE hittad_http_requests_total counter");
    expect((await fetch(`${base}/`)).status).toBe(404);
  });
});
