/**
 * The receipt after an order's first payment, in the owner's language (their saved
 * language, else the order's), queued in the mail outbox inside the payment transaction
 * (by the orders' `receiptOfOrderPaid`, which hears `orderPaid` there) so a paid order
 * always has its receipt and a rolled-back one never does. The order confirmation of an
 * order placed ahead (startOrderAhead) and a receipt that waited for the verified address
 * (sendPendingConfirmations) call it directly.
 *
 * The receipt goes only to the account's verified email (decision 012): the order's address
 * email is typed by whoever orders, and must not make the receipt a mail relay. Paid before
 * the address was verified, the order is marked (`confirmationPendingAt`) and the mail goes
 * out when it is (sendPendingConfirmations, decision 051): a distance sale's confirmation
 * must reach the consumer on a durable medium.
 */
import { isLang, type Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/domain/dates";
import { firstName } from "~/lib/domain/first-name";
import { addressLines } from "~/lib/forms/order-form";
import { formatPrice } from "~/lib/domain/pricing";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { enqueueMail } from "../mail/mail.server";
import { logger } from "../logger.server";
import { sellerOf } from "../seller/seller.server";
import type { Receipt } from "./billing.repository.server";
import { receiptUrl } from "./billing.mail.server";
import { findUserForReceipt, listItemsOfOrder, type Order } from "./orders.repository.server";
import { withdrawalSection } from "./withdrawal.mail.server";

/** Answers whether the mail was queued (false: no account, or it waits for the verified address). */
export async function enqueueReceiptMail(
  db: DB,
  config: Config,
  order: Order,
  receipt: Receipt | null,
  /** The caller's `deps.clock()`: when the mail is queued. */
  now: number,
): Promise<boolean> {
  const user = await findUserForReceipt(db, order.userId);
  if (!user) return false;
  if (!user.emailVerified) {
    logger.info({ order: order.id }, "receipt waits: the account's email is not verified");
    await db
      .updateTable("orders")
      .set({ confirmationPendingAt: order.paidAt ?? order.updatedAt })
      .where("id", "=", order.id)
      .execute();
    return false;
  }
  const lang: Lang = isLang(user.language) ? user.language : isLang(order.lang) ? order.lang : "en";
  const t = getT(lang);
  const address = order.address;
  const to = user.email;
  const items = await listItemsOfOrder(db, order.id);
  const origin = config.baseUrl.origin;
  // Amounts are in the order's currency, whatever language the mail is in.
  const priceLang = order.currency === "SEK" ? "sv" : "en";
  const money = (minor: number) => formatPrice(minor / 100, priceLang);
  const period = order.period;
  // Placed ahead with Stripe (decision 036): an order confirmation, nothing paid yet.
  const firstCharge = receipt ? null : order.startsAt;
  const ahead = firstCharge != null;
  const lines = [
    t("orders.receipt.greeting", { name: firstName(user.name, to) }),
    t(ahead ? "orders.receipt.introAhead" : "orders.receipt.intro"),
    items.map((i) => `- ${i.name}: ${origin}/${i.id}`).join("\n"),
    [
      t(`orders.receipt.period.${period}`),
      t("orders.receipt.package", { count: order.count, amount: money(order.packageAmount) }),
      t("orders.receipt.discount", { amount: money(order.discountAmount) }),
      t(`orders.receipt.total.${period}`, { amount: money(order.totalAmount) }),
      order.paidUntil ? t("orders.receipt.paidUntil", { date: formatDate(order.paidUntil, lang) }) : "",
      firstCharge != null
        ? t("orders.receipt.firstCharge", { date: formatDate(firstCharge, lang), amount: money(order.totalAmount) })
        : "",
    ]
      .filter(Boolean)
      .join("\n"),
    // The order is named by its receipt number, never its raw id (decision 051).
    // VAT only from a seller with a VAT number (decision 057).
    receipt
      ? t(sellerOf(config).vatOnReceipts ? "billing.mail.firstReceipt" : "billing.mail.firstReceiptNoVat", {
          number: receipt.number,
          vat: money(receipt.vatAmount),
          url: receiptUrl(origin, receipt),
        })
      : "",
    address ? `${t("orders.receipt.shipping")}\n${addressLines(address, { lang }).join("\n")}` : "",
    t("orders.receipt.minimumTerm", { url: `${origin}/dashboard` }),
    // A consumer's order (decision 041): the right of withdrawal and the standard form.
    ...(order.organisationId == null && order.method === "card" ? withdrawalSection(t, lang, config, order) : []),
    t("orders.receipt.signature"),
  ].filter(Boolean);
  await enqueueMail(
    db,
    {
      to,
      subject: t(ahead ? "orders.receipt.subjectAhead" : "orders.receipt.subject"),
      text: lines.join("\n\n"),
    },
    now,
  );
  return true;
}
