/**
 * The one rule for "has earned the lapsed relay" (decision 019, narrowed by decision 050):
 * an item that is not paid now still takes finders' messages, with their alerts, when a
 * payment for it was kept — a paid order never withdrawn, or a prepaid sticker pack it was
 * claimed from. The item's own payed/paidUntil cannot say it: a withdrawal and an invoice
 * never paid end the items exactly as a lapse does (payed 0, paidUntil the end).
 */
import type { DB } from "../db/db.server";

export async function hasEarnedLapsedRelay(db: DB, itemId: string): Promise<boolean> {
  // A withdrawal (decision 041) gives the money back and undoes the contract: it earns
  // nothing, even when the days used were kept. An invoice never paid has no paidAt.
  const kept = await db
    .selectFrom("order_items")
    .innerJoin("orders", "orders.id", "order_items.orderId")
    .select("order_items.productId")
    .where("order_items.productId", "=", itemId)
    .where("orders.paidAt", "is not", null)
    .where("orders.withdrawnAt", "is", null)
    .limit(1)
    .executeTakeFirst();
  if (kept) return true;
  // A pack sold prepaid (decision 036) is paid for outside Hittad and never refunded here.
  const prepaid = await db
    .selectFrom("stickers as s")
    .innerJoin("sticker_batches as b", "b.id", "s.batchId")
    .select("s.id")
    .where("s.productId", "=", itemId)
    .where("b.prepaidMonths", "is not", null)
    .limit(1)
    .executeTakeFirst();
  return prepaid !== undefined;
}
