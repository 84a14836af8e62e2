/**
 * What a service needs from the process, passed in explicitly (decisions 011, 031).
 * Services take `deps: Pick<Deps, …>` as their first parameter and never call
 * getRuntime(); routes build the value once per request with getDeps()
 * (deps.server.ts). This module holds types and the system clock only: its imports are
 * type-only, so any module may import it without closing a cycle.
 */
import type { Auth } from "./auth/auth.server";
import type { Config } from "./config.server";
import type { DB } from "./db/db.server";
import type { PaymentProvider } from "./orders/payments.server";
import type { SqliteWriter } from "./db/sqlite-writer.server";
import type { PushTransport } from "./push/push-transport.server";

export { systemClock, type Clock } from "./clock.server";
import type { Clock } from "./clock.server";

/**
 * What a service does to the finder-page cache (items/item-page-cache.server.ts): after
 * changing an item it forgets the item's stored pages. Each runtime has its own cache;
 * another instance's pages follow within VERSION_CHECK_MS (decisions 009, 021, 039).
 */
export interface PageCache {
  forget(itemId: string): void;
}

/**
 * Where photo bytes live (photos/photo-store.server.ts, decision 035): the database, or
 * S3-compatible storage when S3_* is configured. Made once at start-up.
 */
export interface PhotoStore {
  /** Stores the bytes under their hash (nothing when the hash is known). */
  put(db: DB, blob: { hash: string; bytes: Buffer }, now: number): Promise<void>;
  /** The bytes, or null when unknown. */
  get(db: DB, hash: string): Promise<Buffer | null>;
  /** Deletes the bytes of these hashes that no photo uses any more. */
  deleteUnused(db: DB, hashes: string[]): Promise<void>;
}

export type CaptchaFailure = "missing" | "invalid" | "expired" | "used" | "unavailable";
export type CaptchaResult = { ok: true } | { ok: false; reason: CaptchaFailure };

/**
 * The captcha on anonymous writes (captcha/captcha.server.ts, decision 029): ALTCHA or
 * reCAPTCHA as CAPTCHA says, made once at start-up. `verify` consumes the token.
 */
export interface Captcha {
  verify(token: string | undefined, ip: string, now: number): Promise<CaptchaResult>;
}

export interface Deps {
  db: DB;
  config: Config;
  auth: Auth;
  clock: Clock;
  /**
   * The payment provider (orders/payments.server.ts: Stripe or the test checkout, as
   * PAYMENTS says), made once at start-up by runtime.server.ts (decision 039).
   */
  payments: PaymentProvider;
  /** This runtime's finder-page cache, made once at start-up (decision 039). */
  pageCache: PageCache;
  /** Where photo bytes are kept (decision 035), made once at start-up. */
  photos: PhotoStore;
  /** The captcha on anonymous writes, made once at start-up. */
  captcha: Captcha;
  /** SQLite in a file: bulk writes on their own thread (db/sqlite-writer.server.ts). */
  writer?: SqliteWriter;
  /**
   * Web push transport settings (push/push-sender.server.ts): unset in the server (system
   * CAs and NODE_EXTRA_CA_CERTS, 10 s deadline); tests trust their stand-in's certificate.
   */
  push?: PushTransport;
}
