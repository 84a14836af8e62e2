/**
 * SQL for web push (issue #33, decision 034): the shared VAPID key pair, the browsers that
 * subscribed, and the notifications waiting to be sent.
 */
import { sql } from "kysely";
import type { DB } from "../db/db.server";

export interface StoredSubscription {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  label: string;
  createdAt: number;
  lastSentAt: number | null;
}

/** Stores a key under `name` unless one is there; answers the stored value (first writer wins). */
export async function insertServerKeyIfAbsent(db: DB, name: string, value: string, now: number): Promise<string> {
  await db
    .insertInto("server_keys")
    .values({ name, value, createdAt: now })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("server_keys").select("value").where("name", "=", name).executeTakeFirstOrThrow();
  return row.value;
}

export async function findServerKey(db: DB, name: string): Promise<string | undefined> {
  const row = await db.selectFrom("server_keys").select("value").where("name", "=", name).executeTakeFirst();
  return row?.value;
}

/**
 * Holds the user's row lock until the transaction ends (PostgreSQL; SQLite transactions
 * are serialised anyway), so concurrent subscribes of one user count one after another.
 */
export async function lockUser(trx: DB, userId: string): Promise<boolean> {
  const res = await trx
    .updateTable("user")
    .set({ updatedAt: sql`"updatedAt"` })
    .where("id", "=", userId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function findSubscriptionByEndpoint(db: DB, endpoint: string) {
  return db.selectFrom("push_subscriptions").selectAll().where("endpoint", "=", endpoint).executeTakeFirst();
}

export async function countSubscriptions(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom("push_subscriptions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("userId", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts the browser's subscription, or gives an existing one (same endpoint) to this user with the new keys. */
export async function upsertSubscription(db: DB, s: Omit<StoredSubscription, "lastSentAt">): Promise<void> {
  await db
    .insertInto("push_subscriptions")
    .values({ ...s, lastSentAt: null })
    .onConflict((oc) =>
      oc.column("endpoint").doUpdateSet({ userId: s.userId, p256dh: s.p256dh, auth: s.auth, label: s.label }),
    )
    .execute();
}

export async function listSubscriptions(db: DB, userId: string): Promise<StoredSubscription[]> {
  const rows = await db
    .selectFrom("push_subscriptions")
    .selectAll()
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    ...r,
    createdAt: Number(r.createdAt),
    lastSentAt: r.lastSentAt === null ? null : Number(r.lastSentAt),
  }));
}

export async function deleteSubscriptionOfUser(db: DB, userId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom("push_subscriptions")
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function deleteSubscriptionByEndpoint(db: DB, userId: string, endpoint: string): Promise<boolean> {
  const res = await db
    .deleteFrom("push_subscriptions")
    .where("endpoint", "=", endpoint)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The push service said the subscription is gone (404/410): forgotten, queued notices with it. */
export async function deleteSubscription(db: DB, id: string): Promise<void> {
  await db.deleteFrom("push_subscriptions").where("id", "=", id).execute();
}

export async function deleteSubscriptionsOfUser(db: DB, userId: string): Promise<void> {
  await db.deleteFrom("push_subscriptions").where("userId", "=", userId).execute();
}

export async function markSent(db: DB, subscriptionId: string, now: number): Promise<void> {
  await db.updateTable("push_subscriptions").set({ lastSentAt: now }).where("id", "=", subscriptionId).execute();
}

export interface OutboxEntry {
  id: string;
  subscriptionId: string;
  payload: string;
}

export async function enqueue(db: DB, entries: OutboxEntry[], now: number): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto("push_outbox")
    .values(
      entries.map((e) => ({
        ...e,
        status: "pending",
        attempts: 0,
        nextAttemptAt: now,
        lockedUntil: null,
        lastError: null,
        createdAt: now,
      })),
    )
    .execute();
}

export interface ClaimedPush {
  id: string;
  attempts: number;
  payload: string;
  subscription: StoredSubscription;
}

/**
 * Claims one due notification for this worker (a conditional update: with several
 * instances, each row is taken by one), or undefined when none is due.
 */
export async function claimNext(db: DB, now: number, lockMs: number): Promise<ClaimedPush | undefined> {
  const due = await db
    .selectFrom("push_outbox")
    .select(["id", "attempts"])
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("nextAttemptAt", "<=", now)]),
        eb.and([eb("status", "=", "sending"), eb("lockedUntil", "<", now)]),
      ]),
    )
    .orderBy("nextAttemptAt")
    .limit(5)
    .execute();
  for (const candidate of due) {
    const res = await db
      .updateTable("push_outbox")
      .set({ status: "sending", lockedUntil: now + lockMs, attempts: candidate.attempts + 1 })
      .where("id", "=", candidate.id)
      .where("attempts", "=", candidate.attempts)
      .where((eb) =>
        eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "sending"), eb("lockedUntil", "<", now)])]),
      )
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) continue;
    const row = await db
      .selectFrom("push_outbox")
      .innerJoin("push_subscriptions", "push_subscriptions.id", "push_outbox.subscriptionId")
      .select([
        "push_outbox.id",
        "push_outbox.attempts",
        "push_outbox.payload",
        "push_subscriptions.id as subId",
        "push_subscriptions.userId",
        "push_subscriptions.endpoint",
        "push_subscriptions.p256dh",
        "push_subscriptions.auth",
        "push_subscriptions.label",
        "push_subscriptions.createdAt",
        "push_subscriptions.lastSentAt",
      ])
      .where("push_outbox.id", "=", candidate.id)
      .executeTakeFirst();
    // The subscription was removed meanwhile (its rows went with it).
    if (!row) continue;
    return {
      id: row.id,
      attempts: Number(row.attempts),
      payload: row.payload,
      subscription: {
        id: row.subId,
        userId: row.userId,
        endpoint: row.endpoint,
        p256dh: row.p256dh,
        auth: row.auth,
        label: row.label,
        createdAt: Number(row.createdAt),
        lastSentAt: row.lastSentAt === null ? null : Number(row.lastSentAt),
      },
    };
  }
  return undefined;
}

export async function deleteOutboxEntry(db: DB, id: string): Promise<void> {
  await db.deleteFrom("push_outbox").where("id", "=", id).execute();
}

export async function retryLater(db: DB, id: string, nextAttemptAt: number, error: string): Promise<void> {
  await db
    .updateTable("push_outbox")
    .set({ status: "pending", nextAttemptAt, lockedUntil: null, lastError: error.slice(0, 500) })
    .where("id", "=", id)
    .execute();
}

export async function countPending(db: DB): Promise<number> {
  const row = await db
    .selectFrom("push_outbox")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
