/** The tables of alerts and those who get them: trusted contacts, consent, phones, push devices (decisions 033, 034, 046). */
import type { ColumnType } from "kysely";

/** Someone an account trusts with its alerts (decision 033, migration 0036). */
export interface TrustedContactTable {
  id: string;
  userId: string;
  name: string;
  email: string | null;
  /** E.164. */
  phone: string | null;
  /** 'en' | 'sv' */
  language: string;
  confirmTokenHash: string | null;
  confirmSentAt: number | null;
  confirmedAt: number | null;
  stoppedAt: number | null;
  createdAt: number;
  /** A contact reached only by SMS confirms with a code (migration 0042): its HMAC, expiry, tries. */
  confirmCodeHash: ColumnType<string | null, string | null | undefined, string | null>;
  confirmCodeExpiresAt: ColumnType<number | null, number | null | undefined, number | null>;
  confirmCodeAttempts: ColumnType<number, number | undefined, number>;
  /** Set: a contact of that organisation's desk, named by the admin `userId` (migration 0043). */
  organisationId: ColumnType<string | null, string | null | undefined, string | null>;
  /** Each channel confirms on its own (migration 0048, decision 046): the mailed link's button, the code sent to the number. */
  emailConfirmedAt: ColumnType<number | null, number | null | undefined, number | null>;
  phoneConfirmedAt: ColumnType<number | null, number | null | undefined, number | null>;
}

/** An address or number that asked never to be contacted (migration 0049, decision 046): its fingerprint only. */
export interface RecipientSuppressionTable {
  /** SHA-256 of "email:<address>" or "sms:<E.164>". */
  addressHash: string;
  channel: "email" | "sms";
  createdAt: number;
}

/** A "never contact me again" link (/t/n/{code}) as sent in a consent request (migration 0049). */
export interface NeverLinkTable {
  codeHash: string;
  addressHash: string;
  channel: "email" | "sms";
  lastSentAt: number;
}

/** A short stop or reply link of a trusted contact (migration 0042): the SHA-256 of its derived code. */
export interface TrustedContactLinkTable {
  codeHash: string;
  kind: "stop" | "reply";
  contactId: string;
  conversationId: string | null;
  createdAt: number;
}

/** An item whose alerts a trusted contact does not get. */
export interface TrustedContactExclusionTable {
  contactId: string;
  itemId: string;
}

/** A browser that receives push notifications for a user (decision 034). */
export interface PushSubscriptionTable {
  id: string;
  userId: string;
  endpoint: string;
  /** The browser's P-256 public key, base64url (RFC 8291). */
  p256dh: string;
  /** The browser's 16-byte auth secret, base64url. */
  auth: string;
  label: string;
  createdAt: number;
  lastSentAt: number | null;
}

/** One recipient × channel of an alert (decision 033, migration 0026). */
export interface AlertDeliveryTable {
  id: string;
  userId: string;
  itemId: string | null;
  conversationId: string | null;
  /** 'finderMessage' | 'reply' | 'lostScan' | 'scan' | 'returned' */
  event: string;
  /** 'email' | 'sms' | 'push' */
  channel: string;
  /** 'owner' | 'contact' */
  recipientKind: string;
  contactId: string | null;
  recipientLabel: string;
  /** 'queued' | 'sent' | 'delivered' | 'failed' | 'blocked' */
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
  deliveredAt: number | null;
  reportTokenHash: string | null;
  providerId: string | null;
}

/** The owner's mobile number and its pending verification (migration 0026). */
export interface UserPhoneTable {
  userId: string;
  phone: string | null;
  verifiedAt: number | null;
  pendingPhone: string | null;
  codeHash: string | null;
  codeExpiresAt: number | null;
  codeAttempts: number;
}

export interface AlertSettingsTable {
  userId: string;
  /** JSON: { [event]: { email, sms, push } } */
  settings: string;
  updatedAt: number;
}

export interface SmsQuotaTable {
  key: string;
  windowStart: number;
  count: number;
  noticeAt: number | null;
}
