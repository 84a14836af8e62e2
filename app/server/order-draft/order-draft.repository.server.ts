/** SQL for order_drafts: the per-user address and item kept for the /order page. */
import type { DB } from "../db/db.server";

export async function findOrderDraft(
  db: DB,
  userId: string,
): Promise<{ adress: string | null; buy: string | null } | undefined> {
  return db.selectFrom("order_drafts").select(["adress", "buy"]).where("userId", "=", userId).executeTakeFirst();
}

/** Insert or update one column of the user's draft (both dialects support ON CONFLICT). */
export function upsertOrderDraft(
  db: DB,
  userId: string,
  changes: { adress?: string | null; buy?: string | null },
  updatedAt: number,
) {
  return db
    .insertInto("order_drafts")
    .values({ userId, adress: null, buy: null, ...changes, updatedAt })
    .onConflict((oc) => oc.column("userId").doUpdateSet({ ...changes, updatedAt }))
    .execute();
}

export function findUserAdress(db: DB, userId: string): Promise<string | null> {
  return db
    .selectFrom("user")
    .select("adress")
    .where("id", "=", userId)
    .executeTakeFirst()
    .then((r) => r?.adress ?? null);
}

export function updateUserAdress(db: DB, userId: string, adress: string) {
  return db.updateTable("user").set({ adress }).where("id", "=", userId).execute();
}

export function findUserEmail(db: DB, userId: string): Promise<string | null> {
  return db
    .selectFrom("user")
    .select("email")
    .where("id", "=", userId)
    .executeTakeFirst()
    .then((r) => r?.email ?? null);
}
