/**
 * Web push on the owner's devices (decisions 034 and 040): subscribing a
 * browser and the device list. Notices are queued by the alert fan-out in the one outbox
 * and sent by push-channel.server.ts. No HTTP here (decision 011).
 */
import { createECDH, randomUUID } from "node:crypto";
import { deviceLabel, PUSH_DEVICES_MAX, type PushSubscriptionInput } from "~/lib/domain/push";
import type { Deps } from "../service-deps.server";
import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import { ServiceError } from "../service-error.server";
import { checkEndpoint, type EndpointProblem } from "./endpoint.server";
import * as repo from "./push.repository.server";

export type PushErrorCode = EndpointProblem | "tooMany" | "rateLimited" | "notFound";

/** `params.count`: devices allowed (tooMany), minutes to wait (rateLimited). */
export class PushError extends ServiceError<PushErrorCode> {}

/** Subscribes per user: a browser subscribes once; a stolen session must not fill the table. */
export const PUSH_SUBSCRIBE_RULE: RateRule = { name: "push:subscribe", limit: 20, windowMs: 60 * 60_000 };

/** Whether a base64url P-256 public key is a point on the curve (else no notice can be encrypted for it). */
function isP256Point(p256dh: string): boolean {
  const bytes = Buffer.from(p256dh, "base64url");
  if (bytes.length !== 65 || bytes[0] !== 4) return false;
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    ecdh.computeSecret(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stores the browser's subscription for the user. The endpoint must be https and public
 * (endpoint.server.ts); at most PUSH_DEVICES_MAX per account, counted under the user's
 * row lock so concurrent subscribes cannot pass it. The same browser again updates its row.
 */
export async function subscribeDevice(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  input: PushSubscriptionInput,
  meta: { userAgent: string | null },
): Promise<void> {
  const now = deps.clock();
  const hit = await rateLimiter(deps.config, deps.db)(PUSH_SUBSCRIBE_RULE, userId, now);
  if (!hit.ok) throw new PushError("rateLimited", { count: hit.retryAfterMinutes });
  const problem = await checkEndpoint(input.endpoint, deps.config.push.allowHosts);
  if (problem) throw new PushError(problem);
  if (!isP256Point(input.keys.p256dh) || Buffer.from(input.keys.auth, "base64url").length !== 16) {
    throw new PushError("invalid");
  }
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.lockUser(trx, userId))) throw new PushError("notFound");
    const existing = await repo.findSubscriptionByEndpoint(trx, input.endpoint);
    if (existing?.userId !== userId && (await repo.countSubscriptions(trx, userId)) >= PUSH_DEVICES_MAX) {
      throw new PushError("tooMany", { count: PUSH_DEVICES_MAX });
    }
    await repo.upsertSubscription(trx, {
      id: existing?.id ?? randomUUID(),
      userId,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      label: deviceLabel(meta.userAgent),
      createdAt: now,
    });
  });
}

/** The browser stops (DELETE with its endpoint): only the user's own row. Answers whether one was removed. */
export async function unsubscribeDevice(deps: Pick<Deps, "db">, userId: string, endpoint: string): Promise<boolean> {
  return repo.deleteSubscriptionByEndpoint(deps.db, userId, endpoint);
}

/** "Remove" in the device list. PushError notFound when it is not the user's. */
export async function removeDevice(deps: Pick<Deps, "db">, userId: string, id: string): Promise<void> {
  if (!(await repo.deleteSubscriptionOfUser(deps.db, userId, id))) throw new PushError("notFound");
}

export interface DeviceView {
  id: string;
  label: string;
  createdAt: number;
  lastSentAt: number | null;
}

export async function listDevices(deps: Pick<Deps, "db">, userId: string): Promise<DeviceView[]> {
  return (await repo.listSubscriptions(deps.db, userId)).map((s) => ({
    id: s.id,
    label: s.label,
    createdAt: s.createdAt,
    lastSentAt: s.lastSentAt,
  }));
}

/** For the data export: what the user's devices are, without the push services' secrets. */
export async function exportDevices(deps: Pick<Deps, "db">, userId: string) {
  const { db } = deps;
  return (await repo.listSubscriptions(db, userId)).map((s) => ({
    label: s.label,
    pushService: new URL(s.endpoint).origin,
    createdAt: new Date(s.createdAt).toISOString(),
    lastSentAt: s.lastSentAt === null ? null : new Date(s.lastSentAt).toISOString(),
  }));
}

export async function eraseDevices(deps: Pick<Deps, "db">, userId: string): Promise<void> {
  const { db } = deps;
  await repo.deleteSubscriptionsOfUser(db, userId);
}
