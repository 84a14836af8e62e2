/**
 * The event bus (decision 053): a handler runs inside the announcement, on the announcer's
 * database handle, so what it writes in the announcer's transaction commits or rolls back
 * with it; a handler that throws fails the announcement; the mails the handlers queue are
 * summed for the announcer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../tests/support/service-db";
import { DomainEventBus } from "./event-bus.server";

let deps: ServiceTestDeps;
beforeAll(async () => {
  deps = await createServiceDeps();
});
afterAll(() => deps.close());

const ENDED = { userId: "u1", organisationId: "o1" };

/** A bus whose one `membershipEnded` handler writes a rate-limit row as the announcer's database sees it. */
function writingBus(key: string, fail = false) {
  const bus = new DomainEventBus(() => deps);
  bus.on("membershipEnded", async (_e, d) => {
    await d.db.insertInto("app_rate_limits").values({ key, windowStart: d.clock(), count: 1 }).execute();
    if (fail) throw new Error("handler failed");
    return { mails: 2 };
  });
  return bus;
}

const written = async (key: string) =>
  (await deps.db.selectFrom("app_rate_limits").select("key").where("key", "=", key).execute()).length;

describe("the event bus", () => {
  it("runs the handler in the announcer's transaction: a rollback undoes what it wrote", async () => {
    const bus = writingBus("bus:rolled-back");
    await expect(
      deps.db.transaction().execute(async (trx) => {
        await bus.emit("membershipEnded", ENDED, { ...deps, db: trx });
        throw new Error("the announcer fails after announcing");
      }),
    ).rejects.toThrow("the announcer fails");
    expect(await written("bus:rolled-back")).toBe(0);
  });

  it("commits what the handler wrote with the announcer's transaction and sums the mails", async () => {
    const bus = writingBus("bus:committed");
    bus.on("membershipEnded", () => Promise.resolve({ mails: 1 }));
    const report = await deps.db
      .transaction()
      .execute((trx) => bus.emit("membershipEnded", ENDED, { ...deps, db: trx }));
    expect(report).toEqual({ mails: 3 });
    expect(await written("bus:committed")).toBe(1);
  });

  it("fails the announcement when a handler throws", async () => {
    await expect(writingBus("bus:failing", true).emit("membershipEnded", ENDED, deps)).rejects.toThrow(
      "handler failed",
    );
  });

  it("answers no mails when nobody listens", async () => {
    expect(await new DomainEventBus(() => deps).emit("itemScanned", scanned(), deps)).toEqual({ mails: 0 });
  });
});

function scanned() {
  return { itemId: "x", itemName: "x", lost: false, at: 0, scanLang: "en" as const, device: "phone" as const, now: 0 };
}
