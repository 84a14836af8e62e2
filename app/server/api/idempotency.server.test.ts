/**
 * Idempotency-Key (decision 054): the first request with a key does the work and keeps its
 * answer; a retry with the same body gets it again without a second effect, one with
 * another body is idempotency.mismatch, one arriving while the first still works is
 * idempotency.inProgress; a failure lets the key go; a day later the key is free again and
 * housekeeping deletes it. Concurrent requests are decided by the row's primary key, so
 * instances sharing one PostgreSQL agree (SERVICE_TESTS_ON_POSTGRES=1 runs it there).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { ApiError } from "./api-error.server";
import {
  deleteExpiredIdempotencyKeys,
  IDEMPOTENCY_TTL_MS,
  requestHashOf,
  withIdempotency,
  type Answer,
} from "./idempotency.server";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

let deps: ServiceTestDeps;
beforeAll(async () => {
  deps = await createServiceDeps();
});
afterAll(async () => {
  await deps?.close();
});

let seq = 0;
const request = (body: string, key = `idem-${++seq}`) => ({
  keyId: "key-1",
  idempotencyKey: key,
  requestHash: requestHashOf("POST", "/api/v1/items", body),
});
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof ApiError ? e.code : Promise.reject(e)),
  );

describe("an Idempotency-Key", () => {
  it("does the work once and gives the same answer to a retry with the same body", async () => {
    let runs = 0;
    const work = async (): Promise<Answer> => ({ status: 201, body: { id: `item-${++runs}` } });
    const req = request('{"name":"A"}');
    const first = await withIdempotency(deps, req, work);
    const second = await withIdempotency(deps, req, work);
    expect(first).toEqual({ status: 201, body: { id: "item-1" }, replayed: false });
    expect(second).toEqual({ status: 201, body: { id: "item-1" }, replayed: true });
    expect(runs).toBe(1);
  });

  it("refuses the same key with another body (422 idempotency.mismatch)", async () => {
    const work = async (): Promise<Answer> => ({ status: 201, body: {} });
    const a = request('{"name":"A"}');
    await withIdempotency(deps, a, work);
    expect(await codeOf(withIdempotency(deps, { ...a, requestHash: request('{"name":"B"}').requestHash }, work))).toBe(
      "idempotency.mismatch",
    );
  });

  it("of concurrent requests with one key, does the work exactly once; the others get 409 or, once it is done, its answer", async () => {
    let runs = 0;
    const work = async (): Promise<Answer> => {
      runs++;
      await new Promise((r) => setTimeout(r, 200));
      return { status: 201, body: { id: "once" } };
    };
    const req = request('{"name":"C"}');
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => withIdempotency(deps, req, work)));
    expect(runs).toBe(1);
    // A request that came while the work ran is told to retry (409); one that came after it
    // (a loaded machine) gets the same answer again. Never a second effect.
    for (const r of results.filter((r) => r.status === "fulfilled")) {
      expect((r as PromiseFulfilledResult<unknown>).value).toMatchObject({ body: { id: "once" } });
    }
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "idempotency.inProgress" });
    }
    expect(await withIdempotency(deps, req, work)).toMatchObject({ body: { id: "once" }, replayed: true });
    expect(runs).toBe(1);
  });

  it("is let go when the work fails or is told to wait, so the retry does it", async () => {
    const req = request('{"name":"D"}');
    await expect(withIdempotency(deps, req, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await withIdempotency(deps, req, async () => ({ status: 429, body: {} }))).toMatchObject({ status: 429 });
    expect(await withIdempotency(deps, req, async () => ({ status: 201, body: { ok: 1 } }))).toMatchObject({
      replayed: false,
    });
  });

  it("is free again after a day, and housekeeping deletes it then", async () => {
    const req = request('{"name":"E"}');
    await withIdempotency(deps, req, async () => ({ status: 201, body: { n: 1 } }));
    const start = deps.clock();
    deps.setNow(start + IDEMPOTENCY_TTL_MS + 1);
    expect(
      await withIdempotency(deps, { ...req, requestHash: "other" }, async () => ({ status: 201, body: { n: 2 } })),
    ).toMatchObject({
      body: { n: 2 },
      replayed: false,
    });
    deps.setNow(start + 2 * IDEMPOTENCY_TTL_MS + 2);
    expect(await deleteExpiredIdempotencyKeys(deps.db, deps.clock())).toBeGreaterThan(0);
    const left = await deps.db.selectFrom("api_idempotency").select("idempotencyKey").execute();
    expect(left).toEqual([]);
    deps.setNow(start);
  });

  it("refuses a key that is not 1 to 255 printable characters", async () => {
    const work = async (): Promise<Answer> => ({ status: 201, body: {} });
    expect(await codeOf(withIdempotency(deps, request("{}", ""), work))).toBe("idempotency.invalid");
    expect(await codeOf(withIdempotency(deps, request("{}", "a b"), work))).toBe("idempotency.invalid");
    expect(await codeOf(withIdempotency(deps, request("{}", "x".repeat(256)), work))).toBe("idempotency.invalid");
  });
});
