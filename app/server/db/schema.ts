/**
 * Kysely table types. Our own tables store instants as epoch milliseconds (UTC) and
 * booleans as 0/1 integers on both SQLite and PostgreSQL, so every query is the same
 * on both. better-auth's own tables (user, session, account, verification, rateLimit)
 * follow better-auth's Kysely adapter, which converts their dates itself.
 */
import type { ColumnType, GeneratedAlways } from "kysely";
import type {
  OrderDraftTable,
  OrderTable,
  OrderItemTable,
  PaymentEventTable,
  StickerShipmentTable,
  StickerReplacementTable,
  RetiredStickerTable,
  ReceiptTable,
  CreditNoteTable,
  CounterTable,
  YearReminderTable,
} from "./schema-orders";
import type { UserTable, SessionTable, AccountTable, VerificationTable, RateLimitTable } from "./schema-auth";
import type { PrepaidReminderTable, StickerBatchTable, StickerTable } from "./schema-stickers";
import type { BackupTable } from "./schema-operations";
import type { ElksIncomingTable } from "./schema-sms";
import type { WebhookDeliveryTable, WebhookEndpointTable, WebhookMessageTable } from "./schema-webhooks";
import type { ApiIdempotencyTable, ApiKeyTable } from "./schema-api";
import type {
  TrustedContactTable,
  RecipientSuppressionTable,
  NeverLinkTable,
  TrustedContactLinkTable,
  TrustedContactExclusionTable,
  PushSubscriptionTable,
  AlertDeliveryTable,
  UserPhoneTable,
  AlertSettingsTable,
  SmsQuotaTable,
} from "./schema-alerts";

// better-auth's tables live in schema-auth.ts, the order and billing tables in schema-orders.ts, the alert tables in schema-alerts.ts (a file under 500 lines, decision 039).
export type {
  OrderDraftTable,
  OrderTable,
  OrderItemTable,
  PaymentEventTable,
  StickerShipmentTable,
  StickerReplacementTable,
  RetiredStickerTable,
  ReceiptTable,
  CreditNoteTable,
  CounterTable,
  YearReminderTable,
} from "./schema-orders";
export type { UserTable, SessionTable, AccountTable, VerificationTable, RateLimitTable } from "./schema-auth";
export type { PrepaidReminderTable, StickerBatchTable, StickerTable } from "./schema-stickers";
export type { ElksIncomingTable } from "./schema-sms";
export type { WebhookDeliveryTable, WebhookEndpointTable, WebhookMessageTable } from "./schema-webhooks";
export type {
  TrustedContactTable,
  RecipientSuppressionTable,
  NeverLinkTable,
  TrustedContactLinkTable,
  TrustedContactExclusionTable,
  PushSubscriptionTable,
  AlertDeliveryTable,
  UserPhoneTable,
  AlertSettingsTable,
  SmsQuotaTable,
} from "./schema-alerts";

export interface ProductTable {
  /** 10 random alphanumerics; also the sticker's short URL /{id}. */
  id: string;
  /** The typeable sticker code (app/lib/domain/sticker-code.ts), canonical form, unique. */
  code: string;
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
  /** 0 | 1: the owner deactivated the sticker (0); its finder page then shows nothing of it. */
  active: ColumnType<number, number | undefined, number>;
  /** 0 | 1: mail the owner when the item is scanned (migration 0011). */
  scanAlerts: ColumnType<number, number | undefined, number>;
  /** Lost mode since; null = not lost. */
  lostAt: number | null;
  lastScannedAt: number | null;
  /** Last scan alert mail (throttle, decided by a conditional UPDATE). */
  scanAlertedAt: number | null;
  /** Last "sticker not active" mail (throttle, once a day). */
  inactiveAlertedAt: number | null;
  /** 'public' | 'private' (decision 013): whether the item page shows contactInfo. */
  contactVisibility: ColumnType<string, string | undefined, string>;
  /** The owner's approximate value of the item (migration 0013); private, feeds the fee suggestion only. */
  approxValue: ColumnType<number | null, number | null | undefined, number | null>;
  /** The organisation the item belongs to (migration 0014); null = a personal item. */
  organisationId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The member (user id) an organisation item is assigned to; null = the organisation's. */
  assignedTo: ColumnType<string | null, string | null | undefined, string | null>;
  /** lower(name), computed by the database (migration 0046): what the name search compares. */
  nameFolded: GeneratedAlways<string>;
}

/** A view of a paid item page by anyone but its owner (migration 0011). */
export interface ItemScanTable {
  productId: string;
  scannedAt: number;
  /** 'en' | 'sv' */
  lang: string;
  /** 'phone' | 'tablet' | 'desktop' */
  device: string;
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
  /** 'email' | 'sms' | 'push' (migration 0026; one outbox for every channel). */
  channel: ColumnType<string, string | undefined, string>;
  /** The alert delivery this row carries (alert_deliveries.id), or null. */
  deliveryId: ColumnType<string | null, string | null | undefined, string | null>;
  /** Channel-specific JSON (an SMS's delivery-report URL), or null. */
  meta: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * What the row is sent to, for the lane's share and back-off (decision 049): the address
   * (lower case), the number, the push service's host:port; null on rows from before 0050.
   */
  target: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account the row is sent for (an alert's recipient), or null: its share of the lane. */
  account: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A delivery target set aside after time-outs (decision 049, migration 0050). */
export interface OutboxBackoffTable {
  /** The lane (mail_outbox.channel). */
  lane: string;
  /** mail_outbox.target. */
  target: string;
  /** Time-outs in a row. */
  strikes: number;
  /** Rows for the target are not claimed before this time. */
  resumeAt: number;
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
  /** The account that sent it while signed in (decision 028); null: sent signed out. */
  userId: string | null;
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
  /** The user the grant is bound to (set at their first verified sign-in), or null. */
  userId: string | null;
  /** 'grant' (admin:grant) | 'config' (ADMIN_EMAILS); see AdminGrantSource. */
  source: ColumnType<string, string | undefined, string>;
}

/** A finder's conversation with an item's owner (decision 013, the relay). */
export interface ConversationTable {
  id: string;
  itemId: string;
  ownerId: string;
  /** The finder's private link /m/{token} (256 random bits). */
  finderToken: string;
  /** The finder's "email or phone", '' when none. */
  finderContact: string;
  /** 'en' | 'sv' */
  finderLang: string;
  createdAt: number;
  lastMessageAt: number;
  /** The owner confirmed "I have my item back" (migration 0013); null = not yet. */
  returnedAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** The finder's fee agreed when the return was confirmed, in returnedCurrency. */
  returnedFee: ColumnType<number | null, number | null | undefined, number | null>;
  /** 'SEK' | 'EUR' */
  returnedCurrency: ColumnType<string | null, string | null | undefined, string | null>;
  /** The finder's address opened the link of the first mail (migration 0063, decision 058); null = not yet. */
  finderConfirmedAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** The number a finder texted from (migration 0065, decision 055): never shown to the owner's side. */
  finderPhone: ColumnType<string | null, string | null | undefined, string | null>;
  /** The short reference an owner answers by SMS with ("4821", decision 055). */
  smsRef: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ConversationMessageTable {
  id: string;
  conversationId: string;
  /** 'finder' | 'owner' */
  author: string;
  text: string;
  latitude: number | null;
  longitude: number | null;
  createdAt: number;
  /** Read by the other side; null = unread. */
  readAt: number | null;
  /** A reply a trusted contact wrote through their link (migration 0036); null otherwise. */
  contactId: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A company account (decision 022, migration 0014). */
export interface OrganisationTable {
  id: string;
  name: string;
  /** Swedish organisationsnummer, canonical NNNNNN-NNNN, Luhn-checked. */
  orgNumber: string;
  billingEmail: string;
  invoiceStreet: string;
  invoicePostcode: string;
  invoiceCity: string;
  /** ISO 3166-1 alpha-2, 'SE' by default. */
  invoiceCountry: ColumnType<string, string | undefined, string>;
  vatNumber: string | null;
  /** What a finder sees on an organisation item's page (the lost-and-found desk). */
  deskContact: string;
  createdAt: number;
  updatedAt: number;
  /** Migration 0022 (decision 028): the billing address whose mailed link was opened; confirmed while it is billingEmail. */
  billingEmailConfirmed: ColumnType<string | null, string | null | undefined, string | null>;
  billingEmailConfirmedAt: ColumnType<number | null, number | null | undefined, number | null>;
  /** The pending confirmation link: SHA-256 of its token, the address it was sent to, its expiry. */
  billingConfirmTokenHash: ColumnType<string | null, string | null | undefined, string | null>;
  billingConfirmEmail: ColumnType<string | null, string | null | undefined, string | null>;
  billingConfirmExpiresAt: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface OrganisationMemberTable {
  organisationId: string;
  userId: string;
  /** 'admin' | 'member' */
  role: string;
  createdAt: number;
}

export interface OrganisationInviteTable {
  id: string;
  organisationId: string;
  /** Lower case. */
  email: string;
  /** 'admin' | 'member' */
  role: string;
  /** SHA-256 (hex) of the mailed token; the token itself is stored nowhere. */
  tokenHash: string;
  /** User id of the inviting admin. */
  invitedBy: string;
  createdAt: number;
  /** createdAt + 7 days. */
  expiresAt: number;
  acceptedAt: number | null;
  acceptedBy: string | null;
}

/** A finder-message burst on one item (decision 029, migration 0020): what its digest mail owes. */
export interface RelayDigestTable {
  itemId: string;
  /** Messages stored since the last digest and not mailed one by one. */
  pending: ColumnType<number, number | undefined, number>;
  /** When the last digest was mailed; null when none yet in this burst. */
  lastSentAt: number | null;
  /** How many messages the last digest reported. */
  lastCount: ColumnType<number, number | undefined, number>;
}

/** Key pairs generated once and shared by every instance (migration 0030). */
export interface ServerKeyTable {
  name: string;
  value: string;
  createdAt: number;
}

/** A photo of an item (decision 035, migration 0031). */
export interface ItemPhotoTable {
  id: string;
  itemId: string;
  /** 0-based order on the item; the first public one is on the finder page. */
  position: number;
  /** 1: only the item's managers see it. */
  private: number;
  createdAt: number;
}

/** One WebP file of a photo (160/320/640/1280 px wide), by content hash. */
export interface PhotoVariantTable {
  photoId: string;
  nominal: number;
  width: number;
  height: number;
  /** Hex SHA-256 of the bytes. */
  hash: string;
  size: number;
}

/** Photo bytes by content hash; `data` null when they live in S3-compatible storage. */
export interface PhotoBlobTable {
  hash: string;
  size: number;
  data: Buffer | null;
  createdAt: number;
}

/** A staff look-up at /admin/lookup (decision 030, migration 0032). */
export interface AdminLookupTable {
  id: string;
  /** The staff account that looked (no foreign key: the log outlives the account). */
  staffId: string;
  staffEmail: string;
  /** What was typed (at most 64 characters). */
  query: string;
  /** The item found, or null. */
  productId: string | null;
  lookedUpAt: number;
}

/** An organisation's acceptance of a version of the data processing agreement (migration 0033). */
export interface DpaAcceptanceTable {
  organisationId: string;
  version: number;
  /** The accepting admin (no foreign key: the record outlives the account). */
  userId: string;
  name: string;
  email: string;
  acceptedAt: number;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  rateLimit: RateLimitTable;
  products: ProductTable;
  item_scans: ItemScanTable;
  app_rate_limits: AppRateLimitTable;
  mail_outbox: MailOutboxTable;
  outbox_backoffs: OutboxBackoffTable;
  contact_messages: ContactMessageTable;
  contact_replies: ContactReplyTable;
  captcha_solutions: CaptchaSolutionTable;
  admin_grants: AdminGrantTable;
  order_drafts: OrderDraftTable;
  orders: OrderTable;
  order_items: OrderItemTable;
  payment_events: PaymentEventTable;
  sticker_shipments: StickerShipmentTable;
  sticker_replacements: StickerReplacementTable;
  retired_stickers: RetiredStickerTable;
  receipts: ReceiptTable;
  credit_notes: CreditNoteTable;
  counters: CounterTable;
  conversations: ConversationTable;
  conversation_messages: ConversationMessageTable;
  organisations: OrganisationTable;
  organisation_members: OrganisationMemberTable;
  organisation_invites: OrganisationInviteTable;
  relay_digests: RelayDigestTable;
  server_keys: ServerKeyTable;
  push_subscriptions: PushSubscriptionTable;
  item_photos: ItemPhotoTable;
  photo_variants: PhotoVariantTable;
  photo_blobs: PhotoBlobTable;
  alert_deliveries: AlertDeliveryTable;
  user_phones: UserPhoneTable;
  trusted_contacts: TrustedContactTable;
  trusted_contact_exclusions: TrustedContactExclusionTable;
  trusted_contact_links: TrustedContactLinkTable;
  recipient_suppressions: RecipientSuppressionTable;
  never_links: NeverLinkTable;
  alert_settings: AlertSettingsTable;
  sms_quotas: SmsQuotaTable;
  elks_incoming: ElksIncomingTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_messages: WebhookMessageTable;
  webhook_deliveries: WebhookDeliveryTable;
  admin_lookups: AdminLookupTable;
  dpa_acceptances: DpaAcceptanceTable;
  sticker_batches: StickerBatchTable;
  stickers: StickerTable;
  prepaid_reminders: PrepaidReminderTable;
  year_reminders: YearReminderTable;
  backups: BackupTable;
  api_keys: ApiKeyTable;
  api_idempotency: ApiIdempotencyTable;
}
