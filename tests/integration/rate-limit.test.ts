import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  deleteExpiredRateLimits,
  hitRateLimit,
  peekRateLimit,
  rateLimiter,
  resetRateLimit,
  undoRateLimitHit,
} from "../../app/server/rate-limit/rate-limit.server";
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

  it("counts concurrent hits exactly and stops counting at the first refusal (one atomic upsert each)", async () => {
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => hitRateLimit(rt.database.db, { ...rule, limit: 10 }, "burst", now)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(Math.max(...results.map((r) => r.count))).toBe(11);
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

  it("a refused hit is not counted: the counter stays at limit + 1 and the window does not move", async () => {
    const t0 = 1_800_000_000_000;
    for (let i = 0; i < 4; i++) await hitRateLimit(rt.database.db, rule, "hammer", t0);
    const before = await rt.database.db
      .selectFrom("app_rate_limits")
      .selectAll()
      .where("key", "=", "test:ip:hammer")
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 10; i++)
      expect((await hitRateLimit(rt.database.db, rule, "hammer", t0 + 10 + i)).ok).toBe(false);
    const after = await rt.database.db
      .selectFrom("app_rate_limits")
      .selectAll()
      .where("key", "=", "test:ip:hammer")
      .executeTakeFirstOrThrow();
    expect(Number(before.count)).toBe(4);
    expect(after).toEqual(before);
  });

  it("a given-back hit frees exactly one place, also after refusals, and only in the window that counted it", async () => {
    const t0 = 1_820_000_000_000;
    const hits = [];
    for (let i = 0; i < 3; i++) hits.push(await hitRateLimit(rt.database.db, rule, "undo", t0));
    expect((await hitRateLimit(rt.database.db, rule, "undo", t0)).ok).toBe(false);
    // Two allowed hits given back (concurrently): two places are free again, not more.
    await Promise.all([
      undoRateLimitHit(rt.database.db, rule, "undo", hits[0]!),
      undoRateLimitHit(rt.database.db, rule, "undo", hits[1]!),
    ]);
    const again = await Promise.all(
      Array.from({ length: 5 }, () => hitRateLimit(rt.database.db, rule, "undo", t0 + 1)),
    );
    expect(again.filter((r) => r.ok)).toHaveLength(2);
    // A refused hit gives nothing back; a hit of an earlier window does not touch the new one.
    await undoRateLimitHit(
      rt.database.db,
      rule,
      "undo",
      again.find((r) => !r.ok)!,
    );
    expect((await hitRateLimit(rt.database.db, rule, "undo", t0 + 2)).ok).toBe(false);
    const fresh = await hitRateLimit(rt.database.db, rule, "undo", t0 + 60_000);
    await undoRateLimitHit(rt.database.db, rule, "undo", hits[2]!);
    expect((await hitRateLimit(rt.database.db, rule, "undo", t0 + 60_001)).count).toBe(fresh.count + 1);
  });

  it("peek tells whether the next hit would pass without counting", async () => {
    const t0 = 1_810_000_000_000;
    expect((await peekRateLimit(rt.database.db, rule, "peek", t0)).ok).toBe(true);
    for (let i = 0; i < 3; i++) await hitRateLimit(rt.database.db, rule, "peek", t0);
    const p = await peekRateLimit(rt.database.db, rule, "peek", t0 + 1);
    expect(p).toMatchObject({ ok: false, count: 3 });
    expect((await peekRateLimit(rt.database.db, rule, "peek", t0 + 60_000)).ok).toBe(true);
  });

  it("deleteExpiredRateLimits removes only counters whose window is long over (for the purge job)", async () => {
    const now = 1_900_000_000_000;
    await hitRateLimit(rt.database.db, rule, "old", now - 2 * 24 * 60 * 60_000);
    await hitRateLimit(rt.database.db, rule, "fresh", now - 60_000);
    expect(await deleteExpiredRateLimits(rt.database.db, now)).toBeGreaterThanOrEqual(1);
    const keys = (await rt.database.db.selectFrom("app_rate_limits").select("key").execute()).map((r) => r.key);
    expect(keys).not.toContain("test:ip:old");
    expect(keys).toContain("test:ip:fresh");
  });
});
