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
import type { Order } from "./orders.repository.server";

export interface CheckoutStart {
  /** Where the browser goes next. */
  url: string;
  /** The provider's checkout id (Stripe: cs_…), or null. */
  checkoutId: string | null;
}

export interface PaymentProvider {
  name: "test" | "stripe";
  startCheckout(input: { order: Order; email: string; lang: Lang }): Promise<CheckoutStart>;
  cancelRenewal(order: Order, plan: { endsAt: number; atPeriodEnd: boolean }): Promise<void>;
  /** Undo a cancelled renewal before the subscription ends (issue #16, #19 point 4). */
  resumeRenewal(order: Order): Promise<void>;
  /**
   * Where the owner updates the card and sees invoices (Stripe's Customer Portal for the
   * order's customer); null when the provider has none (test provider).
   */
  portalUrl(order: Order, input: { returnUrl: string; lang: Lang }): Promise<string | null>;
  /**
   * A payment arrived for an order whose items were all already paid by another order:
   * stop its subscription at once so it never renews (issue #13).
   */
  cancelDuplicate(order: Order): Promise<void>;
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
      const interval = order.period;
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
                // One line with the server's total: the package discount is already in it.
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
          // The terms beside Stripe's pay button (issue #19): renewal, minimum term, link to the terms.
          custom_text: {
            submit: {
              message: t("common.checkoutTerms.stripe", {
                renews: t(`common.checkoutTerms.renews.${interval}`),
                minimum: t("common.checkoutTerms.minimum"),
                url: `${origin}/terms`,
              }),
            },
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
    async resumeRenewal(order) {
      if (!order.subscriptionId) throw new Error(`order ${order.id} has no subscription`);
      // Both ways a renewal was cancelled (cancel_at inside the minimum term, or at period end) undone.
      await stripeClient(config).subscriptions.update(order.subscriptionId, {
        cancel_at: "",
        cancel_at_period_end: false,
      });
    },
    async portalUrl(order, { returnUrl, lang }) {
      if (!order.customerId) throw new Error(`order ${order.id} has no customer`);
      const session = await stripeClient(config).billingPortal.sessions.create({
        customer: order.customerId,
        return_url: returnUrl,
        locale: lang === "sv" ? "sv" : "en",
      });
      return session.url;
    },
    async cancelDuplicate(order) {
      if (!order.subscriptionId) throw new Error(`order ${order.id} has no subscription`);
      await stripeClient(config).subscriptions.cancel(order.subscriptionId, undefined, {
        idempotencyKey: `duplicate-${order.id}`,
      });
    },
  };
}

const testProvider: PaymentProvider = {
  name: "test",
  async startCheckout({ order }) {
    return { url: `/order/checkout/${order.id}`, checkoutId: null };
  },
  async cancelRenewal() {
    // Nothing to tell: the test provider renews only when staff simulate it.
  },
  async resumeRenewal() {
    // Nothing to tell.
  },
  async portalUrl() {
    return null;
  },
  async cancelDuplicate() {
    // Nothing to stop: the test checkout refuses an order whose items are already paid.
  },
};

/** The bannered local test checkout is active (PAYMENTS=test): every page says so. */
export function testPaymentsActive(config: Pick<Config, "payments">): boolean {
  return config.payments === "test";
}

export function getPaymentProvider(config: Config): PaymentProvider {
  return config.payments === "stripe" ? stripeProvider(config) : testProvider;
}
