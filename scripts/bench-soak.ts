// `npm run bench:soak` (decision 048; not in CI): three instances on one PostgreSQL behind a
// load balancer (scripts/lib/fleet.ts) under mixed traffic (finder pages and their scans,
// finder messages, sign-ins, the dashboard, new items and paid orders) for SOAK_MINUTES
// (default 20; `-- --minutes 5`). At 40 % PostgreSQL is restarted (pg_ctlcluster; it
// breaks every other user of that server for a few seconds: SOAK_PG_RESTART=0 leaves it
// alone), at 70 % one instance is killed with SIGKILL and started again 10 s later.
// Reported: acknowledged writes lost (counted against the database), 5xx outside the
// outage windows, the mail queue drained afterwards, each instance's RSS slope, and the
// finder page's p99 outside the outages. JSON to bench/results/. Exits 1 when a bar is missed.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:soak [-- --minutes 5]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { buildIfNeeded, root } from "./lib/build.mjs";
import {
  createDatabase,
  PHONE_UA,
  paidItem,
  postForm,
  registerUser,
  startBalancer,
  startInstance,
  stopInstance,
  verifyEmail,
  type Instance,
} from "./lib/fleet";

const arg = process.argv.indexOf("--minutes");
const MINUTES = Number(arg > 0 ? process.argv[arg + 1] : (process.env.SOAK_MINUTES ?? 20));
const RESTART_PG = process.env.SOAK_PG_RESTART !== "0";
/** The finder page's p99 bar (docs/brief: ≤ 50 ms under load). */
const FINDER_P99_MS = 50;
const GRACE_MS = 5000;
const durationMs = MINUTES * 60_000;
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample {
  at: number;
  kind: string;
  status: number;
  ms: number;
}

buildIfNeeded();
const work = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-soak-"));
const database = await createDatabase(process.env.DATABASE_URL ?? "", "soak");
const env = {
  DATABASE_URL: database.url,
  AUTH_SECRET: "soak-secret-0123456789abcdef0123456789abcdef",
  ALLOW_TEST_PAYMENTS: "1",
  // One machine sends everything: the per-address limits would stop the load, not a person.
  RATE_LIMIT_DISABLED: "1",
  HITTAD_TEST_RUN: "1",
  MAIL_OUTBOX_DIR: path.join(work, "outbox"),
  SMS_OUTBOX_DIR: path.join(work, "sms"),
  MAIL_POLL_MS: "500",
  LOG_LEVEL: "warn",
  SHUTDOWN_DELAY_MS: "1000",
};
const balancer = await startBalancer();
const instances: Instance[] = [];
const rss = new Map<string, Array<[number, number]>>();
const start = async (name: string) => {
  const i = await startInstance(name, root, { ...env, BASE_URL: balancer.url }, work);
  instances.push(i);
  balancer.add(i);
  rss.set(name, []);
  return i;
};
for (const n of [1, 2, 3]) await start(`instance-${n}`);
await wait(500);

const check = new pg.Client({ connectionString: database.url });
await check.connect();
const owners: Array<Awaited<ReturnType<typeof registerUser>>> = [];
const items: string[] = [];
for (let o = 0; o < 4; o++) {
  const owner = await registerUser(balancer.url, `Soak Owner ${o}`);
  // Confirmed, so finder messages and receipts reach them through the mail queue.
  await verifyEmail(balancer.url, env.MAIL_OUTBOX_DIR, owner.email);
  owners.push(owner);
  for (let i = 0; i < 4; i++) items.push(await paidItem(balancer.url, check, owner, `soak-paid-${o}-${i}`));
}
await check.end();
const lookup = new pg.Pool({ connectionString: database.url, max: 2 });
lookup.on("error", () => undefined);
log(`3 instances, ${owners.length} owners, ${items.length} paid items; soaking for ${MINUTES} min`);

const samples: Sample[] = [];
const acked = { messages: [] as string[], items: [] as string[], orders: [] as string[] };
const windows: Array<{ what: string; from: number; to: number }> = [];
const began = Date.now();
let running = true;
let seq = 0;
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;

async function timed(kind: string, run: () => Promise<{ status: number }>) {
  const t = Date.now();
  const { status } = await run().catch(() => ({ status: 0 }));
  samples.push({ at: t, kind, status, ms: Date.now() - t });
  return status;
}
const get = (url: string, headers: Record<string, string>) =>
  fetch(url, { headers, redirect: "manual" }).then(async (r) => (await r.arrayBuffer(), { status: r.status }));

const loops: Array<() => Promise<void>> = [
  ...Array.from({ length: 4 }, () => async () => {
    await timed("finder", () => get(`${balancer.url}/product/${pick(items)}`, { "user-agent": PHONE_UA }));
  }),
  async () => {
    const text = `soak message ${++seq}`;
    let token = "";
    await timed("message", async () => {
      const r = await postForm(balancer.url, `/product/${pick(items)}`, { message: text, contact: "" });
      if (r.status === 302 && r.location.startsWith("/m/")) token = r.location.slice(3, r.location.indexOf("?"));
      return r;
    });
    if (token) acked.messages.push(token);
    await wait(200);
  },
  async () => {
    const owner = pick(owners);
    await timed("sign-in", () => postForm(balancer.url, "/login", { email: owner.email, password: owner.password }));
    await wait(200);
  },
  async () => {
    await timed("dashboard", () => get(`${balancer.url}/dashboard`, { cookie: pick(owners).cookie }));
    await wait(100);
  },
  async () => {
    const owner = pick(owners);
    const name = `soak-item-${++seq}`;
    const made = await timed("item", () =>
      postForm(
        balancer.url,
        "/product/register",
        { name, findFee: "10", prodType: "other", contactInfo: "soak", payment: "year", intent: "payLater" },
        owner.cookie,
      ),
    );
    if (made !== 302) return;
    acked.items.push(name);
    let checkout = "";
    // The new item's id, as the dashboard's form would send it (a pool: it outlives the restart).
    const found = await lookup
      .query<{ id: string }>("select id from products where name = $1", [name])
      .catch(() => null);
    const itemId = found?.rows[0]?.id;
    if (!itemId) return;
    await timed("order", async () => {
      const r = await postForm(
        balancer.url,
        "/order",
        { immediateStart: "yes", items: itemId, payment: "year" },
        owner.cookie,
      );
      checkout = r.location;
      return r;
    });
    if (!checkout.startsWith("/order/checkout/")) return;
    const paid = await timed("payment", () => postForm(balancer.url, checkout, {}, owner.cookie));
    if (paid === 302) acked.orders.push(checkout.slice("/order/checkout/".length));
    await wait(300);
  },
];
const load = Promise.all(
  loops.map(async (loop) => {
    while (running) await loop();
  }),
);

const sampler = setInterval(() => {
  for (const i of instances) {
    if (i.child.exitCode !== null || i.child.signalCode !== null) continue;
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${i.child.pid}/status`, "utf8"))![1]);
      rss.get(i.name)!.push([Date.now(), kb / 1024]);
    } catch {
      // Exited between the check and the read.
    }
  }
}, 5000);

async function until(ok: () => Promise<boolean>, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await ok().catch(() => false)) return true;
    await wait(250);
  }
  return false;
}
const allReady = () =>
  Promise.all(
    instances
      .filter((i) => i.child.exitCode === null && i.child.signalCode === null)
      .map((i) => fetch(`${i.url}/readyz`)),
  ).then((rs) => rs.every((r) => r.ok));

await wait(durationMs * 0.4);
if (RESTART_PG) {
  const cluster = fs.readdirSync("/etc/postgresql")[0]!;
  log(`restarting PostgreSQL (${cluster} main)`);
  const from = Date.now();
  await new Promise<void>((resolve) =>
    spawn("pg_ctlcluster", ["--skip-systemctl-redirect", cluster, "main", "restart"], { stdio: "inherit" }).on(
      "exit",
      () => resolve(),
    ),
  );
  await until(allReady, 60_000);
  windows.push({ what: "PostgreSQL restart", from, to: Date.now() + GRACE_MS });
  log(`PostgreSQL back, every instance ready again after ${((Date.now() - from) / 1000).toFixed(1)} s`);
}
await wait(Math.max(0, began + durationMs * 0.7 - Date.now()));
const victim = instances[1]!;
log(`kill -9 ${victim.name}`);
const killedAt = Date.now();
victim.child.kill("SIGKILL");
await victim.exited;
balancer.remove(victim);
windows.push({ what: `kill -9 ${victim.name}`, from: killedAt, to: killedAt + GRACE_MS });
await wait(10_000);
const revived = await start(`${victim.name}-restarted`);
log(`${revived.name} ready`);
await wait(Math.max(0, began + durationMs - Date.now()));
running = false;
await load;
clearInterval(sampler);
await lookup.end();
log("load stopped; waiting for the queues to drain");

const db = new pg.Client({ connectionString: database.url });
await db.connect();
const drained = await until(async () => {
  const { rows } = await db.query(`select count(*)::int as n from mail_outbox where status in ('pending', 'sending')`);
  return rows[0].n === 0;
}, 120_000);
const missing = async (sql: string, values: string[]) => {
  if (!values.length) return 0;
  const { rows } = await db.query<{ n: number }>(sql, [values]);
  return values.length - rows[0]!.n;
};
const lost = {
  messages: await missing(`select count(*)::int as n from conversations where "finderToken" = any($1)`, acked.messages),
  items: await missing(`select count(*)::int as n from products where name = any($1)`, acked.items),
  orders: await missing(`select count(*)::int as n from orders where id = any($1) and status = 'paid'`, acked.orders),
};
const queue = (await db.query(`select status, count(*)::int as n from mail_outbox group by status order by status`))
  .rows;
await db.end();

/** A request under way at any moment of an outage window (plus its grace) belongs to it. */
const inWindow = (s: Sample) => windows.some((w) => s.at <= w.to && s.at + s.ms >= w.from);
const serverErrors = samples.filter((s) => s.status >= 500 || s.status === 0);
const outside = serverErrors.filter((s) => !inWindow(s));
const finder = samples.filter((s) => s.kind === "finder" && s.status === 200 && !inWindow(s)).map((s) => s.ms);
finder.sort((a, b) => a - b);
const p = (q: number) => finder[Math.min(finder.length - 1, Math.floor(q * finder.length))] ?? NaN;
/** MB per minute by least squares, after the first fifth (start-up and warm-up). */
const slope = (points: Array<[number, number]>) => {
  const xs = points.filter(([t]) => t > began + durationMs * 0.2);
  if (xs.length < 3) return NaN;
  const mx = xs.reduce((s, [t]) => s + t, 0) / xs.length;
  const my = xs.reduce((s, [, v]) => s + v, 0) / xs.length;
  const num = xs.reduce((s, [t, v]) => s + (t - mx) * (v - my), 0);
  const den = xs.reduce((s, [t]) => s + (t - mx) ** 2, 0);
  return (num / den) * 60_000;
};
const byKind = Object.fromEntries(
  [...new Set(samples.map((s) => s.kind))].map((k) => {
    const of = samples.filter((s) => s.kind === k);
    return [k, { requests: of.length, serverErrors: of.filter((s) => s.status >= 500 || s.status === 0).length }];
  }),
);
const memory = Object.fromEntries(
  [...rss].map(([name, points]) => [
    name,
    {
      startMb: Math.round(points[0]?.[1] ?? NaN),
      endMb: Math.round(points.at(-1)?.[1] ?? NaN),
      slopeMbPerMin: Math.round(slope(points) * 100) / 100,
    },
  ]),
);
const report = {
  at: new Date(began).toISOString(),
  minutes: MINUTES,
  pgRestart: RESTART_PG,
  requests: samples.length,
  byKind,
  windows: windows.map((w) => ({
    what: w.what,
    from: new Date(w.from).toISOString(),
    seconds: (w.to - w.from) / 1000,
  })),
  acknowledged: { messages: acked.messages.length, items: acked.items.length, orders: acked.orders.length },
  lost,
  serverErrorsInOutages: serverErrors.length - outside.length,
  serverErrorsOutside: outside.length,
  serverErrorsOutsideFirst: outside.slice(0, 10).map((s) => ({ ...s, at: new Date(s.at).toISOString() })),
  queueDrained: drained,
  queue,
  finderOutsideOutages: { count: finder.length, p50: p(0.5), p95: p(0.95), p99: p(0.99), barMs: FINDER_P99_MS },
  memory,
};
const ok =
  lost.messages + lost.items + lost.orders === 0 && outside.length === 0 && drained && p(0.99) <= FINDER_P99_MS;
fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
const out = path.join(root, `bench/results/soak-${report.at.replace(/[:.]/g, "-")}.json`);
fs.writeFileSync(out, JSON.stringify(report, null, 2));
console.log(JSON.stringify(report, null, 2));
console.log(`\n${ok ? "PASS" : "FAIL"}: report in ${out}`);
for (const i of instances) await stopInstance(i);
await balancer.close();
await database.drop();
// The instances' logs stay for a failed run, to find out why.
if (ok) fs.rmSync(work, { recursive: true, force: true });
else console.log(`instance logs: ${work}`);
process.exit(ok ? 0 : 1);
