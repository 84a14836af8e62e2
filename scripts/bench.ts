// `npm run bench`: throughput of the anonymous finder page against a bare node:http
// server in the same run (decision 021: ≥ 50 % of bare, p99 ≤ 50 ms, 0 errors), and
// the dashboard of an owner with 5,000 items (point 5: first page ≤ 100 KB, p50 ≤ 50 ms).
//
//   npm run bench                                   fresh SQLite database in a temp folder
//   DATABASE_URL=postgres://… npm run bench         an (empty, dedicated) PostgreSQL database
//   BENCH_SECONDS=10 BENCH_CONNECTIONS=50           defaults
//   BENCH_PROFILE=1                                 also write a --cpu-prof of the app server
//
// Seeds 1,000 paid items and a user with 5,000 items (a third unpaid, some lost) straight
// into the database (not over HTTP), starts the production build (`npm run build` first when stale) and a
// bare server answering a fixed 4 KB page, warms up (every item page once, so the page
// cache is warm, then 3 s per target), then runs autocannon in turns. The JSON
// report goes to bench/results/ (ignored by git). Exits 1 when a bar is missed.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Insertable } from "kysely";
import { parseConfig } from "../app/server/config.server";
import type { ProductTable } from "../app/server/db/schema";
import { newItemId } from "../app/lib/domain/ids";
import { newStickerCode } from "../app/lib/domain/sticker-code";
import { createRuntime } from "../app/server/runtime.server";
import {
  bareServerSource,
  browserHeaders,
  childProcesses,
  freePort,
  load,
  signedInUser,
  summarise,
  waitForUp,
  type Slice,
} from "./lib/bench-kit";
import { buildIfNeeded, root } from "./lib/build.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const WARMUP_SECONDS = 3;
const ITEMS = 1000;
const DASHBOARD_ITEMS = 5000;
const BARS = { ratio: 0.5, p99Ms: 50, errors: 0, dashboardP50Ms: 50, dashboardBytes: 100 * 1024 };

buildIfNeeded();

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-bench-"));
const databaseUrl = process.env.DATABASE_URL?.startsWith("postgres")
  ? process.env.DATABASE_URL
  : `file:${path.join(tmp, "bench.sqlite")}`;
const env: Record<string, string> = {
  NODE_ENV: "production",
  ALLOW_TEST_PAYMENTS: "1",
  DATABASE_URL: databaseUrl,
  AUTH_SECRET: randomBytes(32).toString("hex"),
  MAIL_OUTBOX_DIR: path.join(tmp, "outbox"),
  LOG_LEVEL: process.env.LOG_LEVEL || "info",
};

// ---- seed through the repositories ----------------------------------------------
console.log(`Seeding ${ITEMS} paid items and a user with ${DASHBOARD_ITEMS} items (${databaseUrl.split(":")[0]})…`);
const rt = await createRuntime(parseConfig({ ...process.env, ...env }));
const seedUser = (tag: string) =>
  signedInUser(
    rt.auth,
    `bench-${tag}-${randomBytes(4).toString("hex")}@example.test`,
    `pw-${randomBytes(8).toString("hex")}-Bench!`,
    `Bench ${tag}`,
  );
const finderOwner = await seedUser("owner");
const dashboardUser = await seedUser("dashboard");
const ids: string[] = [];
const now = Date.now();
async function seedItems(owner: string, count: number, keep: boolean, mixed = false) {
  const rows: Insertable<ProductTable>[] = [];
  for (let i = 0; i < count; i++) {
    const id = newItemId();
    // The company's items: every third unpaid, every fiftieth in lost mode.
    const unpaid = mixed && i % 3 === 0;
    rows.push({
      id,
      code: newStickerCode(),
      owner,
      name: `Item ${i} with a reasonably long name`,
      findFee: 100 + (i % 400),
      currency: i % 2 ? "SEK" : "EUR",
      prodType: (["mobile", "laptop", "other"] as const)[i % 3]!,
      contactInfo: `Call +46 70 123 ${String(1000 + i).slice(-4)} or write to owner${i}@example.test`,
      contactVisibility: "public",
      payment: "year",
      payed: unpaid ? 0 : 1,
      paidUntil: unpaid ? null : now + 365 * 86_400_000,
      createdAt: now - i * 1000,
      updatedAt: now - i * 1000,
      active: 1,
      scanAlerts: 0,
      lostAt: mixed && i % 50 === 7 ? now - 3_600_000 : null,
    });
    if (keep) ids.push(id);
  }
  // In batches in one transaction: 6,000 rows in a second or two on either database.
  await rt.database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto("products")
        .values(rows.slice(i, i + 500))
        .execute();
  });
}
await seedItems(finderOwner.id, ITEMS, true);
await seedItems(dashboardUser.id, DASHBOARD_ITEMS, false, true);
await rt.database.close();

// ---- servers ----------------------------------------------------------------------
const { start: startChild, stopAll } = childProcesses(tmp);
const appPort = await freePort();
const appUrl = `http://127.0.0.1:${appPort}`;
const profileDir = path.join(root, "bench/results/profiles");
if (process.env.BENCH_PROFILE === "1") fs.mkdirSync(profileDir, { recursive: true });
const app = startChild(
  [...(process.env.BENCH_PROFILE === "1" ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), "server.js"],
  { ...env, HOST: "127.0.0.1", PORT: String(appPort), BASE_URL: appUrl },
  "app.log",
);

// The bare server: node:http and a fixed 4 KB HTML page, nothing else.
const barePort = await freePort();
const bareUrl = `http://127.0.0.1:${barePort}`;
const bare = startChild(["-e", bareServerSource(barePort)], {}, "bare.log");

await waitForUp(`${appUrl}/healthz`, app.child, app.logFile);
await waitForUp(bareUrl, bare.child, bare.logFile);

// ---- what /{id} answers --------------------------------------------------------------
const probe = await fetch(`${appUrl}/${ids[0]}`, { redirect: "manual" });
const shortAnswer =
  probe.status >= 300 && probe.status < 400
    ? `redirect ${probe.status} to ${probe.headers.get("location")}`
    : `${probe.status}, the page itself`;
const probeHtml = await probe.text();
if (probe.status === 200 && !probeHtml.includes("reasonably long name"))
  throw new Error("/{id} does not show the item");

// ---- load ------------------------------------------------------------------------------
function pick() {
  return ids[Math.floor(Math.random() * ids.length)]!;
}

/** Requests every seeded item once (the page cache then holds them all), 8 at a time. */
async function visitAll(prefix: string) {
  const queue = [...ids];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let id = queue.pop(); id; id = queue.pop())
        await (await fetch(`${appUrl}${prefix}${id}`, { headers: browserHeaders })).arrayBuffer();
    }),
  );
}

// The machine is shared: its load changes from second to second. So the targets take
// turns in SLICES short slices each, and every target sees the same mix of quiet and
// busy moments; the ratio compares like with like.
const SLICES = 5;
const targets = [
  // The same random paths for the bare server (it ignores them): autocannon builds every
  // request anew then, and the load generator does the same work for every target.
  { key: "bare", name: "bare node:http 4 KB", url: bareUrl, pathFor: () => `/product/${pick()}`, pid: bare.child.pid },
  { key: "product", name: "/product/{id}", url: appUrl, pathFor: () => `/product/${pick()}`, pid: app.child.pid },
  { key: "short", name: "/{id}", url: appUrl, pathFor: () => `/${pick()}`, pid: app.child.pid },
] as const;

console.log(`\nLoad (${os.cpus().length} CPUs: ${os.cpus()[0]?.model ?? "unknown"}):`);
console.log(`  warm-up: every item once on both URLs, then ${WARMUP_SECONDS}s per target`);
await visitAll("/product/");
await visitAll("/");
for (const t of targets) await load(t.url, t.pathFor, WARMUP_SECONDS, CONNECTIONS);
console.log(
  `  measuring: ${SLICES} turns of ${SECONDS / SLICES}s per target, ${CONNECTIONS} connections (${SECONDS}s each)…`,
);
const slices: Record<string, Slice[]> = { bare: [], product: [], short: [] };
for (let i = 0; i < SLICES; i++) {
  for (const t of targets) slices[t.key]!.push(await load(t.url, t.pathFor, SECONDS / SLICES, CONNECTIONS, t.pid));
}
const runs = {
  bare: summarise(targets[0].name, slices.bare!),
  product: summarise(targets[1].name, slices.product!),
  short: summarise(targets[2].name, slices.short!),
};

// ---- dashboard of a user with 5,000 items -----------------------------------------------
// Server time: one request at a time, first byte to last byte on 127.0.0.1 (the first
// five warm up). The first page, a filtered page and a later page, in turns.
const dashPaths = ["/dashboard", "/dashboard?paid=unpaid&type=laptop", "/dashboard?q=item%2012&page=3"];
const dashTimes: number[] = [];
let dashBytes = 0;
let dashStatus = 0;
for (let i = 0; i < 65; i++) {
  const t0 = performance.now();
  const r = await fetch(`${appUrl}${dashPaths[i % dashPaths.length]}`, {
    headers: { cookie: `${dashboardUser.cookie}; ConsentApproved=1`, "accept-encoding": "identity" },
  });
  const body = await r.text();
  const ms = performance.now() - t0;
  if (r.status !== 200) throw new Error(`dashboard answered ${r.status}`);
  if (i % dashPaths.length === 0) {
    dashStatus = r.status;
    dashBytes = Buffer.byteLength(body);
  }
  if (i >= 5) dashTimes.push(ms);
}
dashTimes.sort((a, b) => a - b);
const dashboard = {
  items: DASHBOARD_ITEMS,
  status: dashStatus,
  htmlBytes: dashBytes,
  p50Ms: Math.round(dashTimes[Math.floor(dashTimes.length / 2)]!),
  p99Ms: Math.round(dashTimes[Math.ceil(dashTimes.length * 0.99) - 1]!),
};

stopAll();
await new Promise((r) => setTimeout(r, 500));

// ---- report ------------------------------------------------------------------------------
const worst = [runs.product, runs.short].reduce((a, b) => (a.requestsPerSec <= b.requestsPerSec ? a : b));
const ratio = worst.requestsPerSec / Math.max(1, runs.bare.requestsPerSec);
const checks = {
  ratio: ratio >= BARS.ratio,
  p99: Math.max(runs.product.p99Ms, runs.short.p99Ms) <= BARS.p99Ms,
  errors: [runs.product, runs.short].every((r) => r.errors === 0 && r.non2xx === 0),
  dashboardP50: dashboard.p50Ms <= BARS.dashboardP50Ms,
  dashboardBytes: dashboard.htmlBytes <= BARS.dashboardBytes,
};
const pad = (s: string | number, n: number) => String(s).padStart(n);
console.log(
  `\n${"".padEnd(22)}${pad("req/s", 8)}${pad("p50 ms", 8)}${pad("p99 ms", 8)}${pad("errors", 8)}${pad("non-2xx", 9)}${pad("B/req", 8)}${pad("server CPU", 12)}${pad("µs/req", 8)}${pad("client CPU", 12)}`,
);
const percent = (x: number) => (Number.isNaN(x) ? "?" : `${Math.round(x * 100)} %`);
for (const r of Object.values(runs)) {
  console.log(
    `${r.name.padEnd(22)}${pad(r.requestsPerSec, 8)}${pad(r.p50Ms, 8)}${pad(r.p99Ms, 8)}${pad(r.errors, 8)}${pad(r.non2xx, 9)}${pad(r.bytesPerRequest, 8)}${pad(percent(r.serverCpuShare), 12)}${pad(Number.isNaN(r.serverCpuPerRequestUs) ? "?" : r.serverCpuPerRequestUs, 8)}${pad(percent(r.clientCpuShare), 12)}`,
  );
}
// A load generator near a full core while the server has CPU to spare measures itself.
for (const r of Object.values(runs)) {
  if (r.clientCpuShare >= 0.95 && r.serverCpuShare < 0.8)
    console.log(
      `warning: for ${r.name} the load generator used ${percent(r.clientCpuShare)} of a core and the server ${percent(r.serverCpuShare)}: the figure is a floor set by the client`,
    );
}
console.log(`\n/{id} answers: ${shortAnswer}`);
console.log(
  `item page / bare: ${(ratio * 100).toFixed(1)} % (bar ≥ ${BARS.ratio * 100} %) ${checks.ratio ? "ok" : "MISSED"}`,
);
console.log(`p99 ≤ ${BARS.p99Ms} ms: ${checks.p99 ? "ok" : "MISSED"}; zero errors: ${checks.errors ? "ok" : "MISSED"}`);
console.log(
  `dashboard with ${DASHBOARD_ITEMS} items: p50 ${dashboard.p50Ms} ms (bar ≤ ${BARS.dashboardP50Ms}) ${checks.dashboardP50 ? "ok" : "MISSED"}, p99 ${dashboard.p99Ms} ms; first page ${(dashboard.htmlBytes / 1024).toFixed(1)} KB HTML (bar ≤ 100 KB) ${checks.dashboardBytes ? "ok" : "MISSED"}`,
);

const report = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavg: os.loadavg(), node: process.version },
  database: databaseUrl.split(":")[0],
  settings: { seconds: SECONDS, slices: SLICES, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, items: ITEMS },
  shortUrlAnswer: shortAnswer,
  runs,
  slices,
  ratio,
  bars: BARS,
  checks,
  dashboard,
};
const outDir = path.join(root, "bench/results");
fs.mkdirSync(outDir, { recursive: true });
const outFile = path.join(outDir, `bench-${report.date.replace(/[:.]/g, "-")}.json`);
fs.writeFileSync(outFile, JSON.stringify(report, null, 2));
console.log(`\nreport: ${path.relative(root, outFile)}`);
if (process.env.BENCH_KEEP !== "1") fs.rmSync(tmp, { recursive: true, force: true });
else console.log(`kept: ${tmp}`);
process.exit(Object.values(checks).every(Boolean) ? 0 : 1);
