/**
 * What features announce (decision 053): one typed record per thing that happened, on the
 * one event bus in `Deps` (service-deps.server.ts' `EventBus`). A feature that needs to
 * hear of it subscribes at start-up (runtime.server.ts' `listen`), so the announcing
 * feature never imports the listening one. Types only: any module may import this one.
 */
import type { Lang } from "~/i18n/config";
import type { DeviceClass } from "~/lib/domain/scans";

/**
 * A finder's message was stored in a conversation (the first, or a follow-up; by the web
 * form or by SMS), announced inside the transaction that stored it. The finder's email or
 * number is not part of it: what hears of it never learns them.
 */
export interface FinderMessaged {
  conversationId: string;
  messageId: string;
  itemId: string;
  text: string;
  /** The message opened the conversation. */
  first: boolean;
  at: number;
}

/** An item went into lost mode (`itemMarkedLost`) or out of it (`itemFound`), inside the write's transaction. */
export interface ItemLostModeChanged {
  itemId: string;
  at: number;
}

/**
 * A finder opened a paid item's page and the scan alert's throttle was claimed for it.
 * Announced inside the transaction that claimed it: the alert's deliveries are queued in
 * the same transaction (decision 033), so a crash loses neither or both.
 */
export interface ItemScanned {
  itemId: string;
  itemName: string;
  /** The item was in lost mode: a "lost-mode scan" alert, otherwise a "scan" alert. */
  lost: boolean;
  /** When the finder saw the page. */
  at: number;
  scanLang: Lang;
  device: DeviceClass;
  /** When the scans were written (the deliveries' time). */
  now: number;
}

/**
 * A paid item's scans were written to the scan log, whatever its alert settings: one
 * announcement per item per flush (about a second), its latest scan. What the organisations'
 * webhooks report as `item.scanned` (decision 061); the owner's alerts go by ItemScanned.
 */
export interface ScanRecorded {
  itemId: string;
  /**
   * The item's organisation when the scans were written, null for a personal item: what
   * hears a scan of every item at a million stickers (a thousand a second) can leave the
   * personal ones without a read each (decision 045, point 6).
   */
  organisationId: string | null;
  /** When the finder saw the page. */
  at: number;
  scanLang: Lang;
  device: DeviceClass;
  /** When the scans were written. */
  now: number;
}

/**
 * An invoice order passed its due date unpaid (the provider's invoice.overdue), inside the
 * transaction that marked it.
 */
export interface InvoiceOverdue {
  orderId: string;
  organisationId: string | null;
  at: number;
}

/**
 * A member's membership of an organisation ended (removed by an admin, or left), after the
 * commit: their card subscriptions in its scope stop renewing (decision 028).
 */
export interface MembershipEnded {
  userId: string;
  organisationId: string;
}

/**
 * An order became paid (its first payment: card, invoice or the test provider, through
 * applyPayment), inside the payment's transaction, once per payment however often the
 * provider retries it. What hears of it: the payer's receipt mail (the orders'
 * `receiptOfOrderPaid`), then the organisation's `order.paid` webhook, both in that transaction.
 */
export interface OrderPaid {
  orderId: string;
  organisationId: string | null;
  /** When it was paid (the payment's time): the receipt mail is queued at it. */
  at: number;
  /** The receipt the payment wrote, by its number; null when it wrote none. */
  receiptNumber: number | null;
}

/**
 * The owner's side (the owner, or a trusted contact) answered a conversation, after the
 * answer was stored: a finder who wrote by SMS gets it by SMS from SMS_NUMBER (decision
 * 055). The finder's number travels only to the handler, never to the owner's side.
 */
export interface OwnerReplied {
  conversationId: string;
  /** The finder's number when they wrote by SMS, else null. */
  finderPhone: string | null;
  item: { id: string; owner: string; organisationId: string | null };
  text: string;
  now: number;
}

/**
 * A year paid at once (decision 056) ends soon (`reminder`: 30 or 7 days before) or has
 * ended unrenewed (`ended`), announced inside the transaction that claimed the reminder or
 * the lapse. What hears of it tells the payer only: the owner's mail (the orders'
 * `mailOfPaidYear`), then their SMS and push (the alerts'), all in that transaction.
 */
export interface PaidYearEnding {
  orderId: string;
  /** The payer: the account that placed the order. */
  userId: string;
  kind: "reminder" | "ended";
  /** When the year ends or ended. */
  endsAt: number;
  /** The items the year paid for that are not paid beyond it by another order. */
  itemCount: number;
  /** The payer's saved language, else the order's: the language of the mail. */
  lang: Lang;
  now: number;
}

/** A pre-printed sticker was claimed as an item (whose id is the sticker's), inside the claim's transaction. */
export interface StickerClaimed {
  itemId: string;
  code: string;
  at: number;
}

/**
 * A trusted contact confirmed the address or number they were invited at (the button in
 * the mail, or the code sent by SMS), after it was stored. Whoever keeps a list of
 * addresses that asked for no messages hears that this one now wants them (decision 046).
 */
export interface ContactConfirmed {
  contactId: string;
  /** The owner who named the contact. */
  userId: string;
  organisationId: string | null;
  channel: "email" | "sms";
  /** The address or number that confirmed. */
  to: string;
  at: number;
}

/**
 * What a finder sees of these items may have changed: saved, lost mode, photos, paid or
 * lapsed, a sticker moved, archived or deleted, the finder form closed for a while.
 * Announced after the write (after its commit, when it had a transaction), so what hears
 * it, the finder-page cache (decisions 009, 021), reads the new state.
 */
export interface ItemsChanged {
  itemIds: readonly string[];
}

/** Every event by name. */
export interface DomainEvents {
  contactConfirmed: ContactConfirmed;
  finderMessaged: FinderMessaged;
  invoiceOverdue: InvoiceOverdue;
  itemFound: ItemLostModeChanged;
  itemMarkedLost: ItemLostModeChanged;
  itemScanned: ItemScanned;
  itemsChanged: ItemsChanged;
  membershipEnded: MembershipEnded;
  orderPaid: OrderPaid;
  ownerReplied: OwnerReplied;
  paidYearEnding: PaidYearEnding;
  scanRecorded: ScanRecorded;
  stickerClaimed: StickerClaimed;
}

export type DomainEventName = keyof DomainEvents;

/** What the handlers of one announcement did, summed: the mails they queued. */
export interface EventReport {
  mails: number;
}
