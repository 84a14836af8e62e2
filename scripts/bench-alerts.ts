// `npm run bench:alerts`: how fast a finder's message reaches the owner on every channel
// (decision 033): 100 finder messages in one minute, each about another paid item of an owner
// with a verified email address, a verified mobile number and a subscribed device, every
// channel on. Measured per message and channel: from just before the finder's POST to the
// moment the stand-in had it — the SMTP stand-in (mail), the 46elks stand-in (SMS) and the
// push-service stand-in (push, decrypted there). Bar: p95 ≤ 2 s on each channel.
//
//   npm run bench:alerts                          fresh SQLite database in a temp folder
//   DATABASE_URL=postgres://… npm run bench:alerts an (empty, dedicated) PostgreSQL database
//   BENCH_ALERTS=100 BENCH_ALERTS_SECONDS=60       defaults
//
// The stand-ins are the tests' (tests/support/): they speak SMTP, 46elks' HTTP API and the
// web push protocol (VAPID checked, aes128gcm decrypted). The JSON report goes to
// bench/results/. Exits 1 when a bar is missed or a message does not arrive.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "../app/server/config.server";
import { createItem } from "../app/server/items/items.service.server";
import { subscribeDevice } from "../app/server/push/push.service.server";
import { createRuntime } from "../app/server/runtime.server";
import { depsOf } from "../tests/support/deps";
import { startElks } from "../tests/support/elks";
import { httpClient } from "../tests/support/http";
import { PUSH_CA, PUSH_CA_FILE, startPushService } from "../tests/support/push-service";
import { startServer } from "../tests/support/server";
import { startSmtpServer } from "../tests/support/smtp";
import { createUser } from "../tests/support/users";
import { buildIfNeeded, root } from "./lib/build.mjs";

const MESSAGES = Number(process.env.BENCH_ALERTS || 100);
const SECONDS = Number(process.env.BENCH_ALERTS_SECONDS || 60);
const BAR_P95_MS = 2000;
const CHANNELS = ["email", "sms", "push"] as const;
type Channel = (typeof CHANNELS)[number];

buildIfNeeded();

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-bench-alerts-"));
const databaseUrl = process.env.DATABASE_URL?.startsWith("postgres")
  ? process.env.DATABASE_URL
  : `file:${path.join(tmp, "bench.sqlite")}`;

const smtp = await startSmtpServer();
const elks = await startElks();
const push = await startPushService();
const env: Record<string, string> = {
  ALLOW_TEST_PAYMENTS: "1",
  DATABASE_URL: databaseUrl,
  AUTH_SECRET: randomBytes(32).toString("hex"),
  MAIL_OUTBOX_DIR: path.join(tmp, "outbox"),
  SMS_OUTBOX_DIR: path.join(tmp, "sms-outbox"),
  SMTP_URL: smtp.url,
  ELKS_API_URL: elks.url,
  ELKS_API_USERNAME: elks.username,
  ELKS_API_PASSWORD: elks.password,
  PUSH_ALLOW_HOSTS: push.hostPort,
  NODE_EXTRA_CA_CERTS: PUSH_CA_FILE,
  // The cost guard would (rightly) stop most of these SMS: the bench measures speed.
  SMS_LIMIT_PER_ITEM_DAY: "100",
  SMS_LIMIT_PER_ACCOUNT_MONTH: "10000",
  RATE_LIMIT_DISABLED: "1",
  TRUST_PROXY: "1",
  LOG_LEVEL: "warn",
};

// ---- seed: one owner with every channel set up, MESSAGES paid items ----------------
console.log(`Seeding an owner with ${MESSAGES} items, a verified number and a device (${databaseUrl.split(":")[0]})…`);
const rt = await createRuntime(parseConfig({ ...process.env, ...env, NODE_ENV: "test" }));
const deps = { ...depsOf(rt), push: { ca: [PUSH_CA] } };
const owner = await createUser(rt, { language: "sv" });
const phone = "+46701234567";
await rt.database.db
  .insertInto("user_phones")
  .values({
    userId: owner.id,
    phone,
    verifiedAt: Date.now(),
    pendingPhone: null,
    codeHash: null,
    codeExpiresAt: null,
    codeAttempts: 0,
  })
  .execute();
const device = push.subscribe();
await subscribeDevice(deps, owner.id, device.toJSON(), { userAgent: "Mozilla/5.0 (Android 14) Chrome/130" });
const items: { id: string; name: string }[] = [];
for (let i = 0; i < MESSAGES; i++) {
  const name = `Bänkmobil ${String(i).padStart(3, "0")}`;
  const id = await createItem(
    deps,
    owner.id,
    {
      name,
      findFee: 300,
      prodType: "mobile",
      contactInfo: "private",
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    },
    "sv",
  );
  items.push({ id, name });
}
await rt.database.db
  .updateTable("products")
  .set({ payed: 1 })
  .where(
    "id",
    "in",
    items.map((i) => i.id),
  )
  .execute();
await rt.database.close();

const server = await startServer(env);
const http = httpClient(server.url);
console.log(`Server on ${server.url}; ${MESSAGES} finder messages over ${SECONDS} s…`);

// ---- the finders write, one every SECONDS/MESSAGES seconds, without waiting for each other
const sentAt = new Map<string, number>();
let errors = 0;
const interval = (SECONDS * 1000) / MESSAGES;
const started = Date.now();
await Promise.all(
  items.map(async (item, i) => {
    await new Promise((r) => setTimeout(r, started + i * interval - Date.now()));
    const b = randomBytes(3);
    const t0 = Date.now();
    sentAt.set(item.name, t0);
    const res = await http.post(
      `/product/${item.id}`,
      { message: `Hej! Jag hittade din telefon vid hållplatsen (${i}).`, contact: "" },
      { cookie: "ConsentApproved=true", ip: `10.${b[0]}.${b[1]}.${b[2]}` },
    );
    if (res.status !== 302) {
      errors++;
      console.error(`finder POST ${i}: ${res.status}`);
    }
  }),
);

// ---- arrivals ---------------------------------------------------------------------------
function arrivals(): Record<Channel, Map<string, number>> {
  const byName = (pairs: Array<[string | undefined, number]>) => {
    const m = new Map<string, number>();
    for (const [name, at] of pairs) if (name && !m.has(name)) m.set(name, at);
    return m;
  };
  const nameIn = (text: string) => items.find((i) => text.includes(i.name))?.name;
  return {
    email: byName(smtp.messages.filter((m) => m.to.includes(owner.email)).map((m) => [nameIn(m.subject), m.at])),
    sms: byName(elks.messages.filter((m) => m.to === phone).map((m) => [nameIn(m.message), m.at])),
    push: byName(
      push.received.filter((p) => p.subscriptionId === device.id).map((p) => [nameIn(String(p.payload.title)), p.at]),
    ),
  };
}
const deadline = Date.now() + 30_000;
let got = arrivals();
while (CHANNELS.some((c) => got[c].size < MESSAGES) && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 200));
  got = arrivals();
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const results: Record<string, { arrived: number; p50: number; p95: number; max: number; ok: boolean }> = {};
let failed = errors > 0;
for (const c of CHANNELS) {
  const lat = [...got[c]].map(([name, at]) => at - sentAt.get(name)!).sort((a, b) => a - b);
  const r = {
    arrived: lat.length,
    p50: lat.length ? pct(lat, 50) : NaN,
    p95: lat.length ? pct(lat, 95) : NaN,
    max: lat.length ? lat[lat.length - 1]! : NaN,
    ok: lat.length === MESSAGES && pct(lat, 95) <= BAR_P95_MS,
  };
  results[c] = r;
  if (!r.ok) failed = true;
}

console.log(`\n| channel | arrived | p50 ms | p95 ms | max ms | bar p95 ≤ ${BAR_P95_MS} ms |`);
console.log("| ------- | ------: | -----: | -----: | -----: | ---------------- |");
for (const c of CHANNELS) {
  const r = results[c]!;
  console.log(`| ${c} | ${r.arrived}/${MESSAGES} | ${r.p50} | ${r.p95} | ${r.max} | ${r.ok ? "✔" : "✘"} |`);
}
if (errors) console.log(`${errors} finder POSTs failed`);
if (push.rejected.length) console.log(`push stand-in rejected: ${push.rejected.join("; ")}`);

const out = path.join(root, "bench/results");
fs.mkdirSync(out, { recursive: true });
const file = path.join(out, `alerts-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
fs.writeFileSync(
  file,
  JSON.stringify(
    {
      at: new Date().toISOString(),
      database: databaseUrl.split(":")[0],
      messages: MESSAGES,
      seconds: SECONDS,
      errors,
      results,
    },
    null,
    2,
  ),
);
console.log(`Report: ${path.relative(root, file)}`);

await server.stop();
await smtp.close();
await elks.close();
await push.close();
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
