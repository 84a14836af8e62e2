import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hitRateLimit, rateLimiter, resetRateLimit } from "../../app/server/rate-limit/rate-limit.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";

describe("database rate limiter", () => {
  let db: TestDatabase;
  let rt: Runtime;
  beforeAll(async () => {
    db = await createTestDatabase("ratelimit");
    rt = await createTestRuntime(testEnv(db));
  });
  afterAll(async () => {
    await rt.database.close();
    await db.drop();
  });

  const rule = { name: "test:ip", limit: 3, windowMs: 60_000 };

  it("allows `limit` hits per window, refuses the next, and starts a new window after it", async () => {
    const t0 = 1_700_000_000_000;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hitRateLimit(rt.database.db, rule, "1.2.3.4", t0 + i));
    expect(results.map((r) => r.ok)).toEqual([true, true, true, false]);
    expect(results[3]).toMatchObject({ count: 4, retryAfterMs: 60_000 - 3, retryAfterMinutes: 1 });
    // Another subject has its own counter; keys are case-insensitive.
    expect((await hitRateLimit(rt.database.db, rule, "5.6.7.8", t0)).ok).toBe(true);
    expect((await hitRateLimit(rt.database.db, { ...rule, name: "test:mail" }, "A@B.se", t0)).count).toBe(1);
    expect((await hitRateLimit(rt.database.db, { ...rule, name: "test:mail" }, "a@b.SE", t0)).count).toBe(2);
    // The window has passed: counting starts over.
    const later = await hitRateLimit(rt.database.db, rule, "1.2.3.4", t0 + 60_000);
    expect(later).toMatchObject({ ok: true, count: 1 });
  });

  it("counts concurrent hits exactly (one atomic upsert each)", async () => {
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => hitRateLimit(rt.database.db, { ...rule, limit: 10 }, "burst", now)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(Math.max(...results.map((r) => r.count))).toBe(20);
  });

  it("reset forgets a subject, and RATE_LIMIT_DISABLED allows everything without counting", async () => {
    for (let i = 0; i < 4; i++) await hitRateLimit(rt.database.db, rule, "reset-me");
    await resetRateLimit(rt.database.db, rule, "reset-me");
    expect((await hitRateLimit(rt.database.db, rule, "reset-me")).count).toBe(1);
    const off = rateLimiter({ rateLimitDisabled: true }, rt.database.db);
    for (let i = 0; i < 5; i++) expect((await off(rule, "off")).ok).toBe(true);
    const row = await rt.database.db
      .selectFrom("app_rate_limits")
      .selectAll()
      .where("key", "=", "test:ip:off")
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});
