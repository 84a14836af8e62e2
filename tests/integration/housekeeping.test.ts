/**
 * Tables that only grew (decision 012): the housekeeping job deletes expired rate-limit
 * counters, sent mail older than 30 days, payment events older than 7 years and delivery
 * targets' pauses that ended a day ago (decision 049), keeps everything younger, and two instances running it at once are safe. Runs on SQLite and,
 * with DATABASE_URL=postgres://…, on PostgreSQL (where one run holds an advisory lock).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHousekeeping } from "../../app/server/jobs/jobs.service.server";
import { ANONYMOUS_USER_ID } from "../../app/server/db/migrations/0009-account-privacy";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";

const DAY = 24 * 60 * 60_000;
const NOW = Date.UTC(2026, 10, 23, 12);

let tdb: TestDatabase;
let a: Runtime;
let b: Runtime;

beforeAll(async () => {
  tdb = await createTestDatabase("housekeeping");
  const env = testEnv(tdb);
  a = await createTestRuntime(env);
  b = await createTestRuntime(env);
});
afterAll(async () => {
  await a?.database.close();
  await b?.database.close();
  await tdb?.drop();
});

async function seed(rt: Runtime) {
  const db = rt.database.db;
  await db
    .insertInto("app_rate_limits")
    .values([
      { key: "signin:ip:old", windowStart: NOW - 2 * DAY, count: 99 },
      { key: "signin:ip:fresh", windowStart: NOW - 10 * 60_000, count: 3 },
    ])
    .execute();
  const mail = (id: string, status: string, sentAt: number | null) => ({
    id,
    to: "someone@example.test",
    replyTo: null,
    subject: "s",
    text: "t",
    html: null,
    status,
    attempts: 1,
    nextAttemptAt: 0,
    lockedUntil: null,
    lastError: null,
    createdAt: (sentAt ?? NOW) - 1000,
    sentAt,
  });
  await db
    .insertInto("mail_outbox")
    .values([
      mail("sent-old", "sent", NOW - 31 * DAY),
      mail("sent-new", "sent", NOW - 29 * DAY),
      mail("pending-old", "pending", null),
    ])
    .execute();
  await db
    .insertInto("payment_events")
    .values([
      { id: "evt_old", type: "checkout.session.completed", orderId: null, receivedAt: NOW - 7 * 366 * DAY },
      { id: "evt_kept", type: "checkout.session.completed", orderId: null, receivedAt: NOW - 6 * 365 * DAY },
    ])
    .execute();
  // A push host's pause that ended two days ago (never cleared: no one sent to it since), and one running.
  await db
    .insertInto("outbox_backoffs")
    .values([
      { lane: "push", target: "gone.example:443", strikes: 3, resumeAt: NOW - 2 * DAY },
      { lane: "push", target: "push.example:443", strikes: 1, resumeAt: NOW + 30_000 },
    ])
    .execute();
  // Decision 046: message counters a month after their window; never links a year after
  // their last message, unless their address is suppressed (the link undoes that).
  await db
    .insertInto("sms_quotas")
    .values([
      { key: "to-month:old", windowStart: NOW - 32 * DAY, count: 5, noticeAt: null },
      { key: "to-month:fresh", windowStart: NOW - 29 * DAY, count: 5, noticeAt: null },
    ])
    .execute();
  const link = (codeHash: string, addressHash: string, lastSentAt: number) =>
    ({ codeHash, addressHash, channel: "email", lastSentAt }) as const;
  await db
    .insertInto("never_links")
    .values([
      link("old", "a-old", NOW - 366 * DAY),
      link("suppressed", "a-sup", NOW - 400 * DAY),
      link("new", "a-new", NOW - DAY),
    ])
    .execute();
  await db
    .insertInto("recipient_suppressions")
    .values({ addressHash: "a-sup", channel: "email", createdAt: NOW })
    .execute();
}

describe("housekeeping: tables that only grew are pruned", () => {
  it("deletes expired counters, sent mail after 30 days, payment events after 7 years and ended pauses, and nothing else", async () => {
    await seed(a);
    const result = await runHousekeeping({ db: a.database.db, clock: () => NOW }, a.database.dialect);
    expect(result).toEqual({
      rateLimits: 1,
      sentMail: 1,
      paymentEvents: 1,
      scans: 0,
      conversations: 0,
      lookups: 0,
      trustedContactInvites: 0,
      messageCounters: 1,
      neverLinks: 1,
      orders: 0,
      outboxBackoffs: 1,
      smsIncoming: 0,
      apiIdempotency: 0,
      webhooks: 0,
    });
    const db = a.database.db;
    expect((await db.selectFrom("sms_quotas").select("key").execute()).map((r) => r.key)).toEqual(["to-month:fresh"]);
    const links = await db.selectFrom("never_links").select("codeHash").orderBy("codeHash").execute();
    expect(links.map((r) => r.codeHash)).toEqual(["new", "suppressed"]);
    expect((await db.selectFrom("app_rate_limits").select("key").execute()).map((r) => r.key)).toEqual([
      "signin:ip:fresh",
    ]);
    expect((await db.selectFrom("mail_outbox").select("id").orderBy("id").execute()).map((r) => r.id)).toEqual([
      "pending-old",
      "sent-new",
    ]);
    expect((await db.selectFrom("payment_events").select("id").execute()).map((r) => r.id)).toEqual(["evt_kept"]);
    expect((await db.selectFrom("outbox_backoffs").select("target").execute()).map((r) => r.target)).toEqual([
      "push.example:443",
    ]);
  });

  it("two instances running it at the same moment both finish; nothing is deleted twice or left behind", async () => {
    await a.database.db.deleteFrom("app_rate_limits").execute();
    await a.database.db.deleteFrom("mail_outbox").execute();
    await a.database.db.deleteFrom("payment_events").execute();
    await a.database.db.deleteFrom("outbox_backoffs").execute();
    for (const table of ["sms_quotas", "never_links", "recipient_suppressions"] as const) {
      await a.database.db.deleteFrom(table).execute();
    }
    await seed(a);
    const runs = await Promise.all([
      runHousekeeping({ db: a.database.db, clock: () => NOW }, a.database.dialect),
      runHousekeeping({ db: b.database.db, clock: () => NOW }, b.database.dialect),
    ]);
    const done = runs.filter((r) => r !== null);
    const sum = (k: "rateLimits" | "sentMail" | "paymentEvents") => done.reduce((n, r) => n + r[k], 0);
    expect({ rateLimits: sum("rateLimits"), sentMail: sum("sentMail"), paymentEvents: sum("paymentEvents") }).toEqual({
      rateLimits: 1,
      sentMail: 1,
      paymentEvents: 1,
    });
    expect(await a.database.db.selectFrom("app_rate_limits").select("key").execute()).toHaveLength(1);
  });

  it("on PostgreSQL a run finds the lock held by another instance and skips", async () => {
    if (a.database.dialect !== "postgres") return;
    const { sql } = await import("kysely");
    await a.database.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(7428115001)`.execute(trx);
      expect(await runHousekeeping({ db: b.database.db, clock: () => NOW }, b.database.dialect)).toBeNull();
    });
    expect(await runHousekeeping({ db: b.database.db, clock: () => NOW }, b.database.dialect)).not.toBeNull();
  });
});

describe("bookkeeping records (decision 041): 7 years after the end of their financial year", () => {
  it("deletes orders and receipts whose year ended 7 years ago, keeps a younger year's and a running subscription", async () => {
    const db = a.database.db;
    // Swedish midnight at the turn of the year 2018/2019 is 23:00 UTC on 31 December.
    const newYear2019 = Date.UTC(2018, 11, 31, 23);
    const order = (id: string, createdAt: number, paidUntil: number) => ({
      id,
      userId: ANONYMOUS_USER_ID,
      provider: "test",
      status: "paid",
      period: "year",
      lang: "sv",
      currency: "SEK",
      count: 1,
      unitAmount: 30000,
      packageAmount: 30000,
      discountAmount: 0,
      totalAmount: 30000,
      adress: "{}",
      checkoutId: null,
      subscriptionId: null,
      customerId: null,
      paidAt: createdAt,
      paidUntil,
      minimumUntil: null,
      endsAt: null,
      cancelledAt: null,
      createdAt,
      updatedAt: NOW,
    });
    const receipt = (id: string, number: number, orderId: string, paidAt: number) => ({
      id,
      number,
      orderId,
      userId: ANONYMOUS_USER_ID,
      paymentKey: `key-${id}`,
      items: "[]",
      period: "year",
      currency: "SEK",
      count: 1,
      packageAmount: 30000,
      discountAmount: 0,
      totalAmount: 30000,
      vatAmount: 6000,
      periodStart: paidAt,
      periodEnd: paidAt + 365 * DAY,
      paidAt,
    });
    await db
      .insertInto("orders")
      .values([
        // Paid in 2018 and over within it: the year ended more than 7 years before NOW (2026-11-23).
        order("bk-2018", Date.UTC(2018, 5, 1), newYear2019 - DAY),
        // Half an hour into 2019, Swedish time: its year ended less than 7 years ago.
        order("bk-2019", newYear2019 + 30 * 60_000, newYear2019 + 365 * DAY),
        // Renewing since 2018: its 2018 receipt goes, the order and the recent receipt stay.
        order("bk-running", Date.UTC(2018, 2, 1), NOW + 100 * DAY),
      ])
      .execute();
    await db
      .insertInto("receipts")
      .values([
        receipt("r-2018", 9001, "bk-2018", Date.UTC(2018, 5, 1)),
        receipt("r-2019", 9002, "bk-2019", newYear2019 + 30 * 60_000),
        receipt("r-run-2018", 9003, "bk-running", Date.UTC(2018, 2, 1)),
        receipt("r-run-2026", 9004, "bk-running", Date.UTC(2026, 2, 1)),
      ])
      .execute();
    const result = await runHousekeeping({ db, clock: () => NOW }, a.database.dialect);
    // Two receipts and one order.
    expect(result?.orders).toBe(3);
    const orders = (await db.selectFrom("orders").select("id").where("id", "like", "bk-%").orderBy("id").execute()).map(
      (r) => r.id,
    );
    expect(orders).toEqual(["bk-2019", "bk-running"]);
    const receipts = (
      await db.selectFrom("receipts").select("id").where("number", ">", 9000).orderBy("number").execute()
    ).map((r) => r.id);
    expect(receipts).toEqual(["r-2019", "r-run-2026"]);
  });
});
