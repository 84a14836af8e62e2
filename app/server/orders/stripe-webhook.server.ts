/**
 * POST /api/stripe/webhook: verify Stripe's signature over the raw body, then apply the
 * events we use. Each event id is applied once (payment_events), so Stripe's retries and
 * replays change nothing; events may arrive in any order (see applyPayment).
 */
import type Stripe from "stripe";
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { markPaymentFailed } from "./billing.service.server";
import { applyInvoiceEvent } from "./invoice.service.server";
import { applyPayment, endSubscription, startOrderAhead, type PaymentResult } from "./payment-events.service.server";
import { stripeClient } from "./payments.server";
import { handleOneTimeIntent, handleOneTimeSession } from "./stripe-one-time-webhook.server";

export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
}

/** The webhook endpoint exists only with PAYMENTS=stripe (404 otherwise). */
export function stripeWebhookEnabled({ config }: Pick<Deps, "config">): boolean {
  return config.payments === "stripe";
}

export function verifyStripeEvent(
  { config }: Pick<Deps, "config">,
  rawBody: Buffer,
  signature: string | null,
): Stripe.Event {
  const secret = config.stripe.webhookSecret;
  if (!secret || !signature) throw new WebhookSignatureError("missing signature or secret");
  try {
    return stripeClient(config).webhooks.constructEvent(rawBody, signature, secret);
  } catch (err) {
    throw new WebhookSignatureError(err instanceof Error ? err.message : String(err));
  }
}

const idOf = (v: unknown): string | null =>
  typeof v === "string" ? v : v && typeof v === "object" && "id" in v && typeof v.id === "string" ? v.id : null;

function metadataOrderId(meta: unknown): string | null {
  if (!meta || typeof meta !== "object") return null;
  const id = (meta as Record<string, unknown>).orderId;
  return typeof id === "string" && id ? id : null;
}

/** The subscription and its metadata on an invoice (API 2025+: parent.subscription_details; older: subscription). */
function invoiceSubscription(invoice: Stripe.Invoice): { subscriptionId: string | null; orderId: string | null } {
  const details = invoice.parent?.subscription_details;
  const legacy = (invoice as unknown as { subscription?: unknown; subscription_details?: { metadata?: unknown } })
    .subscription;
  return {
    subscriptionId: idOf(details?.subscription) ?? idOf(legacy),
    orderId:
      metadataOrderId(details?.metadata) ??
      metadataOrderId(
        (invoice as unknown as { subscription_details?: { metadata?: unknown } }).subscription_details?.metadata,
      ),
  };
}

/** An invoice of an invoice order (decision 027): no subscription, the order id in its own metadata. */
function invoiceOrderId(invoice: Stripe.Invoice): string | null {
  return invoiceSubscription(invoice).subscriptionId ? null : metadataOrderId(invoice.metadata);
}

export async function handleStripeEvent(
  deps: Pick<Deps, "db" | "config" | "clock" | "payments" | "events">,
  event: Stripe.Event,
): Promise<PaymentResult> {
  const base = { eventId: event.id, eventType: event.type };
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      // A year paid at once (decision 056).
      if (session.mode === "payment") return handleOneTimeSession(deps, event, session);
      if (session.mode !== "subscription") return "ignored";
      // An order placed ahead (decision 036): the subscription is on trial, nothing was charged.
      if (session.payment_status === "no_payment_required") {
        return startOrderAhead(deps, {
          ...base,
          orderId: metadataOrderId(session.metadata) ?? session.client_reference_id ?? null,
          subscriptionId: idOf(session.subscription),
          customerId: idOf(session.customer),
        });
      }
      if (session.payment_status !== "paid") return "ignored";
      return applyPayment(deps, {
        ...base,
        orderId: metadataOrderId(session.metadata) ?? session.client_reference_id ?? null,
        subscriptionId: idOf(session.subscription),
        customerId: idOf(session.customer),
        paidAt: event.created * 1000,
        amount:
          session.amount_total != null && session.currency
            ? { total: session.amount_total, currency: session.currency }
            : null,
      });
    }
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired":
      return handleOneTimeSession(deps, event, event.data.object);
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
      return handleOneTimeIntent(deps, event, event.data.object);
    case "invoice.paid": {
      const invoice = event.data.object;
      const sub = invoiceSubscription(invoice);
      const subscriptionId = sub.subscriptionId;
      // An invoice order's invoice carries the order id itself (decision 027).
      const orderId = sub.orderId ?? invoiceOrderId(invoice);
      if (!subscriptionId && !orderId) return "ignored";
      // A trial's zero invoice (an order placed ahead, decision 036) pays no period.
      if (subscriptionId && invoice.amount_paid === 0) return "ignored";
      const periods = (invoice.lines?.data ?? []).map((l) => l.period).filter((p) => p && p.end > 0);
      const paidAtSeconds = invoice.status_transitions?.paid_at ?? event.created;
      return applyPayment(deps, {
        ...base,
        orderId,
        subscriptionId,
        customerId: idOf(invoice.customer),
        paidAt: paidAtSeconds * 1000,
        periodEnd: periods.length > 0 ? Math.max(...periods.map((p) => p!.end)) * 1000 : null,
        periodStart: periods.length > 0 ? Math.min(...periods.map((p) => p!.start)) * 1000 : null,
        amount: { total: invoice.amount_paid, currency: invoice.currency },
        // The subscription's first invoice is the checkout's payment: one receipt for both.
        // An invoice order's invoice is its one payment (decision 027).
        kind: invoice.billing_reason === "subscription_create" || !subscriptionId ? "first" : "renewal",
        paymentId: invoice.id ?? null,
      });
    }
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const invoiceOrder = invoiceOrderId(invoice);
      if (invoiceOrder) return applyInvoiceEvent(deps, { ...base, orderId: invoiceOrder, kind: "failed" });
      const { subscriptionId, orderId } = invoiceSubscription(invoice);
      if (!subscriptionId && !orderId) return "ignored";
      // The first payment is Checkout's: a failed card there never made the order paid.
      if (invoice.billing_reason === "subscription_create") return "ignored";
      return markPaymentFailed(deps, { ...base, orderId, subscriptionId });
    }
    // Decision 027: past due (the billing job ends the stickers after the grace), voided or written off (now).
    case "invoice.overdue":
    case "invoice.voided":
    case "invoice.marked_uncollectible": {
      const orderId = invoiceOrderId(event.data.object);
      if (!orderId) return "ignored";
      const kind = event.type === "invoice.overdue" ? "overdue" : "voided";
      return applyInvoiceEvent(deps, { ...base, orderId, kind });
    }
    case "customer.subscription.deleted": {
      const sub = event.data.object;
      return endSubscription(deps, {
        ...base,
        orderId: metadataOrderId(sub.metadata),
        subscriptionId: sub.id,
        endedAt: (sub.ended_at ?? event.created) * 1000,
      });
    }
    default:
      logger.debug({ type: event.type }, "stripe event not used");
      return "ignored";
  }
}
