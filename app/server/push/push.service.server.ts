/**
 * Web push on the owner's devices (issue #33 point 3, decision 034): subscribing a browser,
 * the device list, and notices queued for sending. A notice is one row per subscription
 * in push_outbox, written in the caller's request; the push worker (push-worker.server.ts)
 * sends it with push-sender.server.ts, retries with back-off, forgets subscriptions the
 * push service calls gone (404/410). No HTTP here (decision 011).
 */
import { createECDH, randomUUID } from "node:crypto";
import { getT } from "~/i18n/i18n";
import type { Lang } from "~/i18n/config";
import { deviceLabel, PUSH_DEVICES_MAX, type PushSubscriptionInput } from "~/lib/push";
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import { ServiceError } from "../service-error.server";
import { checkEndpoint, type EndpointProblem } from "./endpoint.server";
import { sendPushNotification, type PushOutcome, type PushPayload } from "./push-sender.server";
import * as repo from "./push.repository.server";

export type PushErrorCode = EndpointProblem | "tooMany" | "rateLimited" | "notFound";

/** `params.count`: devices allowed (tooMany), minutes to wait (rateLimited). */
export class PushError extends ServiceError<PushErrorCode> {}

/** Subscribes per user: a browser subscribes once; a stolen session must not fill the table. */
export const PUSH_SUBSCRIBE_RULE: RateRule = { name: "push:subscribe", limit: 20, windowMs: 60 * 60_000 };

/** A sending attempt holds its row this long; a crashed worker's row is taken again after it. */
const LOCK_MS = 60_000;
/** Notices go stale: about two minutes of retries, then they are dropped (mail and SMS still go). */
export const PUSH_MAX_ATTEMPTS = 6;

/** Delay before retry number `attempts`: 5 s, 10 s, 20 s, … at most 15 minutes. */
export function pushBackoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 15 * 60_000);
}

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
export async function exportDevices(db: Deps["db"], userId: string) {
  return (await repo.listSubscriptions(db, userId)).map((s) => ({
    label: s.label,
    pushService: new URL(s.endpoint).origin,
    createdAt: new Date(s.createdAt).toISOString(),
    lastSentAt: s.lastSentAt === null ? null : new Date(s.lastSentAt).toISOString(),
  }));
}

export async function eraseDevices(db: Deps["db"], userId: string): Promise<void> {
  await repo.deleteSubscriptionsOfUser(db, userId);
}

const wakers = new Set<() => void>();

/** The push worker of this process: woken when a notice is queued. */
export function onPushQueued(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/** Queues one notice for every device of the user, in the user's language. Returns how many. */
export async function queuePushToUser(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  build: (lang: Lang) => PushPayload,
): Promise<number> {
  const subs = await repo.listSubscriptions(deps.db, userId);
  if (subs.length === 0) return 0;
  const user = await deps.db.selectFrom("user").select("language").where("id", "=", userId).executeTakeFirst();
  const lang: Lang = user?.language === "sv" ? "sv" : "en";
  const payload = JSON.stringify(build(lang));
  await repo.enqueue(
    deps.db,
    subs.map((s) => ({ id: randomUUID(), subscriptionId: s.id, payload })),
    deps.clock(),
  );
  for (const wake of wakers) wake();
  return subs.length;
}

const ITEM_MAX = 60;
const EXCERPT_MAX = 120;

function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/** A finder's message (first or follow-up): names the item, quotes its start, opens the conversation. */
export function finderMessagePayload(
  base: URL,
  lang: Lang,
  notice: { itemName: string; conversationId: string; message: string; first: boolean },
): PushPayload {
  const t = getT(lang);
  return {
    title: t(notice.first ? "push.notice.finderMessage.title" : "push.notice.finderMessage.titleMore", {
      item: shorten(notice.itemName, ITEM_MAX),
    }),
    body: shorten(notice.message, EXCERPT_MAX),
    url: new URL(`/messages/${notice.conversationId}`, base).toString(),
    tag: `c-${notice.conversationId}`,
    lang,
  };
}

/** What one attempt did, for the caller's record and the worker's bookkeeping. */
export interface PushAttempt {
  outboxId: string;
  subscriptionId: string;
  outcome: PushOutcome;
}

/** Notices sent at once: a push service that hangs until the deadline holds up only its lane. */
const LANES = 8;

/**
 * Sends every notice that is due, each row claimed first (several workers and instances
 * never send a row twice), in a few lanes at once. Returns what each attempt did.
 */
export async function deliverDuePush(deps: Pick<Deps, "db" | "config" | "clock" | "push">): Promise<PushAttempt[]> {
  const attempts: PushAttempt[] = [];
  const lane = async () => {
    for (;;) {
      const attempt = await deliverOne(deps);
      if (attempt === undefined) return;
      if (attempt) attempts.push(attempt);
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return attempts;
}

/** One due notice: undefined when none is due, null when the row was unusable. */
async function deliverOne(
  deps: Pick<Deps, "db" | "config" | "clock" | "push">,
): Promise<PushAttempt | null | undefined> {
  const row = await repo.claimNext(deps.db, deps.clock(), LOCK_MS);
  if (!row) return undefined;
  let payload: PushPayload;
  try {
    payload = JSON.parse(row.payload) as PushPayload;
  } catch {
    await repo.deleteOutboxEntry(deps.db, row.id);
    return null;
  }
  const outcome = await sendPushNotification(deps, row.subscription, payload);
  const log = { pushId: row.id, subscriptionId: row.subscription.id, attempts: row.attempts };
  switch (outcome.result) {
    case "delivered":
      await repo.deleteOutboxEntry(deps.db, row.id);
      await repo.markSent(deps.db, row.subscription.id, deps.clock());
      break;
    case "gone":
      // The browser unsubscribed or the push service expired it: forget the device.
      logger.info({ ...log, status: outcome.status }, "push subscription gone; removed");
      await repo.deleteSubscription(deps.db, row.subscription.id);
      break;
    case "retry":
      if (row.attempts >= PUSH_MAX_ATTEMPTS) {
        logger.warn({ ...log, err: outcome.error }, "push failed for good");
        await repo.deleteOutboxEntry(deps.db, row.id);
      } else {
        logger.warn({ ...log, err: outcome.error }, "push delivery failed; will retry");
        const delay = Math.max(outcome.retryAfterMs ?? 0, pushBackoffMs(row.attempts));
        await repo.retryLater(deps.db, row.id, deps.clock() + delay, outcome.error);
      }
      break;
    case "failed":
      logger.warn({ ...log, err: outcome.error }, "push refused by the push service");
      await repo.deleteOutboxEntry(deps.db, row.id);
      break;
  }
  return { outboxId: row.id, subscriptionId: row.subscription.id, outcome };
}
