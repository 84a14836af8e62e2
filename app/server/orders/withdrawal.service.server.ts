/**
 * The consumer's right of withdrawal (ångerrätt, decision 041): within 14 days of paying,
 * the owner of a personal card order ends it at /order/{id}/withdraw. The subscription is
 * cancelled at once at the provider (cancelAtProvider), its items stop being active, the
 * refund (pro rata for the days used when the consumer asked for an immediate start) goes
 * back through the provider, and a mail confirms it naming the stickers already posted.
 * Organisations' orders are business purchases: refused with withdrawalBusiness. No HTTP
 * here (decision 011).
 */
import type { Currency } from "~/lib/domain/currency";
import {
  LATEST_WITHDRAWAL_MS,
  withdrawalDeadline,
  withdrawalRefund,
  type WithdrawalRefund,
} from "~/lib/domain/withdrawal";
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { wakeOutbox } from "../mail/mail.server";
import { claimLapse, findReceiptOfOrder, listItemsCoveredElsewhere, setItemsUnpaid } from "./billing.repository.server";
import { requireOrderViewer } from "./order-access.server";
import { OrderError } from "./order-error.server";
import { listOrderItemIds, listItemsOfOrder, type Order } from "./orders.repository.server";
import { cancelAtProvider } from "./renewals.service.server";
import { enqueueWithdrawalMail } from "./withdrawal.mail.server";
import { findCreditNoteOfOrder, issueCreditNote } from "./credit-notes.server";
import {
  claimWithdrawal,
  dropPendingShipment,
  findShipmentOfOrder,
  listWithdrawableOrdersOfUser,
  recordRefund,
  releaseWithdrawal,
  setItemsPrepaidUntil,
} from "./withdrawal.repository.server";

type Ctx = Pick<Deps, "db" | "config" | "payments" | "clock" | "events">;

/**
 * What the order has been paid so far: a Stripe order placed ahead (decision 036) is on
 * trial, charged nothing, until Stripe's first invoice moves its paidUntil past its start.
 */
function paidSoFar(order: Order): number {
  const onTrial = order.provider === "stripe" && order.startsAt != null && (order.paidUntil ?? 0) <= order.startsAt;
  return onTrial ? 0 : order.totalAmount;
}

/** An order placed ahead withdrawn before its start: when it would have started, else null. */
function notStartedUntil(order: Order, now: number): number | null {
  return order.startsAt != null && now < order.startsAt ? order.startsAt : null;
}

/** The refund of `order` withdrawn at `now` (decision 041; before an order's start all paid goes back). */
function refundOf(order: Order, now: number): WithdrawalRefund {
  return withdrawalRefund({
    total: paidSoFar(order),
    period: order.period,
    paidAt: order.paidAt!,
    immediateStartAt: order.immediateStartAt,
    now,
    startsAt: order.startsAt,
  });
}

/** Whether an order offers withdrawal now (links on the receipt, dashboard and mail); never throws. */
export function withdrawableUntil(
  order: Pick<Order, "organisationId" | "method" | "status" | "paidAt" | "withdrawnAt">,
  now: number,
): number | null {
  if (order.organisationId != null || order.method !== "card") return null;
  if (order.status !== "paid" || order.paidAt == null || order.withdrawnAt != null) return null;
  const until = withdrawalDeadline(order.paidAt);
  // `until` is the last moment (inclusive) of the 14th Swedish day (decision 052).
  return now <= until ? until : null;
}

/**
 * The one guard of the page and the confirmation: the payer only (requireOrderViewer:
 * others, an organisation's other members and ex-members get notFound, as on every order
 * route); a business order withdrawalBusiness; then withdrawn, unpaid, or past the 14 days.
 */
async function withdrawableOrder(deps: Ctx, userId: string, orderId: string): Promise<Order> {
  const order = await requireOrderViewer(deps, userId, orderId, "payer");
  if (order.organisationId != null || order.method !== "card") throw new OrderError("withdrawalBusiness");
  if (order.withdrawnAt != null) throw new OrderError("withdrawn");
  if (order.status !== "paid" || order.paidAt == null) throw new OrderError("notWithdrawable");
  if (deps.clock() > withdrawalDeadline(order.paidAt)) throw new OrderError("withdrawalExpired");
  return order;
}

export interface WithdrawalPreview extends WithdrawalRefund {
  orderId: string;
  paidAt: number;
  deadline: number;
  total: number;
  /** What was paid so far (0: a Stripe order placed ahead, still on trial, decision 036). */
  paid: number;
  /** An order placed ahead not started yet (decision 036): its start; the items stay prepaid until then. */
  startsAt: number | null;
  currency: Currency;
  /** When the consumer asked for the service to start at once (null: not asked, all back). */
  immediateStartAt: number | null;
  items: Array<{ id: string; name: string }>;
  /** The stickers: posted (when), waiting to be posted, or none. */
  shipment: { status: "pending" | "shipped"; shippedAt: number | null } | null;
}

async function previewOf(deps: Ctx, order: Order): Promise<WithdrawalPreview> {
  const paidAt = order.paidAt!;
  return {
    orderId: order.id,
    paidAt,
    deadline: withdrawalDeadline(paidAt),
    total: order.totalAmount,
    paid: paidSoFar(order),
    startsAt: notStartedUntil(order, deps.clock()),
    currency: order.currency,
    immediateStartAt: order.immediateStartAt,
    items: await listItemsOfOrder(deps.db, order.id),
    shipment: await findShipmentOfOrder(deps.db, order.id),
    ...refundOf(order, deps.clock()),
  };
}

/** What the withdraw page explains before the owner confirms. */
export async function getWithdrawalPreview(
  deps: Ctx,
  input: { userId: string; orderId: string },
): Promise<WithdrawalPreview> {
  return previewOf(deps, await withdrawableOrder(deps, input.userId, input.orderId));
}

/** An order already withdrawn, as its withdraw page shows it on a later visit (decision 051). */
export interface WithdrawnView {
  orderId: string;
  withdrawnAt: number;
  /** When the refund was recorded (null: the provider's refund is still being made). */
  refundedAt: number | null;
  refund: number;
  paid: number;
  currency: Currency;
  receiptNumber: number | null;
  creditNoteNumber: number | null;
  items: Array<{ id: string; name: string }>;
}

/**
 * The withdraw page: the preview while the order may be withdrawn from, or, once it has
 * been, what happened (no error, nothing left to confirm). The payer only, as before;
 * other refusals (business, unpaid, past the 14 days) are thrown as by the preview.
 */
export async function getWithdrawalPage(
  deps: Ctx,
  input: { userId: string; orderId: string },
): Promise<{ kind: "open"; preview: WithdrawalPreview } | { kind: "withdrawn"; withdrawn: WithdrawnView }> {
  const order = await requireOrderViewer(deps, input.userId, input.orderId, "payer");
  if (order.withdrawnAt == null || order.organisationId != null || order.method !== "card") {
    return { kind: "open", preview: await getWithdrawalPreview(deps, input) };
  }
  const [receipt, creditNote, items] = await Promise.all([
    findReceiptOfOrder(deps.db, order.id, null, "first"),
    findCreditNoteOfOrder(deps.db, order.id),
    listItemsOfOrder(deps.db, order.id),
  ]);
  return {
    kind: "withdrawn",
    withdrawn: {
      orderId: order.id,
      withdrawnAt: order.withdrawnAt,
      refundedAt: order.refundedAt,
      refund: order.refundAmount ?? 0,
      paid: paidSoFar(order),
      currency: order.currency,
      receiptNumber: receipt?.number ?? null,
      creditNoteNumber: creditNote?.number ?? null,
      items,
    },
  };
}

/** A purchase the delete page offers to withdraw from before the account goes (decision 051). */
export interface OpenWithdrawal {
  orderId: string;
  /** The first payment's receipt number (how the owner knows the order), null if none yet. */
  receiptNumber: number | null;
  paidAt: number;
  deadline: number;
  currency: Currency;
  /** What was paid and what withdrawing now gives back (minor units). */
  paid: number;
  refund: number;
  /** Until when the paid period runs: what deleting without withdrawing gives up. */
  paidUntil: number | null;
  count: number;
}

/**
 * The user's purchases that may still be withdrawn from now, with the refund each would
 * give: deleting the account without withdrawing gives all of it up (the items go at once).
 */
export async function listOpenWithdrawals(deps: Pick<Deps, "db" | "clock">, userId: string): Promise<OpenWithdrawal[]> {
  const now = deps.clock();
  const orders = await listWithdrawableOrdersOfUser(deps.db, userId, now - LATEST_WITHDRAWAL_MS);
  const out: OpenWithdrawal[] = [];
  for (const order of orders) {
    if (withdrawableUntil(order, now) == null) continue;
    const receipt = await findReceiptOfOrder(deps.db, order.id, null, "first");
    out.push({
      orderId: order.id,
      receiptNumber: receipt?.number ?? null,
      paidAt: order.paidAt!,
      deadline: withdrawalDeadline(order.paidAt!),
      currency: order.currency,
      paid: paidSoFar(order),
      refund: refundOf(order, now).refund,
      paidUntil: order.paidUntil,
      count: order.count,
    });
  }
  return out;
}

export interface WithdrawalResult {
  refund: number;
  currency: Currency;
}

/**
 * The owner confirms. Claimed first with a conditional update (a second submit gets
 * `withdrawn` and refunds nothing); then the provider cancels the subscription at once
 * and refunds (each with its own idempotency key); a provider that refuses gives the claim
 * back (cancelFailed / refundFailed, nothing recorded, try again). Then one transaction
 * records the refund, ends the items (unless another order covers them), drops a shipment
 * not yet posted and queues the owner's mail.
 */
export async function withdrawOrder(deps: Ctx, input: { userId: string; orderId: string }): Promise<WithdrawalResult> {
  const order = await withdrawableOrder(deps, input.userId, input.orderId);
  const now = deps.clock();
  const paidAt = order.paidAt!;
  // paidAt > now - (deadline - paidAt) - 1 ⇔ now <= deadline, checked again in the update.
  if (!(await claimWithdrawal(deps.db, order.id, now, now - (withdrawalDeadline(paidAt) - paidAt) - 1))) {
    throw new OrderError("withdrawn");
  }
  const amounts = refundOf(order, now);
  const startsAt = notStartedUntil(order, now);
  let refundId: string | null = null;
  try {
    await cancelAtProvider(
      deps,
      order,
      { endsAt: now, atPeriodEnd: false, immediately: true },
      { mail: false, coverTestMinimumTerm: false },
    );
    try {
      // Nothing paid (a Stripe trial, decision 036): cancelling it was all there was to do.
      if (amounts.refund > 0) ({ refundId } = await deps.payments.refund(order, amounts.refund));
    } catch (err) {
      logger.error({ err, order: order.id }, "the withdrawal's refund at the payment provider failed");
      throw new OrderError("refundFailed");
    }
  } catch (err) {
    await releaseWithdrawal(deps.db, order.id, now);
    throw err;
  }
  // Logged before it is recorded: should the transaction fail, the log still holds the
  // refund the provider made, for staff to reconcile.
  logger.info({ order: order.id, refundId, refund: amounts.refund }, "withdrawal refunded at the payment provider");
  const unpaid = await deps.db.transaction().execute(async (trx) => {
    await recordRefund(trx, order.id, { amount: amounts.refund, refundId, now });
    // The refund's own bookkeeping document, correcting the receipt (decision 051).
    const creditNote = await issueCreditNote(trx, order, amounts.refund, now);
    // Lapsed now: the lapse job and its "your subscription ended" mail leave it alone.
    await claimLapse(trx, order.id, now);
    const ids = await listOrderItemIds(trx, order.id);
    const covered = await listItemsCoveredElsewhere(trx, ids, order.id, now);
    const ended = ids.filter((id) => !covered.has(id));
    // Before an order placed ahead started, its items are prepaid until then (decision 036).
    if (startsAt != null) await setItemsPrepaidUntil(trx, ended, startsAt, now);
    else await setItemsUnpaid(trx, ended, now, now);
    // Not posted yet: never posted (the mail says so); posted: the mail names them.
    const dropped = await dropPendingShipment(trx, order.id);
    await enqueueWithdrawalMail(
      trx,
      deps.config,
      order,
      {
        ...amounts,
        paid: paidSoFar(order),
        startsAt,
        withdrawnAt: now,
        shipment: dropped ? { status: "pending", shippedAt: null } : await findShipmentOfOrder(trx, order.id),
        receiptNumber: (await findReceiptOfOrder(trx, order.id, null, "first"))?.number ?? null,
        creditNoteNumber: creditNote?.number ?? null,
      },
      now,
    );
    return ended;
  });
  wakeOutbox();
  await deps.events.emit("itemsChanged", { itemIds: unpaid }, deps);
  logger.info({ order: order.id, refund: amounts.refund, items: unpaid.length }, "order withdrawn and refunded");
  return { refund: amounts.refund, currency: order.currency };
}
