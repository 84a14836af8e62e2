/**
 * Fair delivery lanes (docs/decisions/049-fair-delivery-lanes.md), on
 * SQLite and, with DATABASE_URL=postgres://…, PostgreSQL. The reviewer's attack: an account
 * with ten devices on an HTTPS host that accepts and never answers, plus finder messages
 * on its own item, held up an unrelated sign-up's verification mail by minutes.
 * Over HTTP against the production server: that mail now leaves within 5 s.
 * With an outbox worker in this process (the real push sender, a short deadline): one
 * push host, or one account's devices spread over ten hosts, hold at most their share of
 * the push lane while another owner's notice goes out; a host that timed out is set
 * aside without holding a slot, and its pause doubles.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { parseFinderMessage } from "../../app/lib/domain/relay";
import { createItem } from "../../app/server/items/items.service.server";
import { enqueuePush, startMailWorker, type MailWorker } from "../../app/server/mail/mail.server";
import { LANES } from "../../app/server/outbox/lanes.server";
import { outboxQueueStats } from "../../app/server/outbox/outbox-worker.server";
import { createPushSender } from "../../app/server/push/push-channel.server";
import { listDevices, subscribeDevice } from "../../app/server/push/push.service.server";
import { sendFinderMessage } from "../../app/server/relay/relay.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import {
  PUSH_CA,
  startPushService,
  startSilentPushHost,
  type PushStandIn,
  type SilentPushHost,
} from "../support/push-service";
import { startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { createUser, type TestUser } from "../support/users";

/** The silent hosts' target: not a known push service, keyed by address without the port (decision 058). */
const SILENT_TARGET = "other:127.0.0.1";
let tdb: TestDatabase;
let rt: Runtime;
let smtp: TestSmtpServer;
let silent: SilentPushHost;
/** Ten more silent hosts, and a push service that answers. */
let hosts: SilentPushHost[];
let push: PushStandIn;
let env: Record<string, string>;

async function paidItem(r: Runtime, owner: TestUser, name: string) {
  const id = await createItem(
    depsOf(r),
    owner.id,
    {
      name,
      findFee: 100,
      prodType: "mobile",
      contactInfo: "private",
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    },
    "en",
  );
  await r.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

async function waitUntil<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  tdb = await createTestDatabase("fairq");
  smtp = await startSmtpServer();
  silent = await startSilentPushHost();
  hosts = await Promise.all(Array.from({ length: 10 }, () => startSilentPushHost()));
  push = await startPushService();
  const allowed = [silent, ...hosts, push].map((h) => h.hostPort).join(",");
  // The working stand-in plays a known push service (decision 058); the silent hosts are others.
  env = testEnv(tdb, { PUSH_ALLOW_HOSTS: allowed, PUSH_KNOWN_HOSTS: push.hostPort, RATE_LIMIT_DISABLED: "1" });
  rt = await createTestRuntime(env);
});
afterAll(async () => {
  await silent?.close();
  for (const h of hosts ?? []) await h.close();
  await push?.close();
  await rt?.database.close();
  await smtp?.close();
  await tdb?.drop();
});

describe("a push host that never answers holds up no one's mail", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ...env, SMTP_URL: smtp.url, TRUST_PROXY: "1", MAIL_POLL_MS: "200" });
  });
  afterAll(async () => {
    // The silent host's connections are cut first, so the server's shutdown does not wait out its deadline.
    await silent?.close();
    await server?.stop();
  });

  it("with 10 never-answering devices and 10 finder messages queued, a new account's verification mail leaves within 5 s", async () => {
    const attacker = await createUser(rt, { language: "en" });
    for (let i = 0; i < 10; i++) {
      await subscribeDevice(depsOf(rt), attacker.id, silent.subscribe().toJSON(), { userAgent: null });
    }
    const item = await paidItem(rt, attacker, "Bait phone");
    const http = httpClient(server.url);
    for (let i = 0; i < 10; i++) {
      const b = randomBytes(3);
      const res = await http.post(
        `/product/${item}`,
        { message: `finder message ${i}`, contact: "" },
        { cookie: "ConsentApproved=true", ip: `10.${b[0]}.${b[1]}.${b[2]}` },
      );
      expect(res.status).toBe(302);
    }
    const pushRows = () =>
      rt.database.db.selectFrom("mail_outbox").select("status").where("channel", "=", "push").execute();
    // The attack is under way: a hundred notices queued, the silent host holding connections.
    expect((await pushRows()).length).toBe(100);
    await waitUntil(
      async () => silent.open,
      (n) => n > 0,
    );
    expect(silent.open).toBeGreaterThan(0);

    const email = `newcomer-${randomBytes(4).toString("hex")}@example.test`;
    const signedUpAt = Date.now();
    const res = await http.post("/user/register", { name: "Nora Newcomer", email, password: "a fine long secret" });
    expect(res.status).toBe(302);
    const mail = await smtp.waitForMail((m) => m.to.includes(email), 5_000);
    expect(mail.at - signedUpAt).toBeLessThanOrEqual(5_000);
    // The silent host was given no more than its share of the push lane.
    expect(silent.peak).toBeLessThanOrEqual(LANES.push.share);
    // The attacker's own finder mails went too: their lane is not the push lane.
    expect(smtp.messages.filter((m) => m.to.includes(attacker.email)).length).toBeGreaterThan(0);
  }, 60_000);
});

describe("the push lane's share and a silent host's pause, with an outbox worker in this process", () => {
  const TIMEOUT_MS = 1500;
  const { share } = LANES.push;
  let worker: MailWorker | undefined;
  const deps = () => ({ ...depsOf(rt), push: { ca: [PUSH_CA], timeoutMs: TIMEOUT_MS } });
  const notice = (n: string) => JSON.stringify({ title: n, body: "b", url: "http://localhost/messages/x" });
  const backoffOf = (_h: SilentPushHost) =>
    rt.database.db
      .selectFrom("outbox_backoffs")
      .selectAll()
      .where("lane", "=", "push")
      .where("target", "=", SILENT_TARGET)
      .executeTakeFirst();

  /** A device on `host` for `user`; answers its id. */
  async function device(user: TestUser, host: { subscribe(): { toJSON(): any } }) {
    const before = new Set((await listDevices(deps(), user.id)).map((d) => d.id));
    await subscribeDevice(deps(), user.id, host.subscribe().toJSON(), { userAgent: null });
    return (await listDevices(deps(), user.id)).find((d) => !before.has(d.id))!.id;
  }

  /** Each test starts from an empty outbox (the first block's server is gone, its rows stay). */
  async function emptyOutbox() {
    await rt.database.db.deleteFrom("mail_outbox").execute();
    await rt.database.db.deleteFrom("outbox_backoffs").execute();
  }
  beforeAll(emptyOutbox);
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await emptyOutbox();
  });

  it("one host holds at most its share of the lane; another host's notice goes out meanwhile", async () => {
    const host = hosts[0]!;
    const many = await createUser(rt);
    for (let i = 0; i < 10; i++) {
      await enqueuePush(
        rt.database.db,
        { subscriptionId: await device(many, host), payload: notice(`silent ${i}`) },
        rt.config.push.knownHosts,
        rt.clock(),
      );
    }
    const other = await createUser(rt);
    const good = push.subscribe();
    await subscribeDevice(deps(), other.id, good.toJSON(), { userAgent: null });
    const [goodDevice] = await listDevices(deps(), other.id);
    // Queued last, behind ten rows for the silent host.
    await enqueuePush(
      rt.database.db,
      { subscriptionId: goodDevice!.id, payload: notice("meanwhile") },
      rt.config.push.knownHosts,
      rt.clock(),
    );

    const started = Date.now();
    worker = startMailWorker({
      ...deps(),
      senders: { ...rt.senders, webhook: undefined, push: createPushSender(deps()) },
    });
    const got = await push.waitFor((p) => p.subscriptionId === good.id, TIMEOUT_MS);
    expect(got.at - started).toBeLessThan(TIMEOUT_MS);
    expect(host.open).toBe(share);
    // The gauges, per lane: the ten wait (two of them being sent), the delivered one is gone.
    const stats = await waitUntil(
      () => outboxQueueStats(rt.database.db, Date.now()),
      (s) => s.find((q) => q.queue === "push")!.depth === 10,
    );
    expect(stats.find((q) => q.queue === "push")).toMatchObject({ depth: 10 });
    expect(stats.find((q) => q.queue === "mail")).toMatchObject({ depth: 0 });

    // The two time out; the host is set aside and nothing more is sent to it while it waits.
    await worker.drain();
    expect(host.peak).toBe(share);
    expect(host.accepted).toBe(share);
    const pause = await backoffOf(host);
    expect(pause).toMatchObject({ strikes: 1 });
    expect(Number(pause!.resumeAt)).toBeGreaterThan(Date.now() + 20_000);
    await new Promise((r) => setTimeout(r, 300));
    await worker.drain();
    expect(host.accepted).toBe(share);
    const rows = await rt.database.db
      .selectFrom("mail_outbox")
      .select(["status", "attempts", "target"])
      .where("text", "like", "%silent%")
      .execute();
    expect(rows.every((r) => r.status === "pending" && r.target === SILENT_TARGET)).toBe(true);
    expect(rows.filter((r) => Number(r.attempts) === 1)).toHaveLength(share);

    // Its pause over, the host gets its share again; another time-out doubles the pause.
    await rt.database.db.updateTable("outbox_backoffs").set({ resumeAt: 0 }).execute();
    await worker.drain();
    expect(host.accepted).toBe(2 * share);
    expect(host.peak).toBe(share);
    const second = await backoffOf(host);
    expect(second).toMatchObject({ strikes: 2 });
    expect(Number(second!.resumeAt)).toBeGreaterThan(Date.now() + 50_000);
  }, 30_000);

  it("one account's devices on ten ports of one address are one target: one share, one pause", async () => {
    const owner = await createUser(rt);
    for (const h of hosts) await device(owner, h);
    const item = await paidItem(rt, owner, "Ten hosts");
    const form = new FormData();
    form.set("message", "found it");
    form.set("contact", "");
    const parsed = parseFinderMessage(form);
    if (!parsed.ok) throw new Error("the test's finder message does not parse");
    const meta = { ip: "10.9.9.9", lang: "en" as const, viewerId: null };
    await sendFinderMessage(deps(), item, parsed.data, meta);
    const rows = await rt.database.db
      .selectFrom("mail_outbox")
      .select(["account", "target"])
      .where("channel", "=", "push")
      .where("status", "=", "pending")
      .where("account", "=", owner.id)
      .execute();
    // The fan-out's rows name the owner's account and one target: the address, whatever the port.
    expect(new Set(rows.map((r) => r.target))).toEqual(new Set([SILENT_TARGET]));

    const other = await createUser(rt);
    const good = push.subscribe();
    await subscribeDevice(deps(), other.id, good.toJSON(), { userAgent: null });
    await sendFinderMessage(deps(), await paidItem(rt, other, "Other phone"), parsed.data, meta);

    const acceptedBefore = hosts.reduce((n, h) => n + h.accepted, 0);
    let peak = 0;
    const sample = setInterval(() => {
      peak = Math.max(
        peak,
        hosts.reduce((n, h) => n + h.open, 0),
      );
    }, 5);
    try {
      const started = Date.now();
      worker = startMailWorker({
        ...deps(),
        senders: { ...rt.senders, webhook: undefined, push: createPushSender(deps()) },
      });
      const got = await push.waitFor((p) => p.subscriptionId === good.id, TIMEOUT_MS);
      expect(got.at - started).toBeLessThan(TIMEOUT_MS);
      await worker.drain();
    } finally {
      clearInterval(sample);
    }
    expect(peak).toBe(share);
    // One round of the target's share, then the whole address is set aside.
    expect(hosts.reduce((n, h) => n + h.accepted, 0) - acceptedBefore).toBe(share);
  }, 30_000);
});
