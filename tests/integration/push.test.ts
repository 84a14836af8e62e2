/**
 * Web push (issue #33 point 3, decision 034) on SQLite and, with DATABASE_URL=postgres://…,
 * PostgreSQL, against a local push service speaking the protocol (tests/support/push-service.ts:
 * HTTPS, VAPID verified, aes128gcm decrypted with the test subscription's keys).
 * Service level: the shared VAPID pair, the endpoint rules against request forgery, the
 * device cap, what 404/410/5xx/timeouts do, each notice sent once by two workers.
 * Over HTTP against the production server: the API (sign-in, same origin, bad input), the
 * service worker and manifest, and a finder's message arriving as a push notification.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import type { Deps } from "../../app/server/service-deps.server";
import { sendPushNotification } from "../../app/server/push/push-sender.server";
import {
  deliverDuePush,
  listDevices,
  PushError,
  queuePushToUser,
  subscribeDevice,
} from "../../app/server/push/push.service.server";
import { vapidKeys } from "../../app/server/push/vapid.server";
import type { Runtime } from "../../app/server/runtime.server";
import { PUSH_DEVICES_MAX } from "../../app/lib/push";
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

const notice = (n: string) => () => ({
  title: `Notice ${n}`,
  body: "Body",
  url: "http://localhost/messages/x",
  tag: n,
});

async function outboxOf(subscriptionId: string) {
  return rt.database.db.selectFrom("push_outbox").selectAll().where("subscriptionId", "=", subscriptionId).execute();
}

beforeAll(async () => {
  tdb = await createTestDatabase("push");
  push = await startPushService();
  env = testEnv(tdb, { PUSH_ALLOW_HOSTS: push.hostPort, RATE_LIMIT_DISABLED: "1" });
  rt = await createTestRuntime(env);
  rt2 = await createTestRuntime(env);
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

  it("a 404 or 410 from the push service removes the subscription", async () => {
    for (const status of [404, 410]) {
      const sub = push.subscribe();
      await subscribeDevice(deps(), user.id, sub.toJSON(), { userAgent: null });
      push.respond(sub.id, status);
      await queuePushToUser(deps(), user.id, notice(`gone-${status}`));
      const attempts = await deliverDuePush(deps());
      expect(attempts.find((a) => a.outcome.result === "gone")?.outcome).toEqual({ result: "gone", status });
      const left = await rt.database.db
        .selectFrom("push_subscriptions")
        .select("id")
        .where("endpoint", "=", sub.endpoint)
        .execute();
      expect(left).toEqual([]);
    }
  });

  it("a 5xx or no answer in time is retried later with back-off, then delivered once", async () => {
    const other = await createUser(rt);
    const sub = push.subscribe();
    await subscribeDevice(deps(), other.id, sub.toJSON(), { userAgent: null });
    push.respond(sub.id, 503, "hang");
    let now = Date.now();
    const clock = () => now;
    await queuePushToUser(deps(rt, clock), other.id, notice("retry"));

    const first = await deliverDuePush(deps(rt, clock));
    expect(first.map((a) => a.outcome)).toMatchObject([{ result: "retry", status: 503 }]);
    const [row] = await outboxOf(first[0]!.subscriptionId);
    expect(row!.status).toBe("pending");
    expect(Number(row!.nextAttemptAt)).toBe(now + 5_000);
    // Not due yet: nothing is sent.
    expect(await deliverDuePush(deps(rt, clock))).toEqual([]);

    now += 5_000;
    const second = await deliverDuePush(deps(rt, clock, 500));
    expect(second.map((a) => a.outcome.result)).toEqual(["retry"]);
    expect((second[0]!.outcome as { error: string }).error).toMatch(/no answer within 500 ms/);

    now += 10_000;
    const third = await deliverDuePush(deps(rt, clock));
    expect(third.map((a) => a.outcome.result)).toEqual(["delivered"]);
    expect(await outboxOf(sub.id)).toEqual([]);
    const delivered = push.received.filter((p) => p.subscriptionId === sub.id && p.status === 201);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.payload.title).toBe("Notice retry");
  });

  it("two instances draining the queue at once send each notice once", async () => {
    const many = await createUser(rt);
    const subs = Array.from({ length: 4 }, () => push.subscribe());
    for (const s of subs) await subscribeDevice(deps(), many.id, s.toJSON(), { userAgent: null });
    for (let i = 0; i < 5; i++) await queuePushToUser(deps(), many.id, notice(`once-${i}`));
    const [a, b] = await Promise.all([deliverDuePush(deps(rt)), deliverDuePush(deps(rt2))]);
    expect([...a, ...b].map((x) => x.outcome.result)).toEqual(Array(20).fill("delivered"));
    const got = push.received.filter((p) => subs.some((s) => s.id === p.subscriptionId));
    expect(got).toHaveLength(20);
    expect(new Set(got.map((p) => `${p.subscriptionId}:${p.payload.title}`)).size).toBe(20);
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

  it("the server's push worker sends a queued notice to the owner's device, trusting NODE_EXTRA_CA_CERTS", async () => {
    const sub = push.subscribe();
    expect((await http.postJson(api, sub.toJSON(), { cookie: owner.cookie })).status).toBe(201);
    // Queued on the shared database as the alert fan-out will; the server's worker sends it.
    await queuePushToUser(depsOf(rt), owner.id, (lang) => ({
      title: lang === "sv" ? "En upphittare skrev om Svart telefon" : "A finder wrote about Svart telefon",
      body: "Hittade den på bussen",
      url: `${server.url}/messages/x`,
      lang,
    }));
    const got = await push.waitFor((p) => p.subscriptionId === sub.id);
    expect(got.payload).toMatchObject({ title: "En upphittare skrev om Svart telefon", lang: "sv" });
    expect(push.rejected).toEqual([]);
  });
});
