/**
 * Reliability of alerts (decision 033): `kill -9` of the server between the finder's message
 * and its SMS leaves the SMS sent after the restart, once. The first server's SMS
 * provider is unreachable (a closed port), so the SMS is queued and waiting when the
 * server is killed; the restarted server (same database, the 46elks stand-in reachable)
 * sends it. SQLite here, PostgreSQL with DATABASE_URL=postgres://…. The server is killed
 * once the failed try is recorded; a kill while a row is being sent leaves it locked for
 * the outbox's lease, which housekeeping.test.ts covers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { startElks, type ElksStandIn } from "../support/elks";
import { httpClient } from "../support/http";
import { freePort, startServer, type TestServer } from "../support/server";
import { createUser } from "../support/users";

let tdb: TestDatabase;
let server: TestServer | undefined;
let rt: Runtime;
let elks: ElksStandIn;
let env: Record<string, string>;

beforeAll(async () => {
  tdb = await createTestDatabase("alertcrash");
  elks = await startElks();
  const port = await freePort();
  env = testEnv(tdb, {
    RATE_LIMIT_DISABLED: "1",
    BASE_URL: `http://localhost:${port}`,
    MAIL_POLL_MS: "100",
    ELKS_API_USERNAME: elks.username,
    ELKS_API_PASSWORD: elks.password,
  });
  rt = await createTestRuntime(env);
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await elks?.close();
  await tdb?.drop();
});

describe("kill -9 between the finder's message and the SMS", () => {
  it("sends the SMS after the restart, once", async () => {
    const owner = await createUser(rt, { language: "en" });
    await rt.database.db
      .insertInto("user_phones")
      .values({
        userId: owner.id,
        phone: "+46709990001",
        verifiedAt: Date.now(),
        pendingPhone: null,
        codeHash: null,
        codeExpiresAt: null,
        codeAttempts: 0,
      })
      .execute();
    const item = await createItem(
      depsOf(rt),
      owner.id,
      {
        name: "Crash phone",
        findFee: 100,
        prodType: "mobile",
        contactInfo: "x",
        contactVisibility: "private",
        payment: "year",
        intent: "payLater",
      },
      "en",
    );
    await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", item).execute();

    // 46elks unreachable: the SMS waits in the outbox.
    const closed = await freePort();
    server = await startServer(
      { ...env, ELKS_API_URL: `http://127.0.0.1:${closed}` },
      {
        port: Number(new URL(env.BASE_URL!).port),
      },
    );
    const res = await httpClient(server.url).post(
      `/product/${item}`,
      { message: "Found it by the lake", contact: "" },
      { cookie: "ConsentApproved=true" },
    );
    expect(res.status).toBe(302);
    // Killed once the failed try is recorded: a row killed mid-send is locked for a minute
    // (the outbox's lease), which is the lease's rule, not this test's.
    await waitForFailedTry(rt, "+46709990001");
    server.process.kill("SIGKILL");
    await server.stop();
    expect(server.process.signalCode).toBe("SIGKILL");
    expect(elks.messages).toHaveLength(0);
    const queued = await rt.database.db
      .selectFrom("mail_outbox")
      .select(["status"])
      .where("channel", "=", "sms")
      .where("to", "=", "+46709990001")
      .execute();
    expect(queued).toHaveLength(1);
    expect(queued[0]!.status).not.toBe("sent");

    // Restarted with the provider reachable: sent once (after the back-off of a failed try).
    server = await startServer({ ...env, ELKS_API_URL: elks.url }, { port: Number(new URL(env.BASE_URL!).port) });
    const sms = await elks.waitFor((m) => m.to === "+46709990001", 20_000);
    expect(sms.message).toContain("Crash phone");
    await new Promise((r) => setTimeout(r, 1500));
    expect(elks.messages.filter((m) => m.to === "+46709990001")).toHaveLength(1);
    const delivery = await rt.database.db
      .selectFrom("alert_deliveries")
      .select(["status"])
      .where("channel", "=", "sms")
      .where("userId", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(delivery.status).toBe("sent");
  }, 60_000);
});

async function waitForFailedTry(runtime: Runtime, to: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const row = await runtime.database.db
      .selectFrom("mail_outbox")
      .select(["status", "attempts"])
      .where("channel", "=", "sms")
      .where("to", "=", to)
      .executeTakeFirst();
    if (row && row.status === "pending" && Number(row.attempts) >= 1) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the SMS to ${to} was not tried and put back within 20 s`);
}
