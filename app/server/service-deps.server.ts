/**
 * What a service needs from the process, passed in explicitly (decisions 011, 031).
 * Services take `deps: Pick<Deps, …>` as their first parameter and never call
 * getRuntime(); routes build the value once per request with getDeps()
 * (deps.server.ts). This module holds types and the system clock only: its imports are
 * type-only and name no feature (decision 053), so any module may import it without
 * closing a cycle.
 */
import type { Lang } from "~/i18n/config";
import type { ItemInput } from "./access/item-error.server";
import type { ChannelSender } from "./channels/channel.server";
import type { Config } from "./config.server";
import type { DB } from "./db/db.server";
import type { DomainEventName, DomainEvents, EventReport } from "./domain-events";
import type { SqliteWriter } from "./db/sqlite-writer.server";

/**
 * The types of what features make once at start-up and Deps carries (decision 053):
 * better-auth (auth/auth.server.ts adds `auth`) and the payment provider
 * (orders/payments.server.ts adds `payments`) each add their type here by declaration
 * merging, so this module names them without importing the features, which import it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface ProvidedTypes {}

type Provided<K extends string> = ProvidedTypes extends Record<K, infer T> ? T : never;

/**
 * Web push transport settings (decision 034): here so Deps can name it without importing
 * the push feature.
 */
export interface PushTransport {
  /** Extra trusted CA certificates (PEM), besides the system's and NODE_EXTRA_CA_CERTS. */
  ca?: string[];
  /** Deadline of one push request, connection to answer (default PUSH_TIMEOUT_MS). */
  timeoutMs?: number;
}

export { systemClock, type Clock } from "./clock.server";
import type { Clock } from "./clock.server";

/**
 * The finder-page cache (items/item-page-cache.server.ts): a service that changes an item
 * announces `itemsChanged` and the cache's handler (items/listeners.server.ts) forgets the
 * item's stored pages; no service calls it (decision 053). Each runtime has its own cache;
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

/**
 * The senders of the one outbox's channels (decisions 033, 040, 061), made once at start-up
 * from the configuration (runtime.server.ts: SMTP or the mail outbox folder, 46elks or the
 * SMS outbox folder, web push, the webhooks) and handed to the outbox worker
 * (mail/mail.server.ts' startMailWorker). Services never send: they queue a row. A test
 * passes in-process senders where a stand-in server is not the point; a channel without a
 * sender has no lane, and its rows wait.
 */
export type OutboxSenders = Partial<Record<"email" | "sms" | "push" | "webhook", ChannelSender>>;

export type CaptchaFailure = "missing" | "invalid" | "expired" | "used" | "unavailable";
export type CaptchaResult = { ok: true } | { ok: false; reason: CaptchaFailure };

/**
 * The captcha on anonymous writes (captcha/captcha.server.ts, decision 029): ALTCHA or
 * reCAPTCHA as CAPTCHA says, made once at start-up. `verify` consumes the token.
 */
export interface Captcha {
  verify(token: string | undefined, ip: string, now: number): Promise<CaptchaResult>;
}

/**
 * The one event bus (decision 053): a feature announces what happened and the features that
 * care were subscribed at start-up (runtime.server.ts), so it never calls them itself.
 * `emit` runs every handler in turn and waits for them; a handler that throws fails the
 * announcement, as the direct call it replaces did. The handlers get the announcer's
 * `deps` over the runtime's: its database handle (its transaction, when it announces
 * inside one, so what they write commits or rolls back with it) and its clock.
 */
export interface EventBus {
  emit<K extends DomainEventName>(
    name: K,
    event: DomainEvents[K],
    deps: Pick<Deps, "db" | "clock">,
  ): Promise<EventReport>;
}

/**
 * Makes an item as the items feature does (items/items.service.server.ts' createItem): the
 * port through which the stickers, which sit below the items, make the item a claimed
 * sticker becomes (decision 053). `deps.db` may be the claim's transaction.
 */
export type CreateItem = (
  deps: Pick<Deps, "db" | "clock">,
  owner: string,
  input: ItemInput,
  lang: Lang,
  organisationId?: string | null,
  assignTo?: string | null,
  sticker?: { id: string; code: string; paidUntil: number | null },
) => Promise<string>;

export interface Deps {
  db: DB;
  config: Config;
  /** better-auth as auth/auth.server.ts' createAuth makes it. */
  auth: Provided<"auth">;
  clock: Clock;
  /**
   * The payment provider (orders/payments.server.ts: Stripe or the test checkout, as
   * PAYMENTS says), made once at start-up by runtime.server.ts (decision 039).
   */
  payments: Provided<"payments">;
  /**
   * This runtime's finder-page cache, made once at start-up (decision 039); only its
   * handler on the bus (`itemsChanged`) uses it.
   */
  pageCache: PageCache;
  /** Where photo bytes are kept (decision 035), made once at start-up. */
  photos: PhotoStore;
  /** The captcha on anonymous writes, made once at start-up. */
  captcha: Captcha;
  /** The outbox's senders (mail, SMS, push, webhooks), made once at start-up. */
  senders: OutboxSenders;
  /** This runtime's event bus, its handlers subscribed at start-up (decision 053). */
  events: EventBus;
  /** The items' createItem, for the stickers' claims (decision 053). */
  createItem: CreateItem;
  /** SQLite in a file: bulk writes on their own thread (db/sqlite-writer.server.ts). */
  writer?: SqliteWriter;
  /**
   * Web push transport settings (push/push-sender.server.ts): unset in the server (system
   * CAs and NODE_EXTRA_CA_CERTS, 10 s deadline); tests trust their stand-in's certificate.
   */
  push?: PushTransport;
}
