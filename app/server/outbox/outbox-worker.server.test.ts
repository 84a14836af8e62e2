import { afterEach, describe, expect, it } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { enqueueSms } from "../mail/mail.server";
import { backoffMs, startOutboxWorker, withoutAddresses } from "./outbox-worker.server";
import { targetBackoffMs } from "./lanes.server";
import { findDueRows, withClaim } from "./outbox.repository.server";

let deps: ServiceTestDeps | undefined;
afterEach(async () => {
  await deps?.close();
  deps = undefined;
});

describe("back-off", () => {
  it("a row backs off exponentially from 5 seconds to at most an hour", () => {
    expect(backoffMs(1)).toBe(5_000);
    expect(backoffMs(2)).toBe(10_000);
    expect(backoffMs(4)).toBe(40_000);
    expect(backoffMs(30)).toBe(3_600_000);
  });
  it("a silent target pauses 30 seconds, doubling with each strike in a row, at most an hour (decision 049)", () => {
    expect([1, 2, 3, 8, 30].map(targetBackoffMs)).toEqual([30_000, 60_000, 120_000, 3_600_000, 3_600_000]);
  });
});

describe("mail log lines carry no recipient addresses", () => {
  it("replaces addresses in SMTP error messages", () => {
    expect(withoutAddresses("550 5.1.1 <anna@example.test>: Recipient address rejected")).toBe(
      "550 5.1.1 <[address]>: Recipient address rejected",
    );
    expect(withoutAddresses("Invalid recipient x.y+z@sub.example.se, retry")).toBe(
      "Invalid recipient [address], retry",
    );
  });
});

describe("the outbox worker's deadline (decision 049)", () => {
  it("a send that never settles gives its slot back at the deadline, and the row waits for another try", async () => {
    deps = await createServiceDeps();
    const id = await enqueueSms(
      deps.db,
      { to: "+46700000009", text: "to a provider that never answers" },
      deps.clock(),
    );
    // A sender without a deadline of its own (every real sender has one): the worker's is the last resort.
    const worker = startOutboxWorker(
      deps,
      { sms: { send: () => new Promise(() => {}) } },
      {
        pollMs: 60_000,
        deadlineMs: 100,
      },
    );
    const started = Date.now();
    await worker.drain();
    expect(Date.now() - started).toBeLessThan(5_000);
    const row = await deps.db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "no answer within 100 ms" });
    await worker.stop();
  });
});

describe("a claim whose lease ended", () => {
  it("a row claimed by an instance that died is sent again once its lease ends, with the rows waiting; a running lease is left alone", async () => {
    deps = await createServiceDeps();
    const now = deps.clock();
    const waiting = await enqueueSms(deps.db, { to: "+46700000001", text: "waiting" }, now - 5_000);
    const ended = await enqueueSms(deps.db, { to: "+46700000002", text: "lease ended" }, now - 1_000);
    const running = await enqueueSms(deps.db, { to: "+46700000003", text: "lease running" }, now - 9_000);
    const claimed = (id: string, lockedUntil: number) =>
      deps!.db
        .updateTable("mail_outbox")
        .set({ status: "sending", lockedUntil, attempts: 1 })
        .where("id", "=", id)
        .execute();
    await claimed(ended, now - 1);
    await claimed(running, now + 60_000);
    const sent: string[] = [];
    const worker = startOutboxWorker(
      deps,
      {
        sms: {
          send: (row) => {
            sent.push(row.id);
            return Promise.resolve({ providerId: null });
          },
        },
      },
      { pollMs: 60_000 },
    );
    await worker.drain();
    await worker.stop();
    expect(sent.toSorted()).toEqual([ended, waiting].toSorted());
    const status = async (id: string) =>
      await deps!.db
        .selectFrom("mail_outbox")
        .select(["status", "attempts"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    expect(await status(ended)).toEqual({ status: "sent", attempts: 2 });
    expect(await status(running)).toMatchObject({ status: "sending" });
  });

  it("a claim reads the ended leases first, then the oldest waiting rows, and never more than its limit", async () => {
    deps = await createServiceDeps();
    const now = deps.clock();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push(await enqueueSms(deps.db, { to: `+4670000001${i}`, text: `row ${i}` }, now - 10_000 + i * 1_000));
    // The newest row's claim ended: it comes first, then the oldest waiting row.
    await deps.db
      .updateTable("mail_outbox")
      .set({ status: "sending", lockedUntil: now - 1, attempts: 1 })
      .where("id", "=", ids[3]!)
      .execute();
    const opts = { exceptTargets: [], exceptAccounts: [] };
    const due = await withClaim(deps.db, (tx) => findDueRows(tx, "sms", now, { ...opts, limit: 2 }));
    expect(due.map((r) => r.id)).toEqual([ids[3], ids[0]]);
    const one = await withClaim(deps.db, (tx) => findDueRows(tx, "sms", now, { ...opts, limit: 1 }));
    expect(one.map((r) => r.id)).toEqual([ids[3]]);
    const all = await withClaim(deps.db, (tx) => findDueRows(tx, "sms", now, { ...opts, limit: 10 }));
    expect(all.map((r) => r.id)).toEqual([ids[3], ids[0], ids[1], ids[2]]);
  });
});
