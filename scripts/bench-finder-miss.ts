// `npm run bench:finder-miss` (decision 045, point 6): the server's CPU per finder page that
// misses the page cache, the figure the spread row of `bench:scale` depends on, without a
// quiet machine. Seeds MISS_ITEMS items (50,000) into a fresh SQLite file, or into
// DATABASE_URL's empty PostgreSQL database with the scale seed (reused when seeded at the
// same size), starts the production server and asks for MISS_REQUESTS (3,000) pages, each
// of a different item, over four connections, as a phone scanning a sticker would; the
// server's CPU (user + system, from /proc) over the requests, per request. MISS_PROFILE=1
// starts the server with `--cpu-prof` (the profile goes to bench/results/).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "../app/server/config.server";
import { createRuntime } from "../app/server/runtime.server";
import { FULL_SCALE, seededItemId, seedScale, type ScaleSize } from "../tests/support/scale-seed";
import { browserHeaders, childProcesses, cpuSecondsOf, freePort, waitForUp } from "./lib/bench-kit";
import { buildIfNeeded, root } from "./lib/build.mjs";

const ITEMS = Number(process.env.MISS_ITEMS || 50_000);
const REQUESTS = Number(process.env.MISS_REQUESTS || 3000);
const CONNECTIONS = 4;
const pgUrl = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "") ? process.env.DATABASE_URL! : null;

buildIfNeeded();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-finder-miss-"));
const databaseUrl = pgUrl ?? `file:${path.join(tmp, "miss.sqlite")}`;
const env: Record<string, string> = {
  NODE_ENV: "production",
  ALLOW_TEST_PAYMENTS: "1",
  DATABASE_URL: databaseUrl,
  AUTH_SECRET: "bench-finder-miss-secret-0123456789abcdef012345",
  MAIL_OUTBOX_DIR: path.join(tmp, "outbox"),
  SMS_OUTBOX_DIR: path.join(tmp, "sms-outbox"),
  LOG_LEVEL: "warn",
  JOBS_FIRST_RUN_MS: "3600000",
};

const rt = await createRuntime(parseConfig({ ...process.env, ...env }));
const db = rt.database.db;
const have = Number(
  (
    await db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow()
  ).n,
);
const now = Date.now();
if (have === ITEMS) console.log(`${ITEMS} items already seeded: reused`);
else if (have !== 0) throw new Error(`the database holds ${have} items; give an empty one`);
else if (pgUrl) {
  const r = ITEMS / FULL_SCALE.items;
  const size: ScaleSize = {
    owners: Math.max(200, Math.round(FULL_SCALE.owners * r)),
    organisations: 10,
    items: ITEMS,
    bigOrgItems: Math.min(500, ITEMS / 4),
    orgItems: 50,
    scans: ITEMS,
    conversations: 100,
    orders: 200,
  };
  await seedScale(db, size, now);
} else {
  // The scale seed's items (tests/support/scale-seed.ts) in plain inserts: its SQL is PostgreSQL's.
  const owners = Math.max(200, ITEMS / 5);
  for (let i = 1; i <= owners; i += 500) {
    const rows = [];
    for (let g = i; g < Math.min(owners + 1, i + 500); g++)
      rows.push({
        id: `scale-owner-${g}`,
        name: `Owner ${g}`,
        email: `owner${g}@scale.example`,
        emailVerified: 1,
        createdAt: now,
        updatedAt: now,
        language: g % 3 === 0 ? "en" : "sv",
      });
    await db
      .insertInto("user")
      .values(rows as never)
      .execute();
  }
  await db
    .insertInto("organisations")
    .values({
      id: "scale-org-1",
      name: "Organisation 1",
      orgNumber: "000001-0001",
      billingEmail: "billing1@scale.example",
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "11122",
      invoiceCity: "Stockholm",
      invoiceCountry: "SE",
      deskContact: "Reception, floor 2",
      createdAt: now,
      updatedAt: now,
    } as never)
    .execute();
  const types = ["mobile", "laptop", "keys", "wallet", "bag", "other"];
  const names = ["Laptop", "Mobile", "Keys", "Wallet", "Bag", "Bike"];
  for (let i = 1; i <= ITEMS; i += 500) {
    const rows = [];
    for (let g = i; g < Math.min(ITEMS + 1, i + 500); g++)
      rows.push({
        id: seededItemId(g),
        code: `Z${String(g)
          .padStart(8, "0")
          .replace(/[0-9]/g, (d) => "23456789AB"[Number(d)]!)}`,
        owner: `scale-owner-${(g % owners) + 1}`,
        name: `${names[g % 6]} number ${g}`,
        findFee: 100 + (g % 400),
        currency: g % 2 === 0 ? "SEK" : "EUR",
        prodType: types[g % 6],
        contactInfo: `Call +46 70 123 ${String(g % 10000).padStart(4, "0")} or write to owner${g}@scale.example`,
        contactVisibility: "public",
        payment: "year",
        payed: g % 10 === 3 ? 0 : 1,
        paidUntil: g % 10 === 3 ? null : now + 365 * 86_400_000,
        createdAt: now - g * 1000,
        updatedAt: now - g * 1000,
        active: 1,
        scanAlerts: 0,
        lostAt: g % 500 === 7 ? now - 86_400_000 : null,
        organisationId: g <= 500 ? "scale-org-1" : null,
      });
    await db
      .insertInto("products")
      .values(rows as never)
      .execute();
  }
}
await rt.database.close();
console.log(`${pgUrl ? "PostgreSQL" : "SQLite"}, ${ITEMS} items; ${REQUESTS} pages, each of a different item`);

const children = childProcesses(tmp);
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const resultsDir = path.join(root, "bench/results");
fs.mkdirSync(resultsDir, { recursive: true });
const nodeArgs = process.env.MISS_PROFILE === "1" ? ["--cpu-prof", `--cpu-prof-dir=${resultsDir}`] : [];
const app = children.start([...nodeArgs, "server.js"], { ...env, HOST: "127.0.0.1", PORT: String(port) }, "app.log");
await waitForUp(`${appUrl}/healthz`, app.child, app.logFile);

// Items in a random order, none twice: every request a miss.
const order = Array.from({ length: ITEMS }, (_, i) => i + 1);
for (let i = order.length - 1; i > 0; i--) {
  const j = Math.floor(Math.random() * (i + 1));
  [order[i], order[j]] = [order[j]!, order[i]!];
}
let next = 0;
async function run(n: number) {
  let statusOther = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (n-- > 0) {
        const id = seededItemId(order[next++ % ITEMS]!);
        const r = await fetch(`${appUrl}/product/${id}`, { headers: browserHeaders });
        await r.arrayBuffer();
        if (r.status !== 200) statusOther++;
      }
    }),
  );
  return statusOther;
}
await run(300); // warm-up: JIT, pools, templates
const cpu0 = cpuSecondsOf(app.child.pid);
const t0 = performance.now();
const bad = await run(REQUESTS);
const seconds = (performance.now() - t0) / 1000;
const cpu = cpuSecondsOf(app.child.pid) - cpu0;
console.log(
  `server CPU per miss: ${((cpu / REQUESTS) * 1000).toFixed(2)} ms (${REQUESTS} pages in ${seconds.toFixed(1)} s, ${bad} not 200)`,
);
app.child.kill("SIGINT");
await new Promise((r) => setTimeout(r, 1500));
children.stopAll();
process.exit(0);
