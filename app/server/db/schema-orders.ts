/**
 * Kysely table types of orders, payments, shipments and receipts (the conventions of
 * schema.ts: epoch milliseconds, 0/1 booleans). schema.ts re-exports them and lists them
 * in `Database`.
 */
import type { ColumnType } from "kysely";

/** Per user: the address kept for the next order and the item being bought (spec's 'adress' and 'buy'). */
export interface OrderDraftTable {
  userId: string;
  /** JSON of the spec's Address entity, or null. */
  adress: string | null;
  /** products.id being bought (pay-now), or null. */
  buy: string | null;
  updatedAt: number;
}

/** One checkout (decision 008). Amounts in minor units (öre, cents), recomputed by the server. */
export interface OrderTable {
  id: string;
  userId: string;
  /** 'test' | 'stripe' */
  provider: string;
  /** 'pending' | 'paid' */
  status: string;
  /** 'month' | 'year' */
  period: string;
  /** 'en' | 'sv' */
  lang: string;
  /** 'SEK' | 'EUR' */
  currency: string;
  count: number;
  unitAmount: number;
  packageAmount: number;
  discountAmount: number;
  totalAmount: number;
  /** JSON of the spec's Address entity. */
  adress: string;
  checkoutId: string | null;
  subscriptionId: string | null;
  customerId: string | null;
  paidAt: number | null;
  paidUntil: number | null;
  minimumUntil: number | null;
  /** 0 | 1 */
  renewing: ColumnType<number, number | undefined, number>;
  endsAt: number | null;
  cancelledAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** Last invoice.payment_failed not yet followed by a payment (decision 016). */
  paymentFailedAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** paidUntil the yearly renewal reminder was sent for. */
  reminderFor: ColumnType<number | null, number | null | undefined, number | null>;
  /** When the subscription lapsed: items unpaid, owner told (once). */
  lapsedAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** Migration 0016 (invoices, decision 027): the organisation whose scope the order was made in. */
  organisationId: ColumnType<string | null, string | null | undefined, string | null>;
  /** 'card' | 'invoice' */
  method: ColumnType<string, string | undefined, string>;
  invoiceId: ColumnType<string | null, string | null | undefined, string | null>;
  invoiceNumber: ColumnType<string | null, string | null | undefined, string | null>;
  invoiceUrl: ColumnType<string | null, string | null | undefined, string | null>;
  dueAt: ColumnType<number | null, number | null | undefined, number | null>;
  voidedAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** The VAT in totalAmount; null for orders before 0016 (25 % of the total). */
  vatAmount: ColumnType<number | null, number | null | undefined, number | null>;
  /** 0 | 1 */
  reverseCharge: ColumnType<number, number | undefined, number>;
  /** JSON of the buyer as invoiced (InvoiceBuyer). */
  invoiceTo: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0022 (decision 028): an invoice order's stickers were queued (paid, or released by staff). */
  shipmentReleasedAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** Staff cleared this overdue or lapsed invoice: it no longer stops the next one. */
  creditClearedAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** Email of the staff member who cleared it. */
  creditClearedBy: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0038 (decision 041): the consumer asked for the service to start at once (the checkout's tick). */
  immediateStartAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** The consumer withdrew (ångerrätt): claimed once by a conditional update. */
  withdrawnAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** What went back through the payment provider (minor units), when, and its refund id (Stripe re_…). */
  refundAmount: ColumnType<number | null, number | null | undefined, number | null>;
  refundedAt: ColumnType<number | null, number | null | undefined, number | null>;
  refundId: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0045 (decision 036): an order placed ahead starts its first period then (null: at payment). */
  startsAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** Migration 0055 (decision 051): paid while the account's email was unverified; receipt and confirmation wait for it. */
  confirmationPendingAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** Migration 0068 (decision 056): 'subscription' (card, renews) or a one-time method ('swish', 'klarna'). */
  paymentKind: ColumnType<string, string | undefined, string>;
  /** The paid-once order this one renews (null: a first order). */
  renewalOf: ColumnType<string | null, string | null | undefined, string | null>;
  /** The provider's payment of a one-time order (Stripe pi_…), refunded on withdrawal. */
  paymentIntentId: ColumnType<string | null, string | null | undefined, string | null>;
  /** Why a one-time payment did not go through ('failed' | 'declined' | 'expired'). */
  paymentFailure: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A reminder before a paid year ends (migration 0068, decision 056): once per order and lead. */
export interface YearReminderTable {
  orderId: string;
  leadDays: number;
  sentAt: number;
}

export interface OrderItemTable {
  orderId: string;
  productId: string;
}

/** Payment provider events already applied (idempotency by event id). */
export interface PaymentEventTable {
  id: string;
  type: string;
  orderId: string | null;
  receivedAt: number;
}

/** One sticker shipment per paid order. */
export interface StickerShipmentTable {
  id: string;
  orderId: string;
  userId: string;
  /** JSON of the order's address. */
  adress: string;
  /** 'pending' | 'shipped' */
  status: string;
  createdAt: number;
  shippedAt: number | null;
  /** Id of the admin who marked it shipped. */
  shippedBy: ColumnType<string | null, string | null | undefined, string | null>;
  trackingNumber: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0055 (decision 051): never to be posted (the account was deleted), out of the queue. */
  droppedAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** Why it was dropped, for staff (a translation key's code: "accountDeleted"). */
  note: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A replacement sticker for one item (decision 015): a shipment of its own. */
export interface StickerReplacementTable {
  id: string;
  productId: string;
  userId: string;
  /** The order that paid for the item, or null. */
  orderId: string | null;
  /** JSON of the address it goes to. */
  adress: string;
  /** 'reprint' | 'newCode' */
  mode: string;
  /** 'pending' | 'shipped' */
  status: string;
  createdAt: number;
  shippedAt: number | null;
  shippedBy: string | null;
  trackingNumber: string | null;
}

/** The id and code of a sticker replaced with a new code: its URL and code answer 410. */
export interface RetiredStickerTable {
  /** The old product id. */
  id: string;
  /** The old typeable code. */
  code: string;
  /** The item's current id. */
  productId: string;
  retiredAt: number;
}

/** A receipt per payment (decision 016): sequential number, amounts with VAT, items at the time. */
export interface ReceiptTable {
  id: string;
  number: number;
  orderId: string;
  userId: string;
  paymentKey: string;
  /** JSON: [{ name }] */
  items: string;
  period: string;
  currency: string;
  count: number;
  packageAmount: number;
  discountAmount: number;
  totalAmount: number;
  vatAmount: number;
  periodStart: number;
  periodEnd: number;
  paidAt: number;
  /** 0 | 1 (migration 0016): the reverse-charge note. */
  reverseCharge: ColumnType<number, number | undefined, number>;
}

/** A credit note (kreditfaktura) for a refund on withdrawal (migration 0056, decision 051). */
export interface CreditNoteTable {
  id: string;
  number: number;
  orderId: string;
  /** The receipt it corrects (null: the order had none). */
  receiptNumber: number | null;
  userId: string;
  currency: string;
  /** What went back, VAT included (minor units, positive). */
  totalAmount: number;
  vatAmount: number;
  reverseCharge: ColumnType<number, number | undefined, number>;
  /** JSON: [{ name }] as on the receipt. */
  items: string;
  createdAt: number;
}

/** Named counters (receipt numbers). */
export interface CounterTable {
  name: string;
  value: number;
}
