/**
 * Signed webhooks (decision 061) on SQLite and, with DATABASE_URL=postgres://…,
 * PostgreSQL, against a local HTTPS receiver (tests/support/webhook-receiver.ts) that a
 * test verifies as a real receiver would, with the `standardwebhooks` package: a scan of
 * an organisation's item arrives as a signed `item.scanned`; a wrong secret or a changed
 * body does not verify; a receiver that fails twice gets the same event three times with
 * growing gaps; an endpoint whose host resolves to a private address is refused at save
 * and at delivery; and two instances' outbox workers on one database deliver each event
 * once per endpoint.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { ApiItem } from "../../app/server/api/representation.server";
import { createItem } from "../../app/server/items/items.service.server";
import { startMailWorker, type MailWorker } from "../../app/server/mail/mail.server";
import { wakeOutbox } from "../../app/server/outbox/outbox-worker.server";
import type { Runtime } from "../../app/server/runtime.server";
import { setItemLost, writeScanEvents } from "../../app/server/scans/scans.service.server";
import { WebhookPayload } from "../../app/server/webhooks/payloads.server";
import { createWebhookSender } from "../../app/server/webhooks/webhook-channel.server";
import * as repo from "../../app/server/webhooks/webhooks.repository.server";
import { addEndpoint, WebhookError } from "../../app/server/webhooks/webhooks.service.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { PUSH_CA } from "../support/push-service";
import { createTestOrganisation } from "../support/service-fixtures";
import { createUser, type TestUser } from "../support/users";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/** The first retry's delay in these tests (5 s in production); each next one 4 × longer. */
const BACKOFF_BASE_MS = 300;

let tdb: TestDatabase;
let rt: Runtime;
let rt2: Runtime;
let receiver: WebhookReceiver;
let admin: TestUser;
let org: string;

const workers: MailWorker[] = [];
/** An instance's outbox worker, its webhook sender trusting the stand-in's certificate. */
function outboxWorker(r: Runtime = rt): MailWorker {
  const sender = createWebhookSender(depsOf(r), { ca: [PUSH_CA], backoffBaseMs: BACKOFF_BASE_MS });
  const w = startMailWorker({ ...depsOf(r), senders: { ...r.senders, push: undefined, webhook: sender } });
  workers.push(w);
  return w;
}

async function orgItem(name: string) {
  const id = await createItem(
    depsOf(rt),
    admin.id,
    {
      name,
      findFee: 0,
      prodType: "laptop",
      contactInfo: "Reception",
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    },
    "en",
    org,
  );
  // Paid, with scan alerts on: a scan claims the alert and is announced (decision 033).
  await rt.database.db
    .updateTable("products")
    .set({ payed: 1, paidUntil: null, scanAlerts: 1 })
    .where("id", "=", id)
    .execute();
  return id;
}

async function endpoint(path: string, events: Parameters<typeof addEndpoint>[3]["events"]) {
  const id = await addEndpoint(depsOf(rt), admin.id, org, { url: `${receiver.origin}${path}`, events });
  return (await repo.findEndpoint(rt.database.db, id))!;
}

/** The endpoint's delivery log once it has `n` lines (the sender writes it after the answer). */
async function logOf(endpointId: string, n: number) {
  for (let i = 0; i < 100; i++) {
    const log = await repo.listDeliveries(rt.database.db, endpointId, 10);
    if (log.length >= n) return log;
    await new Promise((r) => setTimeout(r, 50));
  }
  return repo.listDeliveries(rt.database.db, endpointId, 10);
}

const scan = (itemId: string) =>
  writeScanEvents(depsOf(rt), [{ itemId, at: Date.now(), lang: "sv", device: "phone", paid: true }]);

beforeAll(async () => {
  tdb = await createTestDatabase("webhooks");
  receiver = await startWebhookReceiver();
  const env = testEnv(tdb, { WEBHOOK_ALLOW_HOSTS: receiver.hostPort, MAIL_POLL_MS: "100", RATE_LIMIT_DISABLED: "1" });
  rt = await createTestRuntime(env);
  rt2 = await createTestRuntime(env);
  admin = await createUser(rt, { language: "sv" });
  org = await createTestOrganisation(depsOf(rt), admin);
});
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
});
afterAll(async () => {
  await rt?.database.close();
  await rt2?.database.close();
  await receiver?.close();
  await tdb?.drop();
});

describe("a scan of an organisation's item", () => {
  it("arrives as a signed item.scanned that verifies with the endpoint's secret (Standard Webhooks)", async () => {
    const item = await orgItem("Projektor aula B");
    const hook = await endpoint("/scans", ["item.scanned"]);
    outboxWorker();
    await scan(item);
    wakeOutbox("webhook");
    const [hit] = await receiver.waitFor("/scans");
    expect(hit!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(hit!.headers["content-type"]).toBe("application/json");
    const event = WebhookPayload.parse(new Webhook(hook.secret).verify(hit!.body, hit!.headers));
    expect(event).toMatchObject({ id: hit!.headers["webhook-id"], type: "item.scanned" });
    expect(event.data.scan).toMatchObject({ device: "phone", lang: "sv", lost: false });
    const item_ = ApiItem.parse(event.data.item);
    expect(item_).toMatchObject({ id: item, name: "Projektor aula B", type: "laptop", status: "active" });
    // A wrong secret, or a body changed on the way, does not verify.
    const stranger = new Webhook(`whsec_${randomBytes(32).toString("base64")}`);
    expect(() => stranger.verify(hit!.body, hit!.headers)).toThrow();
    expect(() => new Webhook(hook.secret).verify(hit!.body.replace("Projektor", "Pr0jektor"), hit!.headers)).toThrow();
    // The delivery log has the attempt.
    const log = await logOf(hook.id, 1);
    expect(log).toMatchObject([{ eventId: event.id, eventType: "item.scanned", statusCode: 204, ok: 1 }]);
  });
});

describe("a receiver that fails", () => {
  it("gets the same event again with growing gaps until it answers 2xx, each attempt logged", async () => {
    const item = await orgItem("Nycklar förråd");
    const hook = await endpoint("/flaky", ["item.lost"]);
    receiver.respond("/flaky", 500, 503);
    outboxWorker();
    await rt.database.db.updateTable("products").set({ lostAt: null }).where("id", "=", item).execute();
    await setItemLost(depsOf(rt), admin.id, item, true);
    wakeOutbox("webhook");
    const hits = await receiver.waitFor("/flaky", 3, 20_000);
    expect(hits.map((h) => h.status)).toEqual([500, 503, 204]);
    expect(new Set(hits.map((h) => h.headers["webhook-id"])).size).toBe(1);
    for (const h of hits) expect(() => new Webhook(hook.secret).verify(h.body, h.headers)).not.toThrow();
    const [g1, g2] = [hits[1]!.at - hits[0]!.at, hits[2]!.at - hits[1]!.at];
    expect(g1).toBeGreaterThanOrEqual(BACKOFF_BASE_MS - 50);
    expect(g2).toBeGreaterThanOrEqual(BACKOFF_BASE_MS * 4 - 50);
    expect(g2).toBeGreaterThan(g1);
    const log = await logOf(hook.id, 3);
    expect(log.map((l) => [l.statusCode, l.ok]).reverse()).toEqual([
      [500, 0],
      [503, 0],
      [204, 1],
    ]);
    const fresh = await repo.findEndpoint(rt.database.db, hook.id);
    expect(fresh).toMatchObject({ enabled: 1, failingSince: null });
  });
});

describe("an endpoint on a private address", () => {
  it("is refused at save, and at delivery when its name resolves to one later", async () => {
    // Not the allowed host:port: loopback is private.
    await expect(
      addEndpoint(depsOf(rt), admin.id, org, { url: "https://127.0.0.1:1/x", events: ["item.found"] }),
    ).rejects.toMatchObject({ code: "url.private" });
    await expect(
      addEndpoint(depsOf(rt), admin.id, org, {
        url: `https://localhost:${receiver.hostPort.split(":")[1]}/x`,
        events: ["item.found"],
      }),
    ).rejects.toBeInstanceOf(WebhookError);
    // Saved while it resolved to a public address; now `localhost` (the receiver's port, not allowed as such).
    const item = await orgItem("Kamera");
    const rebound = await addEndpoint(
      depsOf(rt),
      admin.id,
      org,
      { url: `https://localhost:${receiver.hostPort.split(":")[1]}/rebound`, events: ["item.found"] },
      async () => ["93.184.216.34"],
    );
    outboxWorker();
    await rt.database.db.updateTable("products").set({ lostAt: Date.now() }).where("id", "=", item).execute();
    await setItemLost(depsOf(rt), admin.id, item, false);
    wakeOutbox("webhook");
    const log = await logOf(rebound, 1);
    expect(log).toMatchObject([{ ok: 0, statusCode: null, error: "private address" }]);
    expect(receiver.received.filter((r) => r.path === "/rebound")).toHaveLength(0);
    // The attempt is logged before the worker records the row's end: asked until it has.
    await expect
      .poll(
        async () =>
          (await rt.database.db.selectFrom("mail_outbox").select("status").where("to", "=", rebound).executeTakeFirst())
            ?.status,
        { timeout: 10_000 },
      )
      .toBe("failed");
  });
});

describe("two instances on one database", () => {
  it("deliver each event once per endpoint, however often it is announced", async () => {
    const item = await orgItem("Skärm");
    await endpoint("/one", ["sticker.claimed"]);
    await endpoint("/two", ["sticker.claimed"]);
    outboxWorker(rt);
    outboxWorker(rt2);
    const at = Date.now();
    // The same claim announced three times (a retried transaction), by both instances.
    await depsOf(rt).events.emit("stickerClaimed", { itemId: item, code: "X", at }, depsOf(rt));
    await depsOf(rt2).events.emit("stickerClaimed", { itemId: item, code: "X", at }, depsOf(rt2));
    await depsOf(rt).events.emit("stickerClaimed", { itemId: item, code: "X", at }, depsOf(rt));
    wakeOutbox("webhook");
    await receiver.waitFor("/one");
    await receiver.waitFor("/two");
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.received.filter((r) => r.path === "/one")).toHaveLength(1);
    expect(receiver.received.filter((r) => r.path === "/two")).toHaveLength(1);
  });
});
