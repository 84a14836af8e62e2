/**
 * The right of withdrawal in mail (decision 041): the paragraph and the standard withdrawal
 * form (the model form of lagen (2005:59) om distansavtal och avtal utanför affärslokaler,
 * bilaga; directive 2011/83/EU, annex I B) that the first receipt mail repeats, and the
 * confirmation after a withdrawal naming the refund and the stickers already posted. Plain
 * text: the outbox makes the HTML part from it, escaped (item names are the owner's text).
 */
import type { TFunction } from "~/i18n/translate";
import { formatDate } from "~/lib/domain/dates";
import { withdrawalDeadline, type WithdrawalRefund } from "~/lib/domain/withdrawal";
import type { Lang } from "~/i18n/config";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { sellerOf } from "../seller/seller.server";
import { enqueueOwnerMail } from "./billing.mail.server";
import type { Order } from "./orders.repository.server";

/** The consumer's withdrawal paragraph and the standard form, for the first receipt mail. */
export function withdrawalSection(
  t: TFunction,
  lang: Lang,
  config: Config,
  order: Pick<Order, "id" | "paidAt" | "immediateStartAt">,
): string[] {
  if (order.paidAt == null) return [];
  const seller = sellerOf(config);
  const trader = [seller.name, ...seller.address, seller.email].join(", ");
  return [
    [
      t("orders.withdrawal.mail.title"),
      t("orders.withdrawal.mail.right", { date: formatDate(withdrawalDeadline(order.paidAt), lang) }),
      t(order.immediateStartAt == null ? "orders.withdrawal.mail.full" : "orders.withdrawal.mail.proRata"),
      t("orders.withdrawal.mail.how", {
        url: `${config.baseUrl.origin}/order/${order.id}/withdraw`,
        email: seller.email,
      }),
    ].join("\n"),
    [
      t("orders.withdrawal.form.title"),
      t("orders.withdrawal.form.only"),
      `— ${t("orders.withdrawal.form.to", { trader })}`,
      `— ${t("orders.withdrawal.form.notice")}`,
      `— ${t("orders.withdrawal.form.ordered")}`,
      `— ${t("orders.withdrawal.form.name")}`,
      `— ${t("orders.withdrawal.form.address")}`,
      `— ${t("orders.withdrawal.form.signature")}`,
      `— ${t("orders.withdrawal.form.date")}`,
      t("orders.withdrawal.form.delete"),
    ].join("\n"),
  ];
}

/** After a withdrawal: what ended, the refund, and which stickers were already posted. */
export function enqueueWithdrawalMail(
  db: DB,
  config: Config,
  order: Order,
  done: WithdrawalRefund & {
    /** What was paid (0: a Stripe order placed ahead, still on trial). */
    paid: number;
    /** An order placed ahead withdrawn before its start (decision 036): its items stay prepaid until then. */
    startsAt: number | null;
    withdrawnAt: number;
    shipment: { status: "pending" | "shipped"; shippedAt: number | null } | null;
    /** How the owner knows the order (decision 051: never its raw id). */
    receiptNumber: number | null;
    creditNoteNumber: number | null;
  },
  now: number,
) {
  return enqueueOwnerMail(db, config, order, "withdrawn", now, (c) => ({
    subject: c.t("orders.withdrawal.done.subject"),
    body: [
      done.receiptNumber != null
        ? c.t("orders.withdrawal.done.intro", { number: done.receiptNumber, date: c.date(done.withdrawnAt) })
        : c.t("orders.withdrawal.done.introNoReceipt", { date: c.date(done.withdrawnAt) }),
      done.startsAt == null
        ? c.t("orders.withdrawal.done.ended")
        : c.t("orders.withdrawal.done.endedAhead", { date: c.date(done.startsAt) }),
      c.items.map((i) => `- ${i.name}`).join("\n"),
      done.paid === 0
        ? c.t("orders.withdrawal.done.nothingPaid", { date: c.date(order.startsAt ?? done.withdrawnAt) })
        : [
            done.refund === done.paid
              ? c.t("orders.withdrawal.done.refundAll", { refund: c.money(done.refund) })
              : c.t("orders.withdrawal.done.refund", { refund: c.money(done.refund), total: c.money(done.paid) }),
            done.kept > 0
              ? c.t("orders.withdrawal.proRata", {
                  count: done.daysUsed,
                  periodDays: done.periodDays,
                  kept: c.money(done.kept),
                })
              : c.t(
                  done.startsAt != null
                    ? "orders.withdrawal.fullNotStarted"
                    : order.immediateStartAt == null
                      ? "orders.withdrawal.fullNoRequest"
                      : "orders.withdrawal.fullNoDays",
                ),
            c.t(order.provider === "test" ? "orders.withdrawal.done.test" : "orders.withdrawal.done.card"),
            done.creditNoteNumber != null
              ? c.t("orders.withdrawal.done.creditNote", {
                  number: done.creditNoteNumber,
                  url: `${c.origin}/order/${order.id}/credit-note.pdf`,
                })
              : "",
          ]
            .filter(Boolean)
            .join("\n"),
      done.shipment?.status === "shipped"
        ? `${c.t("orders.withdrawal.shipped", { date: c.date(done.shipment.shippedAt ?? done.withdrawnAt) })}\n${c.items
            .map((i) => `- ${i.name}`)
            .join("\n")}`
        : done.shipment
          ? c.t("orders.withdrawal.notShipped")
          : "",
    ],
  }));
}
