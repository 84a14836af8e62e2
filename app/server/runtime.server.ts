/**
 * Process-wide services, created once at start-up: configuration, database, auth, clock,
 * the payment provider, the finder-page cache and the outbox's senders (decision 039).
 * Start-up code imports no feature's logic except the hooks it wires here (decision 031)
 * and the handlers it subscribes to the event bus (`listen`, decision 053).
 * Route modules reach them through getRuntime(); tests build their own with createRuntime().
 */
import { eraseUserData } from "./account/privacy.service.server";
import { alertOfPaidYear, alertOfScan } from "./alerts/listeners.server";
import { DomainEventBus } from "./event-bus.server";
import { mailOfPaidYear, receiptOfOrderPaid, stopRenewalsOfExMember } from "./orders/listeners.server";
import { smsFinderOfReply } from "./sms-finder/listeners.server";
import { unsuppressConfirmedContact } from "./recipients/listeners.server";
import * as webhooks from "./webhooks/listeners.server";
import { sendPendingConfirmations } from "./orders/confirmation.service.server";
import { createAuth, type Auth } from "./auth/auth.server";
import { captchaOf } from "./captcha/captcha.server";
import { getConfig, type Config } from "./config.server";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "./db/db.server";
import { createCookieWriters, type CookieWriters } from "./http/cookies.server";
import { ItemPageCache } from "./items/item-page-cache.server";
import { createItem } from "./items/items.service.server";
import { forgetItemPages } from "./items/listeners.server";
import { logger } from "./logger.server";
import { getPaymentProvider, type PaymentProvider } from "./orders/payments.server";
import { photoStoreOf } from "./photos/photo-store.server";
import { createMailSender } from "./mail/mail.server";
import { createPushSender } from "./push/push-channel.server";
import { createSmsSender } from "./sms/elks.server";
import { createWebhookSender } from "./webhooks/webhook-channel.server";
import { createPublicSettings, type PublicSettings } from "./public-settings.server";
import {
  systemClock,
  type Captcha,
  type Clock,
  type Deps,
  type OutboxSenders,
  type PhotoStore,
} from "./service-deps.server";

export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  auth: Auth;
  /** The one clock of the process; tests pass their own (decision 004). */
  clock: Clock;
  /** The payment provider PAYMENTS names, made once (decision 039). */
  payments: PaymentProvider;
  /**
   * This runtime's finder-page cache (decisions 009, 021): each instance keeps its own and
   * checks versions against the database; it forgets an item's pages when a feature
   * announces `itemsChanged` (`listen` below).
   */
  pageCache: ItemPageCache;
  /** Where photo bytes are kept, as S3_* says (decision 035). */
  photos: PhotoStore;
  /** The captcha CAPTCHA names (decision 029). */
  captcha: Captcha;
  /**
   * The outbox's senders, as SMTP_URL, the 46elks credentials and the push and webhook
   * settings say (decisions 033, 040, 061); the outbox worker takes them from Deps.
   */
  senders: OutboxSenders;
  /** Set-Cookie writers, `Secure` as the configuration says (decision 039). */
  cookies: CookieWriters;
  /** The configuration's public side (captcha, seller), built once. */
  site: PublicSettings;
  /** The event bus, its handlers subscribed by `listen` (decision 053). */
  events: DomainEventBus;
}

/**
 * Who hears what (decision 053): the one place a feature's announcement is tied to the
 * features that act on it, so neither imports the other.
 */
function listen(events: DomainEventBus): void {
  // In the scans' transaction that claimed the alert (decision 033).
  events.on("itemScanned", alertOfScan);
  // In the billing job's transaction that claimed the reminder or the lapse (decision 056):
  // the owner's mail first, then the payer's SMS and push, the order they were queued in before.
  events.on("paidYearEnding", mailOfPaidYear);
  events.on("paidYearEnding", alertOfPaidYear);
  // In the payment's transaction (decisions 016, 053): the receipt before the organisation's
  // order.paid webhook (subscribed below), the order they were queued in before.
  events.on("orderPaid", receiptOfOrderPaid);
  // After the membership's end committed (decision 028).
  events.on("membershipEnded", stopRenewalsOfExMember);
  // After the write (its commit): this runtime's finder pages of the items (decisions 009, 021).
  events.on("itemsChanged", forgetItemPages);
  // After a trusted contact's confirmation was stored (decision 046).
  events.on("contactConfirmed", unsuppressConfirmedContact);
  // After the owner's side answer was stored (decision 055).
  events.on("ownerReplied", smsFinderOfReply);
  // The organisations' webhooks, in the announcer's transaction (decision 061).
  events.on("finderMessaged", webhooks.webhookOfFinderMessage);
  events.on("invoiceOverdue", webhooks.webhookOfInvoiceOverdue);
  events.on("itemFound", webhooks.webhookOfFound);
  events.on("itemMarkedLost", webhooks.webhookOfLost);
  events.on("scanRecorded", webhooks.webhookOfScan);
  events.on("orderPaid", webhooks.webhookOfOrderPaid);
  events.on("stickerClaimed", webhooks.webhookOfStickerClaim);
}

/**
 * Every channel's sender, made once from the configuration (decision 039): mail (SMTP or the
 * outbox folder), SMS (46elks or the folder), push (web push, system CAs) and the webhooks.
 */
function sendersOf(deps: Pick<Deps, "db" | "config" | "clock">): OutboxSenders {
  return {
    email: createMailSender(deps.config, deps.clock),
    sms: createSmsSender(deps.config, deps.db, deps.clock),
    push: createPushSender(deps),
    webhook: createWebhookSender(deps),
  };
}

export async function createRuntime(config: Config, clock: Clock = systemClock): Promise<Runtime> {
  const database = openDatabase(config.database);
  const result = await migrateToLatest(database.db);
  for (const r of result.results ?? []) {
    if (r.status === "Success") logger.info({ migration: r.migrationName }, "migration applied");
  }
  const payments = getPaymentProvider(config);
  const pageCache = new ItemPageCache();
  const photos = photoStoreOf(config);
  const captcha = captchaOf(config, database.db);
  const senders = sendersOf({ db: database.db, config, clock });
  // The handlers take the runtime's deps, made below; the first announcement comes later.
  const events = new DomainEventBus(() => depsOfRuntime(runtime));
  listen(events);
  const auth = createAuth(
    config,
    database,
    {
      beforeDeleteUser: (user) => eraseUserData({ db: database.db, config, clock, payments, events, photos }, user),
      // Paid before verifying: the receipt and order confirmation go out now (decision 051).
      // A failure is logged, never the user's: the verification itself has happened.
      afterVerifiedUserUpdate: (userId) =>
        sendPendingConfirmations({ db: database.db, config, clock }, userId).then(
          () => undefined,
          (err: unknown) => logger.error({ err, user: userId }, "the receipts that waited could not be queued"),
        ),
    },
    clock,
  );
  const runtime: Runtime = {
    config,
    database,
    auth,
    clock,
    payments,
    pageCache,
    photos,
    captcha,
    senders,
    cookies: createCookieWriters(config),
    site: createPublicSettings(config),
    events,
  };
  return runtime;
}

/** The Deps services take (decision 011), all from the runtime: the one place they are put together. */
export function depsOfRuntime(rt: Omit<Runtime, "cookies" | "site">): Deps {
  return {
    db: rt.database.db,
    config: rt.config,
    auth: rt.auth,
    clock: rt.clock,
    payments: rt.payments,
    pageCache: rt.pageCache,
    photos: rt.photos,
    captcha: rt.captcha,
    senders: rt.senders,
    events: rt.events,
    createItem,
    writer: rt.database.writer,
  };
}

let current: Promise<Runtime> | undefined;
let started: Runtime | undefined;

/** The process's runtime, created on first use (migrations run then). */
export function getRuntime(): Promise<Runtime> {
  // A failed start (database unreachable) is not cached: the next request tries again.
  current ??= createRuntime(getConfig()).then(
    (rt) => (started = rt),
    (err: unknown) => {
      current = undefined;
      throw err;
    },
  );
  return current;
}

/**
 * The process's runtime once it has started, else undefined: for the finder-page cache's
 * hit path, answered before Express without a promise (item-page-cache.http.server.ts).
 */
export function startedRuntime(): Runtime | undefined {
  return started;
}

export async function closeRuntime(): Promise<void> {
  if (!current) return;
  const rt = await current.catch(() => undefined);
  current = undefined;
  started = undefined;
  await rt?.database.close();
}
