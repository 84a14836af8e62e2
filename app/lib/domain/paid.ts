/**
 * The one rule for "paid" (spec "Item page", sections 4 and 6): payed is set and the paid
 * period has not ended (no end recorded = no end). Pure, so the item service, the orders
 * service and the finder-page cache all ask the same question without importing each other.
 */
export interface PaidState {
  payed: boolean;
  /** Epoch ms; null = paid without an end (set by hand). */
  paidUntil: number | null;
}

export function isItemPaid(item: PaidState, now: number): boolean {
  return item.payed && (item.paidUntil == null || item.paidUntil > now);
}
