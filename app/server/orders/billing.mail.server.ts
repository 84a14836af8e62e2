/**
 * The subscription mails (decision 016): renewal receipt, failed payment,
 * lapse, yearly reminder, renewal cancelled / resumed. Each goes to the account's verified
 * email (as the first receipt, decision 012) in the owner's saved language, else the order's,
 * with amounts in the order's currency; queued in the outbox inside the caller's transaction.
 */
import { isLang, type Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/domain/dates";
import { firstName } from "~/lib/domain/first-name";
import { renewHref } from "~/lib/domain/one-time-payment";
import { formatPrice, orderTotals } from "~/lib/domain/pricing";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { logger } from "../logger.server";
import { enqueueMail } from "../mail/mail.server";
import { sellerOf } from "../seller/seller.server";
import type { Receipt } from "./billing.repository.server";
import { langOfCurrency } from "./one-time.server";
import { findUserForReceipt, listItemsOfOrder, type Order } from "./orders.repository.server";

type TFn = ReturnType<typeof getT>;

export interface MailContext {
  t: TFn;
  lang: Lang;
  origin: string;
  items: Array<{ id: string; name: string }>;
  /** An amount in minor units of the order's currency. */
  money(minor: number): string;
  date(ms: number): string;
}

/**
 * One mail to an account (greeting, body, signature) in the account's saved language, else
 * `fallbackLang`; only to a verified address (decision 012). False when not sent. The frame
 * of every billing mail, and of the prepaid sticker reminders (decision 036).
 */
export async function enqueueAccountMail(
  db: DB,
  userId: string,
  fallbackLang: Lang,
  log: Record<string, unknown>,
  /** The caller's `deps.clock()`: when the mail is queued. */
  now: number,
  build: (c: { t: TFn; lang: Lang; user: { name: string; email: string } }) => { subject: string; body: string[] },
): Promise<boolean> {
  const user = await findUserForReceipt(db, userId);
  if (!user?.emailVerified) {
    logger.info(log, "no account mail: the account's email is not verified");
    return false;
  }
  const lang: Lang = isLang(user.language) ? user.language : fallbackLang;
  const t = getT(lang);
  const { subject, body } = build({ t, lang, user });
  const text = [
    t("billing.mail.greeting", { name: firstName(user.name, user.email) }),
    ...body,
    t("billing.mail.signature"),
  ]
    .filter(Boolean)
    .join("\n\n");
  await enqueueMail(db, { to: user.email, subject, text }, now);
  return true;
}

/** One owner mail about an order, its items and amounts in the order's currency. */
export async function enqueueOwnerMail(
  db: DB,
  config: Config,
  order: Order,
  kind: string,
  now: number,
  build: (c: MailContext) => { subject: string; body: string[] },
): Promise<boolean> {
  const items = await listItemsOfOrder(db, order.id);
  const priceLang = order.currency === "SEK" ? "sv" : "en";
  return enqueueAccountMail(db, order.userId, order.lang, { order: order.id, kind }, now, ({ t, lang }) =>
    build({
      t,
      lang,
      origin: config.baseUrl.origin,
      items,
      money: (minor) => formatPrice(minor / 100, priceLang),
      date: (ms) => formatDate(ms, lang),
    }),
  );
}

const itemList = (c: MailContext) => c.items.map((i) => `- ${i.name}`).join("\n");

export function receiptUrl(origin: string, receipt: Pick<Receipt, "orderId" | "number">): string {
  return `${origin}/order/${receipt.orderId}/receipt?number=${receipt.number}`;
}

/** A renewal was paid: its receipt (the first charge of an order placed ahead says it started, decision 036). */
export function enqueueRenewalReceiptMail(db: DB, config: Config, order: Order, receipt: Receipt, now: number) {
  return enqueueOwnerMail(db, config, order, "renewal", now, (c) => ({
    subject: c.t("billing.mail.renewal.subject", { number: receipt.number }),
    body: [
      c.t(
        order.startsAt != null && receipt.periodStart === order.startsAt
          ? "billing.mail.renewal.introStarted"
          : "billing.mail.renewal.intro",
      ),
      itemList(c),
      [
        c.t("billing.mail.renewal.number", { number: receipt.number }),
        c.t("billing.mail.renewal.period", { start: c.date(receipt.periodStart), end: c.date(receipt.periodEnd) }),
        c.t("billing.mail.renewal.total", { amount: c.money(receipt.totalAmount) }),
        // VAT only from a seller with a VAT number (decision 057).
        sellerOf(config).vatOnReceipts
          ? c.t("billing.mail.renewal.vat", { amount: c.money(receipt.vatAmount) })
          : c.t("billing.receipt.noVat"),
      ].join("\n"),
      c.t("billing.mail.renewal.link", {
        url: receiptUrl(c.origin, receipt),
        pdf: `${c.origin}/order/${receipt.orderId}/receipt.pdf?number=${receipt.number}`,
      }),
    ],
  }));
}

/** A renewal payment failed: fix the card; the items stay active until `graceUntil`. */
export function enqueuePaymentFailedMail(db: DB, config: Config, order: Order, graceUntil: number, now: number) {
  return enqueueOwnerMail(db, config, order, "paymentFailed", now, (c) => ({
    subject: c.t("billing.mail.failed.subject"),
    body: [
      c.t("billing.mail.failed.intro", { amount: c.money(order.totalAmount) }),
      itemList(c),
      c.t("billing.mail.failed.grace", { date: c.date(graceUntil) }),
      c.t("billing.mail.failed.fix", { url: `${c.origin}/order/${order.id}/payment` }),
    ],
  }));
}

/** The subscription ended: the items are no longer active. */
export function enqueueLapsedMail(db: DB, config: Config, order: Order, now: number) {
  return enqueueOwnerMail(db, config, order, "lapsed", now, (c) => ({
    subject: c.t("billing.mail.lapsed.subject"),
    body: [
      c.t("billing.mail.lapsed.intro"),
      itemList(c),
      c.t("billing.mail.lapsed.finder"),
      c.t("billing.mail.lapsed.reactivate", { url: `${c.origin}/order` }),
    ],
  }));
}

/** A year paid at once ended unrenewed (decision 056): the items stopped, the way to pay for another. */
export function enqueueYearEndedMail(db: DB, config: Config, order: Order, now: number) {
  return enqueueOwnerMail(db, config, order, "yearEnded", now, (c) => ({
    subject: c.t("swish.mail.ended.subject"),
    body: [
      c.t("swish.mail.ended.intro"),
      itemList(c),
      c.t("swish.mail.ended.finder"),
      c.t("swish.mail.ended.renew", { url: `${c.origin}${renewHref(order.id)}` }),
    ],
  }));
}

/**
 * A year paid at once ends in 30 or 7 days (decision 056): the items still to renew (`count`),
 * today's price for a year of them, and the link to a one-year checkout for exactly those.
 */
export function enqueueYearReminderMail(db: DB, config: Config, order: Order, count: number, now: number) {
  const price = orderTotals({ lang: langOfCurrency(order.currency), period: "year", count }).minor.total;
  return enqueueOwnerMail(db, config, order, "yearReminder", now, (c) => ({
    subject: c.t("swish.mail.reminder.subject", { date: c.date(order.paidUntil!) }),
    body: [
      c.t("swish.mail.reminder.intro", { date: c.date(order.paidUntil!) }),
      c.items.map((i) => `- ${i.name}`).join("\n"),
      c.t("swish.mail.reminder.renew", { amount: c.money(price), url: `${c.origin}${renewHref(order.id)}` }),
      c.t("swish.mail.reminder.early"),
      c.t("swish.mail.reminder.lapse"),
    ],
  }));
}

/** A yearly subscription renews in 14 days: price, date, how to cancel. */
export function enqueueReminderMail(db: DB, config: Config, order: Order, renewsAt: number, now: number) {
  return enqueueOwnerMail(db, config, order, "reminder", now, (c) => ({
    subject: c.t("billing.mail.reminder.subject", { date: c.date(renewsAt) }),
    body: [
      c.t("billing.mail.reminder.intro", { date: c.date(renewsAt), amount: c.money(order.totalAmount) }),
      itemList(c),
      c.t("billing.mail.reminder.cancel", { url: `${c.origin}/order/${order.id}/cancel` }),
    ],
  }));
}

/** Renewal cancelled: what it covers, until when, and whether anything more is charged. */
export function enqueueCancelledMail(
  db: DB,
  config: Config,
  order: Order,
  plan: { endsAt: number; atPeriodEnd: boolean },
  now: number,
) {
  return enqueueOwnerMail(db, config, order, "cancelled", now, (c) => ({
    subject: c.t("billing.mail.cancelled.subject"),
    body: [
      c.t("billing.mail.cancelled.intro"),
      itemList(c),
      c.t("billing.mail.cancelled.until", { date: c.date(plan.endsAt) }),
      plan.atPeriodEnd
        ? c.t("billing.mail.cancelled.nothingMore")
        : c.t("billing.mail.cancelled.minimumTerm", { date: c.date(plan.endsAt) }),
      c.t("billing.mail.cancelled.undo", { url: `${c.origin}/dashboard` }),
    ],
  }));
}

/** Renewal resumed before the end. */
export function enqueueResumedMail(db: DB, config: Config, order: Order, renewsAt: number, now: number) {
  return enqueueOwnerMail(db, config, order, "resumed", now, (c) => ({
    subject: c.t("billing.mail.resumed.subject"),
    body: [c.t("billing.mail.resumed.intro", { date: c.date(renewsAt) }), itemList(c)],
  }));
}
