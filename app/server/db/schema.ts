/**
 * Kysely table types. Our own tables store instants as epoch milliseconds (UTC) and
 * booleans as 0/1 integers on both SQLite and PostgreSQL, so every query is the same
 * on both. better-auth's own tables (user, session, account, verification, rateLimit)
 * follow better-auth's Kysely adapter, which converts their dates itself.
 */
import type { ColumnType } from "kysely";

type AuthDate = ColumnType<Date, Date | string, Date | string>;

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: ColumnType<boolean, boolean | number, boolean | number>;
  image: string | null;
  createdAt: AuthDate;
  updatedAt: AuthDate;
  /** 'en' | 'sv' */
  language: string | null;
  /** JSON of the spec's Address entity, or null. */
  adress: string | null;
}

export interface SessionTable {
  id: string;
  expiresAt: AuthDate;
  token: string;
  createdAt: AuthDate;
  updatedAt: AuthDate;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: AuthDate | null;
  refreshTokenExpiresAt: AuthDate | null;
  scope: string | null;
  password: string | null;
  createdAt: AuthDate;
  updatedAt: AuthDate;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: AuthDate;
  createdAt: AuthDate;
  updatedAt: AuthDate;
}

export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  lastRequest: number;
}

export interface ProductTable {
  /** 10 random alphanumerics; also the sticker's short code. */
  id: string;
  owner: string;
  name: string;
  findFee: number;
  /** 'SEK' | 'EUR': the owner's currency when the fee was set. */
  currency: string;
  /** 'mobile' | 'laptop' | 'other' */
  prodType: string;
  contactInfo: string;
  /** 'month' | 'year' */
  payment: string;
  /** 0 | 1 */
  payed: number;
  paidUntil: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface AppRateLimitTable {
  key: string;
  windowStart: number;
  count: number;
}

export interface MailOutboxTable {
  id: string;
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  /** 'pending' | 'sending' | 'sent' | 'failed' */
  status: string;
  attempts: number;
  nextAttemptAt: number;
  lockedUntil: number | null;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
}

export interface ContactMessageTable {
  id: string;
  name: string;
  email: string;
  message: string;
  /** 'en' | 'sv': the sender's language; replies are written in it. */
  lang: string;
  createdAt: number;
  /** First opened by staff; null = unread. */
  readAt: number | null;
  handledAt: number | null;
  /** Email of the admin who marked it handled. */
  handledBy: string | null;
}

export interface ContactReplyTable {
  id: string;
  messageId: string;
  authorEmail: string;
  text: string;
  /** The mail_outbox row that carries it. */
  mailId: string;
  createdAt: number;
}

export interface CaptchaSolutionTable {
  /** The solved ALTCHA challenge's nonce. */
  id: string;
  expiresAt: number;
}

export interface AdminGrantTable {
  /** Lower case. */
  email: string;
  grantedAt: number;
}

/** Per user: the address kept for the next order and the item being bought (spec's 'adress' and 'buy'). */
export interface OrderDraftTable {
  userId: string;
  /** JSON of the spec's Address entity, or null. */
  adress: string | null;
  /** products.id being bought (pay-now), or null. */
  buy: string | null;
  updatedAt: number;
}

/** One checkout (issue #6). Amounts in minor units (öre, cents), recomputed by the server. */
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
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  rateLimit: RateLimitTable;
  products: ProductTable;
  app_rate_limits: AppRateLimitTable;
  mail_outbox: MailOutboxTable;
  contact_messages: ContactMessageTable;
  contact_replies: ContactReplyTable;
  captcha_solutions: CaptchaSolutionTable;
  admin_grants: AdminGrantTable;
  order_drafts: OrderDraftTable;
  orders: OrderTable;
  order_items: OrderItemTable;
  payment_events: PaymentEventTable;
  sticker_shipments: StickerShipmentTable;
}
