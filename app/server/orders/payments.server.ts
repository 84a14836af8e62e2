/**
 * Payment providers, chosen by PAYMENTS (config.server.ts):
 *   - stripe: a Stripe Checkout Session in subscription mode per order; Stripe's signed
 *     webhook (stripe-webhook.server.ts) makes the order paid;
 *   - test: a local, clearly labelled checkout page (/order/checkout/{id}) that completes
 *     the order through the same applyPayment() the webhook uses.
 */
import Stripe from "stripe";
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import type { Config } from "../config.server";
import type { OrderRow } from "./orders.repository.server";

export interface CheckoutStart {
  /** Where the browser goes next. */
  url: string;
  /** The provider's checkout id (Stripe: cs_…), or null. */
  checkoutId: string | null;
}

export interface PaymentProvider {
  name: "test" | "stripe";
  startCheckout(input: { order: OrderRow; email: string; lang: Lang }): Promise<CheckoutStart>;
  cancelRenewal(order: OrderRow, plan: { endsAt: number; atPeriodEnd: boolean }): Promise<void>;
}

const clients = new Map<string, Stripe>();

/** The official client; STRIPE_API_URL points it at another host (tests' stand-in). */
export function stripeClient(config: Config): Stripe {
  const key = config.stripe.secretKey;
  if (!key) throw new Error("STRIPE_SECRET_KEY is not set");
  const cacheKey = `${key}|${config.stripe.apiUrl ?? ""}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const api = config.stripe.apiUrl ? new URL(config.stripe.apiUrl) : undefined;
    client = new Stripe(key, {
      ...(api
        ? {
            host: api.hostname,
            port: api.port || (api.protocol === "http:" ? 80 : 443),
            protocol: api.protocol === "http:" ? "http" : "https",
          }
        : {}),
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
    });
    clients.set(cacheKey, client);
  }
  return client;
}

/**
 * Origins a form POST may be redirected to (CSP form-action): Stripe's hosted checkout,
 * or the stand-in's origin when STRIPE_API_URL is set.
 */
export function checkoutFormActionOrigins(config: Config): string[] {
  if (config.payments !== "stripe") return [];
  return config.stripe.apiUrl ? [new URL(config.stripe.apiUrl).origin] : ["https://checkout.stripe.com"];
}

function stripeProvider(config: Config): PaymentProvider {
  return {
    name: "stripe",
    async startCheckout({ order, email, lang }) {
      const t = getT(lang);
      const origin = config.baseUrl.origin;
      const interval = order.period === "month" ? "month" : "year";
      const session = await stripeClient(config).checkout.sessions.create(
        {
          mode: "subscription",
          client_reference_id: order.id,
          customer_email: email,
          locale: lang === "sv" ? "sv" : "en",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: order.currency.toLowerCase(),
                // One line with the server's total: the yearly discount is already in it.
                unit_amount: order.totalAmount,
                recurring: { interval },
                product_data: {
                  name: t("orders.stripe.lineName", { count: order.count }),
                  metadata: { orderId: order.id },
                },
              },
            },
          ],
          metadata: {
            orderId: order.id,
            userId: order.userId,
            count: String(order.count),
            period: order.period,
            packageAmount: String(order.packageAmount),
            discountAmount: String(order.discountAmount),
            totalAmount: String(order.totalAmount),
          },
          // Copied by Stripe onto invoices, so renewals find their order.
          subscription_data: { metadata: { orderId: order.id } },
          success_url: `${origin}/order/complete/${order.id}`,
          cancel_url: `${origin}/order`,
        },
        { idempotencyKey: `checkout-${order.id}` },
      );
      if (!session.url) throw new Error("Stripe returned a checkout session without a url");
      return { url: session.url, checkoutId: session.id };
    },
    async cancelRenewal(order, plan) {
      if (!order.subscriptionId) throw new Error(`order ${order.id} has no subscription`);
      await stripeClient(config).subscriptions.update(
        order.subscriptionId,
        plan.atPeriodEnd
          ? { cancel_at_period_end: true }
          : // Inside the 6-month minimum term: keep billing until the mark, then stop.
            { cancel_at: Math.floor(plan.endsAt / 1000), proration_behavior: "none" },
      );
    },
  };
}

const testProvider: PaymentProvider = {
  name: "test",
  async startCheckout({ order }) {
    return { url: `/order/checkout/${order.id}`, checkoutId: null };
  },
  async cancelRenewal() {
    // Nothing to tell: the test provider takes no renewals.
  },
};

export function getPaymentProvider(config: Config): PaymentProvider {
  return config.payments === "stripe" ? stripeProvider(config) : testProvider;
}
