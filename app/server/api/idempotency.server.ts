/**
 * `Idempotency-Key` on the API's POSTs (decision 054). The first request with a key claims
 * it by inserting its row (the primary key decides between instances on one PostgreSQL),
 * does the work and keeps its answer; a retry with the same key and body within 24 hours
 * gets that answer again and does nothing; one with another body is 422
 * (idempotency.mismatch); one that comes while the first is still working is 409
 * (idempotency.inProgress, Retry-After: 1), never a second effect. A request that fails
 * unexpectedly (a 500) or is told to wait (429) lets the key go, so its retry tries afresh. The housekeeping job
 * deletes rows older than 24 hours.
 */
import { createHash } from "node:crypto";
import { RETENTION_MS } from "~/lib/domain/retention";
import type { Deps } from "../service-deps.server";
import { ApiError } from "./api-error.server";
import * as repo from "./api.repository.server";

export const IDEMPOTENCY_TTL_MS = RETENTION_MS.apiIdempotency;
/** What a client may send as a key: printable ASCII, up to 255 characters (UUIDs and the like). */
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function requestHashOf(method: string, path: string, body: string): string {
  return createHash("sha256").update(`${method} ${path}\n${body}`, "utf8").digest("hex");
}

/** The answer of `work`, done at most once per API key, Idempotency-Key and body. */
export async function withIdempotency(
  deps: Pick<Deps, "db" | "clock">,
  request: { keyId: string; idempotencyKey: string; requestHash: string },
  work: () => Promise<Answer>,
): Promise<Answer & { replayed: boolean }> {
  const { keyId, idempotencyKey, requestHash } = request;
  if (!KEY_SHAPE.test(idempotencyKey)) throw new ApiError("idempotency.invalid");
  const now = deps.clock();
  const claimed = await repo.claimIdempotencyKey(
    deps.db,
    { keyId, idempotencyKey, requestHash, createdAt: now },
    now - IDEMPOTENCY_TTL_MS,
  );
  if (!claimed) {
    const seen = await repo.findIdempotencyKey(deps.db, keyId, idempotencyKey);
    // Gone between the two statements (its first request failed): the client may retry.
    if (!seen) throw new ApiError("idempotency.inProgress", { count: 1 });
    if (seen.requestHash !== requestHash) throw new ApiError("idempotency.mismatch");
    if (seen.status === null || seen.body === null) throw new ApiError("idempotency.inProgress", { count: 1 });
    return { status: seen.status, body: JSON.parse(seen.body) as unknown, replayed: true };
  }
  let answer: Answer;
  try {
    answer = await work();
  } catch (err) {
    await repo.releaseIdempotencyKey(deps.db, keyId, idempotencyKey);
    throw err;
  }
  // A refusal to wait out (429) is no answer to keep: the retry after it does the work.
  if (answer.status === 429) {
    await repo.releaseIdempotencyKey(deps.db, keyId, idempotencyKey);
    return { ...answer, replayed: false };
  }
  await repo.storeIdempotentAnswer(deps.db, keyId, idempotencyKey, {
    status: answer.status,
    body: JSON.stringify(answer.body),
  });
  return { ...answer, replayed: false };
}

/** Keys older than 24 hours (the housekeeping job). */
export function deleteExpiredIdempotencyKeys(db: Deps["db"], now: number): Promise<number> {
  return repo.deleteIdempotencyKeysBefore(db, now - IDEMPOTENCY_TTL_MS);
}
