/**
 * SQL for web push (decisions 034 and 040): the shared VAPID key pair and the
 * browsers that subscribed. Notifications wait in the one outbox (mail/mail.server.ts).
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

export async function findSubscription(db: DB, id: string): Promise<StoredSubscription | undefined> {
  const r = await db.selectFrom("push_subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
  return r && { ...r, createdAt: Number(r.createdAt), lastSentAt: r.lastSentAt === null ? null : Number(r.lastSentAt) };
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

/** The push service said the subscription is gone (404/410): forgotten. */
export async function deleteSubscription(db: DB, id: string): Promise<void> {
  await db.deleteFrom("push_subscriptions").where("id", "=", id).execute();
}

export async function deleteSubscriptionsOfUser(db: DB, userId: string): Promise<void> {
  await db.deleteFrom("push_subscriptions").where("userId", "=", userId).execute();
}

export async function markSent(db: DB, subscriptionId: string, now: number): Promise<void> {
  await db.updateTable("push_subscriptions").set({ lastSentAt: now }).where("id", "=", subscriptionId).execute();
}
