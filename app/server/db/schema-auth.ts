/**
 * better-auth's own tables (user, session, account, verification, rateLimit), as its
 * Kysely adapter reads them (it converts their dates itself). schema.ts re-exports them
 * and lists them in `Database`.
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
