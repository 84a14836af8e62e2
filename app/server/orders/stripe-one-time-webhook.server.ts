/**
 * Stripe's events about a year paid at once (decision 056): a Checkout Session in payment
 * mode and its PaymentIntent. Swish may confirm at once (`checkout.session.completed`,
 * `payment_status` paid) or later (`unpaid` first, then `async_payment_succeeded` or
 * `async_payment_failed`); `payment_intent.succeeded` tells of the same payment again.
 */
import type Stripe from "stripe";
import type { Deps } from "../service-deps.server";
import { applyOneTimePayment, failOneTimePayment } from "./one-time-payments.service.server";
import type { PaymentResult } from "./payment-events.service.server";

type Ctx = Pick<Deps, "db" | "config" | "payments" | "clock" | "events">;

const idOf = (v: unknown): string | null =>
  typeof v === "string" ? v : v && typeof v === "object" && "id" in v && typeof v.id === "string" ? v.id : null;

function orderIdOf(meta: unknown, fallback: string | null = null): string | null {
  const id = meta && typeof meta === "object" ? (meta as Record<string, unknown>).orderId : null;
  return typeof id === "string" && id ? id : fallback;
}

/** A payment-mode Checkout Session's event: paid, still waiting, failed or expired. */
export async function handleOneTimeSession(
  deps: Ctx,
  event: Stripe.Event,
  session: Stripe.Checkout.Session,
): Promise<PaymentResult> {
  if (session.mode !== "payment") return "ignored";
  const base = {
    eventId: event.id,
    eventType: event.type,
    orderId: orderIdOf(session.metadata, session.client_reference_id ?? null),
  };
  if (event.type === "checkout.session.async_payment_failed") {
    return failOneTimePayment(deps, { ...base, failure: "failed", final: true });
  }
  if (event.type === "checkout.session.expired") {
    return failOneTimePayment(deps, { ...base, failure: "expired", final: true });
  }
  // `unpaid` on completion: the payment is on its way (async_payment_succeeded follows).
  if (session.payment_status !== "paid") return "ignored";
  return applyOneTimePayment(deps, {
    ...base,
    paymentIntentId: idOf(session.payment_intent),
    paidAt: event.created * 1000,
    amount:
      session.amount_total != null && session.currency
        ? { total: session.amount_total, currency: session.currency }
        : null,
  });
}

/** A PaymentIntent's event: only those of a one-time order (a card invoice's carry no order id). */
export async function handleOneTimeIntent(
  deps: Ctx,
  event: Stripe.Event,
  intent: Stripe.PaymentIntent,
): Promise<PaymentResult> {
  const base = { eventId: event.id, eventType: event.type, orderId: orderIdOf(intent.metadata) };
  if (!base.orderId) return "ignored";
  if (event.type === "payment_intent.payment_failed") {
    // Checkout lets the payer try again: the reason is kept, the order stays open.
    return failOneTimePayment(deps, { ...base, failure: "failed", final: false });
  }
  if (intent.status !== "succeeded") return "ignored";
  return applyOneTimePayment(deps, {
    ...base,
    paymentIntentId: intent.id,
    paidAt: event.created * 1000,
    amount: { total: intent.amount_received, currency: intent.currency },
  });
}
