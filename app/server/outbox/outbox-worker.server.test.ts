import { afterEach, describe, expect, it } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { enqueueSms } from "../mail/mail.server";
import { startOutboxWorker } from "./outbox-worker.server";

let deps: ServiceTestDeps | undefined;
afterEach(async () => {
  await deps?.close();
  deps = undefined;
});

describe("the outbox worker's deadline (decision 049)", () => {
  it("a send that never settles gives its slot back at the deadline, and the row waits for another try", async () => {
    deps = await createServiceDeps();
    const id = await enqueueSms(deps.db, { to: "+46700000009", text: "to a provider that never answers" });
    // A sender without a deadline of its own (every real sender has one): the worker's is the last resort.
    const worker = startOutboxWorker(
      deps.db,
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
