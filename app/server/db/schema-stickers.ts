/** Claimable stickers (migration 0039, docs/decisions/036-claimable-stickers.md). */

/** A batch of stickers staff printed before anyone registered them. */
export interface StickerBatchTable {
  id: string;
  /** Staff's own words, e.g. "Retail pack 3, Clas Ohlson, 2027-01". */
  label: string;
  /** How many stickers it holds (1–10,000). */
  size: number;
  /** null | 6 | 12: months of subscription a claim activates at once. */
  prepaidMonths: number | null;
  createdBy: string | null;
  createdAt: number;
  voidedAt: number | null;
}

/** A printed sticker; an item takes its id and code when it is claimed. */
export interface StickerTable {
  /** The QR's /{id}; the item's id once claimed. */
  id: string;
  /** Typeable code, canonical form (app/lib/domain/sticker-code.ts). */
  code: string;
  batchId: string;
  voidedAt: number | null;
  claimedAt: number | null;
  /** The item it became (no foreign key: a deleted item leaves this behind). */
  productId: string | null;
}

/** A reminder sent before a prepaid sticker's months end (migration 0044): once per item and lead. */
export interface PrepaidReminderTable {
  productId: string;
  /** 30 or 7: how many days before the prepaid end. */
  leadDays: number;
  sentAt: number;
}
