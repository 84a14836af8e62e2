/**
 * Whether an item's relay is open (decision 019, narrowed by decisions 050 and 058): the
 * one rule the finder page, the finder's follow-ups, the owner's replies and a trusted
 * contact's replies all go by.
 */
import { isItemPaid } from "~/lib/domain/paid";
import type { DB } from "../db/db.server";
import type { Item } from "../access/items.repository.server";
import { hasEarnedLapsedRelay } from "../items/lapsed-relay.repository.server";

/**
 * An active sticker that is paid now, or has earned the lapsed relay (a payment kept,
 * decision 050; a sticker never paid, withdrawn, refunded or invoiced and never paid keeps
 * the spec's 'not paid' page only). `paidNow` says which: the owner's mail then asks them
 * to reactivate.
 */
export async function relayState(
  db: DB,
  item: Item | undefined,
  now: number,
): Promise<{ open: false } | { open: true; paidNow: boolean }> {
  if (!item || !item.active) return { open: false };
  if (isItemPaid(item, now)) return { open: true, paidNow: true };
  if (await hasEarnedLapsedRelay(db, item.id)) return { open: true, paidNow: false };
  return { open: false };
}
