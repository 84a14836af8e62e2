/**
 * Payments of a year paid at once (decision 056). Stripe tells of one payment several
 * times (checkout.session.completed when paid, or async_payment_succeeded later, and
 * payment_intent.succeeded); each goes through applyPayment — the one way an order becomes
 * paid, as for cards — claimed by the PaymentIntent's id instead of the event's, so the
 * items are activated, the receipt written and the stickers queued once, whichever comes
 * first and however often Stripe retries. A failure activates nothing and the order says
 * why. No HTTP here (decision 011).
 */
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { findOrder, type PaymentFailure } from "./orders.repository.server";
import { markPaymentFailure, recordPaymentIntent } from "./one-time.repository.server";
import { isOrderId } from "./order-error.server";
import { applyPayment, claimEvent, type PaymentResult } from "./payment-events.service.server";

type Ctx = Pick<Deps, "db" | "config" | "payments" | "clock" | "events">;

/** The order of a one-time payment's event; null when it is none of ours (a card invoice's PaymentIntent). */
async function oneTimeOrder(deps: Pick<Deps, "db">, orderId: string | null) {
  if (!isOrderId(orderId)) return null;
  const order = await findOrder(deps.db, orderId);
  return order && order.paymentKind !== "subscription" ? order : null;
}

/** The payment went through: the order is paid for one year from `paidAt` (a renewal: from the end it extends). */
export async function applyOneTimePayment(
  deps: Ctx,
  input: {
    eventId: string;
    eventType: string;
    orderId: string | null;
    paymentIntentId: string | null;
    paidAt: number;
    amount: { total: number; currency: string } | null;
  },
): Promise<PaymentResult> {
  const order = await oneTimeOrder(deps, input.orderId);
  if (!order) return "ignored";
  if (input.paymentIntentId) await recordPaymentIntent(deps.db, order.id, input.paymentIntentId);
  return applyPayment(deps, {
    // One claim per payment: the other events telling of it are replays.
    eventId: input.paymentIntentId ? `payment:${input.paymentIntentId}` : input.eventId,
    eventType: input.eventType,
    orderId: order.id,
    paidAt: input.paidAt,
    amount: input.amount,
    kind: "first",
  });
}

/**
 * The payment did not go through. `final`: the checkout is over (failed asynchronously,
 * expired, declined in the test provider's Swish step) and the pending order is
 * cancelled; otherwise (a failed attempt Checkout lets the payer retry) only the reason
 * is kept. A paid order is never touched; each event counts once.
 */
export async function failOneTimePayment(
  deps: Pick<Deps, "db" | "clock">,
  input: { eventId: string; eventType: string; orderId: string | null; failure: PaymentFailure; final: boolean },
): Promise<PaymentResult> {
  const order = await oneTimeOrder(deps, input.orderId);
  if (!order) return "ignored";
  const now = deps.clock();
  return deps.db.transaction().execute(async (trx): Promise<PaymentResult> => {
    const { fresh } = await claimEvent({ db: trx }, { ...input, orderId: order.id }, now);
    if (!fresh) return "duplicate";
    const changed = await markPaymentFailure(trx, order.id, input.failure, input.final, now);
    if (changed) logger.info({ order: order.id, failure: input.failure }, "one-time payment failed: nothing activated");
    return changed ? "applied" : "ignored";
  });
}
