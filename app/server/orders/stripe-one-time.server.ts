/**
 * A year paid at once through Stripe (decision 056): a Checkout Session in payment mode
 * with the order's one method (its `payment_method_types`, e.g. swish), and the refund of its
 * PaymentIntent on withdrawal. The order id is in the session's and the PaymentIntent's
 * metadata, so every event (checkout.session.*, payment_intent.*) finds its order.
 */
import type Stripe from "stripe";
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import type { OneTimeMethod } from "~/lib/domain/one-time-payment";
import type { Order } from "./orders.repository.server";

export function oneTimeSessionParams(
  order: Order,
  method: OneTimeMethod,
  input: { email: string; lang: Lang; origin: string },
): Stripe.Checkout.SessionCreateParams {
  const t = getT(input.lang);
  const metadata = {
    orderId: order.id,
    userId: order.userId,
    count: String(order.count),
    period: order.period,
    kind: "oneTime",
    packageAmount: String(order.packageAmount),
    discountAmount: String(order.discountAmount),
    totalAmount: String(order.totalAmount),
  };
  return {
    mode: "payment",
    // The API version the client pins (2026-10-28) names the session's methods this way; the
    // session then reports them as its `payment_method_types`.
    allowed_payment_method_types: [method],
    client_reference_id: order.id,
    customer_email: input.email,
    locale: input.lang === "sv" ? "sv" : "en",
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: order.currency.toLowerCase(),
          // The server's total for one year; no recurring interval: it is paid once.
          unit_amount: order.totalAmount,
          product_data: {
            name: t("swish.stripe.lineName", { count: order.count }),
            metadata: { orderId: order.id },
          },
        },
      },
    ],
    metadata,
    payment_intent_data: { metadata: { orderId: order.id } },
    custom_text: {
      submit: {
        message: [t("swish.terms.once"), t("common.checkoutTerms.stripe", { url: `${input.origin}/terms` })].join(" "),
      },
    },
    success_url: `${input.origin}/order/complete/${order.id}`,
    // Left without paying: the order page says nothing was charged.
    cancel_url: `${input.origin}/order/complete/${order.id}?left=1`,
  };
}

/**
 * The PaymentIntent a one-time order was paid with: recorded from its webhook, else read
 * from its Checkout Session.
 */
export async function paymentIntentOf(stripe: Stripe, order: Order): Promise<string> {
  if (order.paymentIntentId) return order.paymentIntentId;
  if (!order.checkoutId) throw new Error(`order ${order.id} has no checkout session`);
  const session = await stripe.checkout.sessions.retrieve(order.checkoutId);
  const intent = session.payment_intent;
  const id = typeof intent === "string" ? intent : intent?.id;
  if (!id) throw new Error(`order ${order.id}: its checkout session has no payment`);
  return id;
}
