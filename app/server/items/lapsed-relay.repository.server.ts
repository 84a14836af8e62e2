/**
 * The one rule for "has earned the lapsed relay" (decision 019, narrowed by decision 050):
 * an item that is not paid now still takes finders' messages, with their alerts, when a
 * payment for it was kept — a paid order never withdrawn, or a prepaid sticker pack it was
 * claimed from. The item's own payed/paidUntil cannot say it: a withdrawal and an invoice
 * never paid end the items exactly as a lapse does (payed 0, paidUntil the end).
 */
import { expressionBuilder, type Expression, type ExpressionWrapper, type SqlBool } from "kysely";
import type { DB } from "../db/db.server";
import type { Database } from "../db/schema";

/**
 * The rule as an SQL condition on an item id (a value, or a column of a larger read such as
 * the finder page's, finder-page.repository.server.ts).
 */
export function earnedLapsedRelay(itemId: Expression<string>): ExpressionWrapper<Database, never, SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.or([
    // A withdrawal (decision 041) gives the money back and undoes the contract: it earns
    // nothing, even when the days used were kept. An invoice never paid has no paidAt.
    eb.exists(
      eb
        .selectFrom("order_items")
        .innerJoin("orders", "orders.id", "order_items.orderId")
        .select("order_items.productId")
        .where("order_items.productId", "=", itemId)
        .where("orders.paidAt", "is not", null)
        .where("orders.withdrawnAt", "is", null),
    ),
    // A pack sold prepaid (decision 036) is paid for outside Hittad and never refunded here.
    eb.exists(
      eb
        .selectFrom("stickers as s")
        .innerJoin("sticker_batches as b", "b.id", "s.batchId")
        .select("s.id")
        .where("s.productId", "=", itemId)
        .where("b.prepaidMonths", "is not", null),
    ),
  ]);
}

export async function hasEarnedLapsedRelay(db: DB, itemId: string): Promise<boolean> {
  const eb = expressionBuilder<Database, never>();
  const row = await db.selectNoFrom(earnedLapsedRelay(eb.val(itemId)).as("earned")).executeTakeFirstOrThrow();
  return row.earned === true || Number(row.earned) === 1;
}
