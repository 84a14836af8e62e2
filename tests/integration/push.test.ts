/**
 * Web push (decision 034) on SQLite and, with DATABASE_URL=postgres://…,
 * PostgreSQL, against a local push service speaking the protocol (tests/support/push-service.ts:
 * HTTPS, VAPID verified, aes128gcm decrypted with the test subscription's keys).
 * Service level: the shared VAPID pair, the endpoint rules against request forgery, the
 * device cap; push as a channel of the one outbox (decision 040): what 404/410/5xx/
 * timeouts do, each notice sent once by two instances' outbox workers.
 * Over HTTP against the production server: the API (sign-in, same origin, bad input), the
 * service worker and manifest, and a finder's message fanned out to the owner's device
 * as the owner chose, recorded and shown in the conversation.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import type { Deps } from "../../app/server/service-deps.server";
import { sendPushNotification } from "../../app/server/push/push-sender.server";
import { listDevices, PushError, subscribeDevice } from "../../app/server/push/push.service.server";
import { createPushSender, PUSH_MAX_ATTEMPTS } from "../../app/server/push/push-channel.server";
import { enqueuePush, startMailWorker, type MailWorker } from "../../app/server/mail/mail.server";
import { createItem } from "../../app/server/items/items.service.server";
import { vapidKeys } from "../../app/server/push/vapid.server";
import type { Runtime } from "../../app/server/runtime.server";
import { PUSH_DEVICES_MAX } from "../../app/lib/domain/push";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { PUSH_CA, PUSH_CA_FILE, startPushService, type PushStandIn } from "../support/push-service";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

let tdb: TestDatabase;
let rt: Runtime;
let rt2: Runtime;
let push: PushStandIn;
let env: Record<string, string>;

/** The Deps a service takes, trusting the stand-in's certificate (a short deadline where a test waits for it). */
function deps(r: Runtime = rt, now?: () => number, timeoutMs = 10_000): Deps {
  return { ...depsOf(r), ...(now ? { clock: now } : {}), push: { ca: [PUSH_CA], timeoutMs } };
}

const notice = (n: string) =>
  JSON.stringify({ title: `Notice ${n}`, body: "Body", url: "http://localhost/messages/x", tag: n });

/** The push rows of the one outbox for a device. */
async function outboxOf(subscriptionId: string) {
  return rt.database.db
    .selectFrom("mail_outbox")
    .selectAll()
    .where("channel", "=", "push")
    .where("to", "=", subscriptionId)
    .execute();
}

const workers: MailWorker[] = [];
/** An instance's outbox worker, its push sender trusting the stand-in (a short deadline where a test waits for it). */
function outboxWorker(r: Runtime = rt, timeoutMs = 10_000): MailWorker {
  const w = startMailWorker({
    ...deps(r),
    senders: { ...r.senders, webhook: undefined, push: createPushSender(deps(r, undefined, timeoutMs)) },
  });
  workers.push(w);
  return w;
}

async function paidItem(owner: TestUser, name: string) {
  const id = await createItem(
    depsOf(rt),
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
  await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

async function waitUntil<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  tdb = await createTestDatabase("push");
  push = await startPushService();
  // The stand-in plays a known push service, as FCM would be (decision 058).
  env = testEnv(tdb, { PUSH_ALLOW_HOSTS: push.hostPort, PUSH_KNOWN_HOSTS: push.hostPort, RATE_LIMIT_DISABLED: "1" });
  rt = await createTestRuntime(env);
  rt2 = await createTestRuntime(env);
});
// Every worker of this process wakes when a row is queued: each test stops its own.
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
});
afterAll(async () => {
  await rt?.database.close();
  await rt2?.database.close();
  await push?.close();
  await tdb?.drop();
});

describe("the VAPID key pair", () => {
  it("is generated once and shared: two instances starting at once sign with the same pair", async () => {
    const [a, b] = await Promise.all([vapidKeys(deps(rt)), vapidKeys(deps(rt2))]);
    expect(a).toEqual(b);
    expect(Buffer.from(a.publicKey, "base64url")).toHaveLength(65);
    const rows = await rt.database.db.selectFrom("server_keys").selectAll().execute();
    expect(rows.map((r) => r.name)).toEqual(["vapid"]);
  });
});

describe("subscribing a browser", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(rt);
  });

  it("refuses endpoints that are not https or point at private, loopback or link-local addresses", async () => {
    const keys = push.subscribe().keys;
    const refused: Array<[string, string]> = [
      [`http://${push.hostPort}/push/x`, "notHttps"],
      ["https://10.0.0.7/push/x", "private"],
      ["https://192.168.1.1/push/x", "private"],
      ["https://169.254.169.254/latest/meta-data", "private"],
      ["https://[::1]/push/x", "private"],
      ["https://[::ffff:127.0.0.1]/push/x", "private"],
      // A name that resolves to loopback, and the stand-in itself under a name not listed.
      [`https://localhost:${push.port}/push/x`, "private"],
      [`https://127.0.0.1:${push.port + 1}/push/x`, "private"],
      ["https://user:pw@example.com/push", "invalid"],
      ["not a url", "invalid"],
    ];
    for (const [endpoint, code] of refused) {
      const err = await subscribeDevice(deps(), user.id, { endpoint, keys }, { userAgent: null }).catch((e) => e);
      expect(err, endpoint).toBeInstanceOf(PushError);
      expect((err as PushError).code, endpoint).toBe(code);
    }
    expect(await listDevices(deps(), user.id)).toEqual([]);
  });

  it("refuses keys that are not a P-256 point and a 16-byte secret", async () => {
    const sub = push.subscribe();
    const bad = Buffer.alloc(65, 7);
    bad[0] = 4;
    for (const keys of [
      { p256dh: bad.toString("base64url"), auth: sub.keys.auth },
      { p256dh: sub.keys.p256dh, auth: randomBytes(17).toString("base64url") },
    ]) {
      const err = await subscribeDevice(deps(), user.id, { endpoint: sub.endpoint, keys }, { userAgent: null }).catch(
        (e) => e,
      );
      expect((err as PushError).code).toBe("invalid");
    }
  });

  it(`keeps at most ${PUSH_DEVICES_MAX} devices per account, also when they subscribe at once`, async () => {
    const busy = await createUser(rt);
    const subs = Array.from({ length: PUSH_DEVICES_MAX + 5 }, () => push.subscribe());
    const results = await Promise.allSettled(
      // One instance's connection pool (PostgreSQL: concurrent transactions).
      subs.map((s) =>
        subscribeDevice(deps(), busy.id, s.toJSON(), {
          userAgent: "Mozilla/5.0 (Android 14) Chrome/130",
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(PUSH_DEVICES_MAX);
    for (const r of results) {
      if (r.status === "rejected") expect((r.reason as PushError).code).toBe("tooMany");
    }
    const devices = await listDevices(deps(), busy.id);
    expect(devices).toHaveLength(PUSH_DEVICES_MAX);
    expect(devices[0]!.label).toBe("Chrome, Android");
    // The same browser again updates its row instead of needing a free place.
    const kept = subs.find((s) => results[subs.indexOf(s)]!.status === "fulfilled")!;
    await subscribeDevice(deps(), busy.id, kept.toJSON(), { userAgent: null });
    expect(await listDevices(deps(), busy.id)).toHaveLength(PUSH_DEVICES_MAX);
  });
});

describe("sending", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(rt);
  });

  it("encrypts with aes128gcm for the browser's keys and signs with the shared VAPID key", async () => {
    const sub = push.subscribe();
    const outcome = await sendPushNotification(
      deps(),
      { endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth },
      { title: "Blå ryggsäck", body: "Hittad vid stationen", url: "http://localhost:3000/messages/abc" },
    );
    expect(outcome).toEqual({ result: "delivered", status: 201 });
    const got = await push.waitFor((p) => p.subscriptionId === sub.id);
    expect(got.payload).toEqual({
      title: "Blå ryggsäck",
      body: "Hittad vid stationen",
      url: "http://localhost:3000/messages/abc",
    });
    expect(got.vapid.publicKey).toBe((await vapidKeys(deps())).publicKey);
    expect(got.vapid.aud).toBe(push.origin);
    expect(push.rejected).toEqual([]);
  });

  it("a 404 or 410 from the push service removes the subscription and fails its notice at once", async () => {
    const worker = outboxWorker();
    for (const status of [404, 410]) {
      const sub = push.subscribe();
      await subscribeDevice(deps(), user.id, sub.toJSON(), { userAgent: null });
      const [device] = (await listDevices(deps(), user.id)).slice(-1);
      push.respond(sub.id, status);
      await enqueuePush(
        rt.database.db,
        { subscriptionId: device!.id, payload: notice(`gone-${status}`) },
        rt.config.push.knownHosts,
        rt.clock(),
      );
      await worker.drain();
      const [row] = await outboxOf(device!.id);
      expect(row).toMatchObject({ status: "failed", attempts: 1 });
      expect(row!.lastError).toContain(`${status} gone`);
      const left = await rt.database.db
        .selectFrom("push_subscriptions")
        .select("id")
        .where("endpoint", "=", sub.endpoint)
        .execute();
      expect(left).toEqual([]);
    }
  });

  it("a 5xx or no answer in time is retried later with back-off (no answer pauses the host), then delivered once", async () => {
    const worker = outboxWorker(rt, 500);
    const other = await createUser(rt);
    const sub = push.subscribe();
    await subscribeDevice(deps(), other.id, sub.toJSON(), { userAgent: null });
    const [device] = await listDevices(deps(), other.id);
    push.respond(sub.id, 503, "hang");
    // Time passes: the row's back-off, and the pause of the host after a time-out (decision 049).
    const due = async () => {
      await rt.database.db.updateTable("mail_outbox").set({ nextAttemptAt: 0 }).where("to", "=", device!.id).execute();
      await rt.database.db.updateTable("outbox_backoffs").set({ resumeAt: 0 }).execute();
    };
    const pauses = () => rt.database.db.selectFrom("outbox_backoffs").selectAll().execute();

    const before = Date.now();
    await enqueuePush(
      rt.database.db,
      { subscriptionId: device!.id, payload: notice("retry") },
      rt.config.push.knownHosts,
      rt.clock(),
    );
    await worker.drain();
    let [row] = await outboxOf(device!.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row!.lastError).toMatch(/^503/);
    expect(await pauses()).toEqual([]);
    expect(Number(row!.nextAttemptAt)).toBeGreaterThanOrEqual(before + 5_000);
    // Not due yet: nothing more is sent.
    await worker.drain();
    expect(push.received.filter((p) => p.subscriptionId === sub.id)).toHaveLength(1);

    await due();
    await worker.drain();
    [row] = await outboxOf(device!.id);
    expect(row).toMatchObject({ status: "pending", attempts: 2 });
    expect(row!.lastError).toMatch(/no answer within 500 ms/);
    // No answer sets the host aside (a 503 did not).
    expect(await pauses()).toMatchObject([{ lane: "push", target: push.hostPort, strikes: 1 }]);

    await due();
    await worker.drain();
    [row] = await outboxOf(device!.id);
    expect(row).toMatchObject({ status: "sent", attempts: 3 });
    // It answered: its strikes are forgotten.
    expect(await pauses()).toEqual([]);
    const delivered = push.received.filter((p) => p.subscriptionId === sub.id && p.status === 201);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.payload.title).toBe("Notice retry");
    expect(PUSH_MAX_ATTEMPTS).toBeLessThan(8);
  });

  it("a notice for a device removed meanwhile fails without a request", async () => {
    const worker = outboxWorker();
    const gone = await createUser(rt);
    const sub = push.subscribe();
    await subscribeDevice(deps(), gone.id, sub.toJSON(), { userAgent: null });
    const [device] = await listDevices(deps(), gone.id);
    await rt.database.db.deleteFrom("push_subscriptions").where("id", "=", device!.id).execute();
    await enqueuePush(
      rt.database.db,
      { subscriptionId: device!.id, payload: notice("removed") },
      rt.config.push.knownHosts,
      rt.clock(),
    );
    await worker.drain();
    expect(await outboxOf(device!.id)).toMatchObject([{ status: "failed", lastError: "device removed" }]);
    expect(push.received.filter((p) => p.subscriptionId === sub.id)).toEqual([]);
  });

  it("a notice still waiting an hour after it was queued fails without a request", async () => {
    const late = await createUser(rt);
    const sub = push.subscribe();
    await subscribeDevice(deps(), late.id, sub.toJSON(), { userAgent: null });
    const [device] = await listDevices(deps(), late.id);
    const id = await enqueuePush(
      rt.database.db,
      { subscriptionId: device!.id, payload: notice("stale") },
      rt.config.push.knownHosts,
      rt.clock(),
    );
    await rt.database.db
      .updateTable("mail_outbox")
      .set({ createdAt: Date.now() - 61 * 60_000 })
      .where("id", "=", id)
      .execute();
    // Started once the row is an hour old (a running worker would have sent it at once).
    const worker = outboxWorker();
    await worker.drain();
    expect(await outboxOf(device!.id)).toMatchObject([
      { status: "failed", lastError: "expired before it could be sent" },
    ]);
    expect(push.received.filter((p) => p.subscriptionId === sub.id)).toEqual([]);
  });

  it("two instances' outbox workers draining at once send each notice once", async () => {
    const [a, b] = [outboxWorker(rt), outboxWorker(rt2)];
    const many = await createUser(rt);
    const subs = Array.from({ length: 4 }, () => push.subscribe());
    for (const s of subs) await subscribeDevice(deps(), many.id, s.toJSON(), { userAgent: null });
    const devices = await listDevices(deps(), many.id);
    for (let i = 0; i < 5; i++) {
      for (const d of devices)
        await enqueuePush(
          rt.database.db,
          { subscriptionId: d.id, payload: notice(`once-${i}`) },
          rt.config.push.knownHosts,
          rt.clock(),
        );
    }
    await Promise.all([a.drain(), b.drain()]);
    await Promise.all([a.drain(), b.drain()]);
    const got = push.received.filter((p) => subs.some((s) => s.id === p.subscriptionId));
    expect(got).toHaveLength(20);
    expect(new Set(got.map((p) => `${p.subscriptionId}:${p.payload.title}`)).size).toBe(20);
    const rows = await rt.database.db
      .selectFrom("mail_outbox")
      .select(["status", "attempts"])
      .where(
        "to",
        "in",
        devices.map((d) => d.id),
      )
      .execute();
    expect(rows.map((r) => [r.status, Number(r.attempts)])).toEqual(Array(20).fill(["sent", 1]));
  });
});

describe("over HTTP, against the production server", () => {
  let server: TestServer;
  let owner: TestUser;
  let other: TestUser;
  const http = httpClient(() => server.url);

  beforeAll(async () => {
    server = await startServer({
      ...env,
      TRUST_PROXY: "1",
      MAIL_POLL_MS: "200",
      // The stand-in's self-signed certificate, trusted the way an operator would trust a CA.
      NODE_EXTRA_CA_CERTS: PUSH_CA_FILE,
    });
    owner = await createUser(rt, { language: "sv" });
    other = await createUser(rt);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const api = "/api/push/subscriptions";

  /** A finder writes through the finder page (no JavaScript needed); answers the conversation's id. */
  async function sendFinderMessage(item: string, message: string) {
    const b = randomBytes(3);
    const res = await http.post(
      `/product/${item}`,
      { message, contact: "" },
      { cookie: "ConsentApproved=true", ip: `10.${b[0]}.${b[1]}.${b[2]}` },
    );
    expect(res.status).toBe(302);
    const token = (res.headers.get("location") ?? "").slice(3, 46);
    const row = await rt.database.db
      .selectFrom("conversations")
      .select("id")
      .where("finderToken", "=", token)
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const del = (body: unknown, cookie: string, origin?: string) =>
    http.request(
      api,
      { method: "DELETE", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
      { cookie, ...(origin ? { origin } : {}) },
    );

  it("subscribes the signed-in user's browser, and DELETE with its endpoint removes it", async () => {
    const sub = push.subscribe();
    const res = await http.postJson(api, sub.toJSON(), {
      cookie: owner.cookie,
      headers: { "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1" },
    });
    expect(res.status).toBe(201);
    expect(await listDevices(deps(), owner.id)).toMatchObject([{ label: "Safari, iPhone" }]);
    // Another user cannot remove it, even knowing the endpoint.
    expect(await (await del({ endpoint: sub.endpoint }, other.cookie)).json()).toEqual({ removed: false });
    expect(await listDevices(deps(), owner.id)).toHaveLength(1);
    const gone = await del({ endpoint: sub.endpoint }, owner.cookie);
    expect(gone.status).toBe(200);
    expect(await gone.json()).toEqual({ removed: true });
    expect(await listDevices(deps(), owner.id)).toEqual([]);
  });

  it("refuses the signed-out, other sites, bad input and private endpoints with a translated message", async () => {
    const sub = push.subscribe();
    expect((await http.postJson(api, sub.toJSON())).status).toBe(401);
    expect(
      (await http.postJson(api, sub.toJSON(), { cookie: owner.cookie, origin: "https://evil.example" })).status,
    ).toBe(403);
    expect((await del({ endpoint: sub.endpoint }, owner.cookie, "https://evil.example")).status).toBe(403);
    const malformed = await http.postJson(api, "{not json", { cookie: owner.cookie });
    expect(malformed.status).toBe(400);
    const wrongShape = await http.postJson(api, { endpoint: sub.endpoint }, { cookie: owner.cookie, lang: "sv" });
    expect(wrongShape.status).toBe(400);
    expect((await wrongShape.json()).message).toBe("Det där är ingen push-prenumeration från en webbläsare.");
    const ssrf = await http.postJson(
      api,
      { ...sub.toJSON(), endpoint: "https://169.254.169.254/latest/meta-data" },
      { cookie: owner.cookie },
    );
    expect(ssrf.status).toBe(400);
    expect((await ssrf.json()).message).toBe("That push service address is not allowed.");
    const huge = await http.postJson(api, { ...sub.toJSON(), pad: "x".repeat(20_000) }, { cookie: owner.cookie });
    expect(huge.status).toBe(413);
    expect(await listDevices(deps(), owner.id)).toEqual([]);
  });

  it("serves the service worker for the whole site and the manifest with their types", async () => {
    const sw = await http.get("/sw.js");
    expect(sw.status).toBe(200);
    expect(sw.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(sw.headers.get("service-worker-allowed")).toBe("/");
    const body = await sw.text();
    expect(body).toContain('addEventListener("push"');
    expect(body).toContain('addEventListener("notificationclick"');
    // Never a fetch handler: private pages must not be cached by the worker.
    expect(body).not.toMatch(/addEventListener\(\s*["']fetch/);
    const manifest = await http.get("/manifest.webmanifest");
    expect(manifest.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const m = await manifest.json();
    expect(m.display).toBe("standalone");
    expect(m.icons.map((i: { sizes: string }) => i.sizes)).toEqual(["192x192", "512x512"]);
    for (const icon of m.icons) expect((await http.get(icon.src)).headers.get("content-type")).toBe("image/png");
  });

  it("a finder's message reaches the owner's device through the fan-out, recorded and shown in the conversation", async () => {
    const sub = push.subscribe();
    expect(
      (
        await http.postJson(api, sub.toJSON(), {
          cookie: owner.cookie,
          headers: { "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1" },
        })
      ).status,
    ).toBe(201);
    const item = await paidItem(owner, "Svart telefon");
    const conversationId = await sendFinderMessage(item, "Hittade den på bussen");
    // Sent by the server's one outbox worker, trusting NODE_EXTRA_CA_CERTS.
    const got = await push.waitFor((p) => p.subscriptionId === sub.id);
    expect(got.payload).toEqual({
      title: "En upphittare skrev om Svart telefon",
      body: "Hittade den på bussen",
      url: `${server.url}/messages/${conversationId}`,
      tag: `c-${conversationId}`,
      lang: "sv",
    });
    expect(push.rejected).toEqual([]);
    const delivery = await waitUntil(
      () =>
        rt.database.db
          .selectFrom("alert_deliveries")
          .selectAll()
          .where("conversationId", "=", conversationId)
          .where("channel", "=", "push")
          .execute(),
      (r) => r[0]?.status === "sent",
    );
    expect(delivery.map((d) => [d.recipientLabel, d.status, Number(d.attempts)])).toEqual([
      ["Safari, iPhone", "sent", 1],
    ]);
    const page = await (await http.get(`/messages/${conversationId}`, { cookie: owner.cookie, lang: "sv" })).text();
    expect(page).toContain("Skickat som push till Safari, iPhone");
  });

  it("no push when the owner turned it off for finder messages; a gone device is removed", async () => {
    const quiet = await createUser(rt, { language: "en" });
    const sub = push.subscribe();
    expect((await http.postJson(api, sub.toJSON(), { cookie: quiet.cookie })).status).toBe(201);
    const off = await http.post("/account/alerts", { intent: "settings" }, { cookie: quiet.cookie });
    expect(off.status).toBe(302);
    const item = await paidItem(quiet, "Quiet phone");
    const first = await sendFinderMessage(item, "no push please");
    await new Promise((r) => setTimeout(r, 1000));
    expect(push.received.filter((p) => p.subscriptionId === sub.id)).toEqual([]);
    expect(
      await rt.database.db
        .selectFrom("alert_deliveries")
        .select("channel")
        .where("conversationId", "=", first)
        .execute(),
    ).toEqual([]);

    // Push back on; the push service answers 410: the device is forgotten, the delivery failed.
    await http.post("/account/alerts", { intent: "settings", "finderMessage.push": "on" }, { cookie: quiet.cookie });
    push.respond(sub.id, 410);
    const second = await sendFinderMessage(item, "second try");
    const rows = await waitUntil(
      () =>
        rt.database.db
          .selectFrom("alert_deliveries")
          .select(["channel", "status"])
          .where("conversationId", "=", second)
          .execute(),
      (r) => r.some((d) => d.status === "failed"),
    );
    expect(rows).toEqual([{ channel: "push", status: "failed" }]);
    expect(await listDevices(deps(), quiet.id)).toEqual([]);
  });
});
