import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerIdentities } from "../../app/server/auth/accounts.repository.server";
import { hitRateLimit } from "../../app/server/rate-limit/rate-limit.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { createUser } from "../support/users";

describe("account storage", () => {
  let db: TestDatabase;
  let rt: Runtime;
  beforeAll(async () => {
    db = await createTestDatabase("accrepo");
    rt = await createTestRuntime(testEnv(db));
  });
  afterAll(async () => {
    await rt.database.close();
    await db.drop();
  });

  it("a rate limit refuses the attempt over the limit and starts a new window when the old one is over", async () => {
    const rule = { name: "test", limit: 2, windowMs: 60_000 };
    const t0 = 1_000_000;
    expect((await hitRateLimit(rt.database.db, rule, "A@x.test", t0)).ok).toBe(true);
    expect((await hitRateLimit(rt.database.db, rule, "a@x.test", t0 + 1)).ok).toBe(true);
    const third = await hitRateLimit(rt.database.db, rule, "a@x.test", t0 + 2);
    expect(third).toMatchObject({ ok: false, retryAfterMinutes: 1 });
    // Another subject has its own counter.
    expect((await hitRateLimit(rt.database.db, rule, "b@x.test", t0 + 3)).ok).toBe(true);
    expect((await hitRateLimit(rt.database.db, rule, "a@x.test", t0 + 60_000)).ok).toBe(true);
  });

  it("concurrent attempts are all counted (one atomic upsert each)", async () => {
    const rule = { name: "burst", limit: 5, windowMs: 60_000 };
    const results = await Promise.all(
      Array.from({ length: 12 }, () => hitRateLimit(rt.database.db, rule, "burst", 5_000_000)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
  });

  it("the spec's per-provider id and email come from the linked accounts", async () => {
    const u = await createUser(rt);
    expect(await providerIdentities(rt.database.db, u.id)).toEqual({});
    const now = new Date().toISOString();
    await rt.database.db
      .insertInto("account")
      .values({
        id: "acc-g-1",
        accountId: "google-sub-1",
        providerId: "google",
        userId: u.id,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    expect(await providerIdentities(rt.database.db, u.id)).toEqual({
      googleId: "google-sub-1",
      googleEmail: u.email,
    });
  });
});
