/**
 * The push lane's shares and pauses key on what a host is, not its port or name (decision
 * 058): four accounts, each with ten devices on never-answering hosts that differ only by
 * port, hold at most the small pool hosts outside the known push services share, and
 * another user's notice through a known push service leaves at once. SQLite by default,
 * PostgreSQL with DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { parseFinderMessage } from "../../app/lib/domain/relay";
import { createItem } from "../../app/server/items/items.service.server";
import { startMailWorker } from "../../app/server/mail/mail.server";
import { LANES } from "../../app/server/outbox/lanes.server";
import { createPushSender } from "../../app/server/push/push-channel.server";
import { pushTargetOf } from "../../app/server/push/push-target.server";
import { subscribeDevice } from "../../app/server/push/push.service.server";
import { sendFinderMessage } from "../../app/server/relay/relay.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import {
  PUSH_CA,
  startPushService,
  startSilentPushHost,
  type PushStandIn,
  type SilentPushHost,
} from "../support/push-service";
import { createUser } from "../support/users";

let tdb: TestDatabase;
let rt: Runtime;
let hosts: SilentPushHost[];
let push: PushStandIn;
const TIMEOUT_MS = 1500;

beforeAll(async () => {
  tdb = await createTestDatabase("push_domain");
  hosts = await Promise.all(Array.from({ length: 40 }, () => startSilentPushHost()));
  push = await startPushService();
  const allowed = [...hosts, push].map((h) => h.hostPort).join(",");
  // The working stand-in plays a known push service (as FCM would be).
  rt = await createTestRuntime(
    testEnv(tdb, { PUSH_ALLOW_HOSTS: allowed, PUSH_KNOWN_HOSTS: push.hostPort, RATE_LIMIT_DISABLED: "1" }),
  );
});
afterAll(async () => {
  for (const h of hosts ?? []) await h.close();
  await push?.close();
  await rt?.database.close();
  await tdb?.drop();
});

describe("a push endpoint's target", () => {
  it.each([
    ["https://fcm.googleapis.com/fcm/send/abc", "googleapis.com"],
    ["https://updates.push.services.mozilla.com/wpush/v2/abc", "mozilla.com"],
    ["https://web.push.apple.com/abc", "apple.com"],
    ["https://wns2-by3p.notify.windows.com/w/?token=abc", "windows.com"],
    ["https://a.b.evil.example:8443/x", "other:evil.example"],
    ["https://c.evil.example/x", "other:evil.example"],
    ["https://x.evil.co.uk/x", "other:evil.co.uk"],
    ["https://203.0.113.9:9000/x", "other:203.0.113.9"],
  ])("%s → %s", (endpoint, target) => {
    expect(pushTargetOf(endpoint, [])).toBe(target);
  });
});

describe("hosts that differ only by port cannot starve anyone's push", () => {
  it("four accounts × ten port-distinct silent hosts: another user's notice leaves within one round", async () => {
    const deps = { ...depsOf(rt), push: { ca: [PUSH_CA], timeoutMs: TIMEOUT_MS } };
    const form = new FormData();
    form.set("message", "found it");
    form.set("contact", "");
    const parsed = parseFinderMessage(form);
    if (!parsed.ok) throw new Error("the test's finder message does not parse");
    let ip = 0;
    for (let a = 0; a < 4; a++) {
      const u = await createUser(rt);
      for (let d = 0; d < 10; d++) {
        await subscribeDevice(deps, u.id, hosts[a * 10 + d]!.subscribe().toJSON(), { userAgent: null });
      }
      const item = await createItem(
        deps,
        u.id,
        { name: `bait ${a}`, findFee: 0, prodType: "mobile", contactInfo: "", payment: "year", intent: "payLater" },
        "en",
      );
      await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", item).execute();
      await sendFinderMessage(deps, item, parsed.data, { ip: `10.0.0.${++ip}`, lang: "en", viewerId: null });
    }
    const other = await createUser(rt);
    const good = push.subscribe();
    await subscribeDevice(deps, other.id, good.toJSON(), { userAgent: null });
    const otherItem = await createItem(
      deps,
      other.id,
      { name: "real", findFee: 0, prodType: "mobile", contactInfo: "", payment: "year", intent: "payLater" },
      "en",
    );
    await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", otherItem).execute();
    await sendFinderMessage(deps, otherItem, parsed.data, { ip: "10.0.1.1", lang: "en", viewerId: null });

    let peak = 0;
    const sample = setInterval(() => {
      peak = Math.max(
        peak,
        hosts.reduce((n, h) => n + h.open, 0),
      );
    }, 5);
    const started = Date.now();
    const worker = startMailWorker({
      ...deps,
      senders: { ...rt.senders, webhook: undefined, push: createPushSender(deps) },
    });
    try {
      const got = await push.waitFor((p) => p.subscriptionId === good.id, 10_000);
      // Keyed by host:port it waited rounds of the deadline (more than 3 × TIMEOUT_MS); the
      // margin over one deadline is the first send's set-up on a loaded machine.
      expect(got.at - started).toBeLessThan(2 * TIMEOUT_MS);
    } finally {
      clearInterval(sample);
      for (const h of hosts) await h.close();
      await worker.stop();
    }
    // The silent hosts together held no more than the pool of hosts outside the known services.
    expect(peak).toBeLessThanOrEqual(LANES.push.pool.slots);
  }, 60_000);
});
