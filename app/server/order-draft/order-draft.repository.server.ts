/** SQL for order_drafts: the per-user address and item kept for the /order page. */
import type { Selectable } from "kysely";
import type { DB } from "../db/db.server";
import type { OrderDraftTable } from "../db/schema";

export type OrderDraftRow = Selectable<OrderDraftTable>;

export function findOrderDraft(db: DB, userId: string): Promise<OrderDraftRow | undefined> {
  return db.selectFrom("order_drafts").selectAll().where("userId", "=", userId).executeTakeFirst();
}

/** Insert or update one column of the user's draft (both dialects support ON CONFLICT). */
export function upsertOrderDraft(db: DB, userId: string, changes: { adress?: string | null; buy?: string | null }) {
  const updatedAt = Date.now();
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
