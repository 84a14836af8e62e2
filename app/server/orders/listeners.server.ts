/**
 * What the orders hear on the event bus (decision 053), subscribed by runtime.server.ts:
 * the organisations announce a membership's end and never import the renewals; the billing
 * job announces a paid year's end and its mail is one listener of it, the alerts another;
 * a payment announces an order paid and its receipt mail is one listener, the webhooks another.
 */
import type { MembershipEnded, OrderPaid, PaidYearEnding } from "../domain-events";
import type { Deps } from "../service-deps.server";
import { enqueueYearEndedMail, enqueueYearReminderMail } from "./billing.mail.server";
import { findReceiptOfOrder } from "./billing.repository.server";
import { findOrder } from "./orders.repository.server";
import { enqueueReceiptMail } from "./receipt.mail.server";
import { stopRenewalsInOrganisation } from "./renewals.service.server";

/** An ex-member's subscriptions in the organisation's scope stop renewing (decision 028). */
export async function stopRenewalsOfExMember(
  e: MembershipEnded,
  deps: Pick<Deps, "db" | "config" | "clock" | "payments">,
): Promise<void> {
  await stopRenewalsInOrganisation(deps, e.userId, e.organisationId);
}

/**
 * A year paid at once ends soon or has ended (decision 056): the owner's mail, the reminder
 * (the items still to renew, today's price, the link) or the lapse's. `deps.db` is the billing
 * job's transaction that claimed the reminder or the lapse, so the mail goes once, with it.
 */
export async function mailOfPaidYear(e: PaidYearEnding, deps: Pick<Deps, "db" | "config">): Promise<{ mails: number }> {
  const order = await findOrder(deps.db, e.orderId);
  if (!order) return { mails: 0 };
  const sent =
    e.kind === "reminder"
      ? await enqueueYearReminderMail(deps.db, deps.config, order, e.itemCount, e.now)
      : await enqueueYearEndedMail(deps.db, deps.config, order, e.now);
  return { mails: sent ? 1 : 0 };
}

/**
 * An order's first payment (decisions 012, 016, 051): the receipt and order confirmation,
 * with the receipt the payment wrote, to the payer's verified address in their language (or
 * marked to wait for it). `deps.db` is the payment's transaction: the mail commits with the
 * payment, and a retried provider event, claimed already, announces nothing and queues none.
 */
export async function receiptOfOrderPaid(e: OrderPaid, deps: Pick<Deps, "db" | "config">): Promise<{ mails: number }> {
  const order = await findOrder(deps.db, e.orderId);
  if (!order) return { mails: 0 };
  const receipt =
    e.receiptNumber == null ? null : ((await findReceiptOfOrder(deps.db, e.orderId, e.receiptNumber)) ?? null);
  const sent = await enqueueReceiptMail(deps.db, deps.config, order, receipt, e.at);
  return { mails: sent ? 1 : 0 };
}
