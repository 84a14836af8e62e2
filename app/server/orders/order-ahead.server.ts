/**
 * Ordering ahead for an item prepaid with its sticker (decision 036): such an item is paid
 * without any order, so its owner may subscribe before the prepaid months end; the
 * subscription's first period starts at the prepaid end, so no day is paid twice.
 */
import type { DB } from "../db/db.server";
import type { Deps } from "../service-deps.server";
import { isItemPaid } from "~/lib/domain/paid";
import { listItemsCoveredElsewhere } from "./billing.repository.server";
import { OrderError } from "./order-error.server";
import { listPrepaidClaimedItems } from "../stickers/stickers.repository.server";
import type { Order } from "./orders.repository.server";
import { renewalEnds } from "./one-time.server";

/** Prepaid items ordered together must end within this of each other (decision 036). */
export const AHEAD_SPREAD_MS = 31 * 24 * 60 * 60_000;

type PaidRow = { id: string; payed: boolean; paidUntil: number | null };

/**
 * The ids among `rows` paid by a prepaid sticker's months and by no order, with their end.
 * Only items claimed from a prepaid sticker: an item paid by other means without an order
 * (set by hand, or from before orders were recorded) is not offered an order ahead.
 */
export async function prepaidEnds(db: DB, rows: PaidRow[], now: number, orderId = ""): Promise<Map<string, number>> {
  const paid = rows.filter((r) => isItemPaid(r, now) && r.paidUntil !== null);
  if (paid.length === 0) return new Map();
  const ids = paid.map((r) => r.id);
  const [prepaid, covered] = await Promise.all([
    listPrepaidClaimedItems(db, ids),
    listItemsCoveredElsewhere(db, ids, orderId, now),
  ]);
  return new Map(paid.filter((r) => prepaid.has(r.id) && !covered.has(r.id)).map((r) => [r.id, r.paidUntil!]));
}

/**
 * When a new order's first period starts: null (at payment) when no item is paid; the
 * latest prepaid end when all are prepaid. Refused: an item covered by an order
 * (`alreadyPaid`), prepaid items beside unpaid ones or ending more than a month apart
 * (`prepaidMixed`: the earlier ones would be active for free until the latest end).
 */
export async function orderAheadStart(
  deps: Pick<Deps, "db" | "config">,
  rows: PaidRow[],
  now: number,
  invoice: boolean,
): Promise<number | null> {
  const paid = rows.filter((r) => isItemPaid(r, now));
  if (paid.length === 0) return null;
  if (invoice) throw new OrderError("alreadyPaid");
  const ends = await prepaidEnds(deps.db, paid, now);
  if (ends.size < paid.length) throw new OrderError("alreadyPaid");
  if (paid.length < rows.length) throw new OrderError("prepaidMixed");
  const latest = Math.max(...ends.values());
  if (Math.min(...ends.values()) < latest - AHEAD_SPREAD_MS) throw new OrderError("prepaidMixed");
  return latest;
}

/**
 * The items of an order's first payment whose period starts later than the payment, with
 * that start: prepaid stickers' ends (decision 036) and, for a renewal of a year paid at
 * once, the end of the order covering them (decision 056). Neither is a duplicate payment.
 */
export async function aheadEnds(
  db: DB,
  order: Pick<Order, "id" | "renewalOf">,
  rows: PaidRow[],
  now: number,
): Promise<Map<string, number>> {
  const ends = await prepaidEnds(db, rows, now, order.id);
  const renewed = await renewalEnds(
    db,
    order,
    rows.map((r) => r.id),
    now,
  );
  for (const [id, end] of renewed) ends.set(id, Math.max(end, ends.get(id) ?? 0));
  return ends;
}
