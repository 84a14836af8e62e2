/**
 * Payment providers, chosen by PAYMENTS (config.server.ts):
 *   - stripe: a Stripe Checkout Session in subscription mode per order (payment mode for a
 *     year paid at once, decision 056); Stripe's signed
 *     webhook (stripe-webhook.server.ts) makes the order paid;
 *   - test: a local, clearly labelled checkout page (/order/checkout/{id}) that completes
 *     the order through the same applyPayment() the webhook uses.
 */
import Stripe from "stripe";
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatPrice, minimumTermCommitment } from "~/lib/domain/pricing";
import type { Config } from "../config.server";
import { logger } from "../logger.server";
import { stripeFirstChargeAt } from "~/lib/domain/stripe-trial";
import type { InvoiceBuyer, Order } from "./orders.repository.server";
import { oneTimeSessionParams, paymentIntentOf } from "./stripe-one-time.server";

export interface CheckoutStart {
  /** Where the browser goes next. */
  url: string;
  /** The provider's checkout id (Stripe: cs_…), or null. */
  checkoutId: string | null;
  /** An order placed ahead (decision 036): when its first period starts, if not the order's startsAt. */
  startsAt?: number;
}

/** An invoice as the provider made and sent it (decision 027). */
export interface IssuedInvoice {
  /** Stripe's in_…; null for the test provider's simulated invoice. */
  invoiceId: string | null;
  /** Stripe's invoice number; null: the service numbers the simulated invoice. */
  number: string | null;
  /** Stripe's hosted invoice page; null: our own page. */
  url: string | null;
  /** When it falls due (epoch ms). */
  dueAt: number;
}

/** One line of an invoice (minor units; a discount is negative). */
export interface InvoiceLine {
  description: string;
  amount: number;
}

/** Invoices are payable within this many days (decision 027: 30 days' terms). */
export const INVOICE_DAYS_UNTIL_DUE = 30;

export interface PaymentProvider {
  name: "test" | "stripe";
  /**
   * An invoice with 30 days' terms for an organisation's order (decision 027): Stripe makes
   * the customer, the invoice items and the invoice, finalizes and sends it; the test
   * provider makes nothing (the simulated invoice is our own page).
   */
  issueInvoice(input: {
    order: Order;
    buyer: InvoiceBuyer;
    lines: InvoiceLine[];
    note: string;
    lang: Lang;
    now: number;
  }): Promise<IssuedInvoice>;
  /**
   * The order was cancelled after its invoice was issued (the database step failed): void
   * the invoice at the provider so nobody is asked to pay it. Never throws (logged).
   */
  voidInvoice(order: Pick<Order, "id" | "invoiceId">): Promise<void>;
  /**
   * An order placed ahead (`order.startsAt`, decision 036) charges nothing now: Stripe's
   * subscription is on trial until its first period starts.
   */
  startCheckout(input: { order: Order; email: string; lang: Lang; now: number }): Promise<CheckoutStart>;
  /** `immediately`: the subscription ends now (a withdrawal, decision 041), not at a later date. */
  cancelRenewal(order: Order, plan: { endsAt: number; atPeriodEnd: boolean; immediately?: boolean }): Promise<void>;
  /** Undo a cancelled renewal before the subscription ends (decision 016). */
  resumeRenewal(order: Order): Promise<void>;
  /**
   * Where the owner updates the card and sees invoices (Stripe's Customer Portal for the
   * order's customer); null when the provider has none (test provider).
   */
  portalUrl(order: Order, input: { returnUrl: string; lang: Lang }): Promise<string | null>;
  /**
   * A payment arrived for an order whose items were all already paid by another order:
   * stop its subscription at once so it never renews (decision 012).
   */
  cancelDuplicate(order: Order): Promise<void>;
  /**
   * A consumer withdrew (decision 041): `amount` (minor units) of the order's first payment
   * goes back to the card. One idempotency key per order and amount: a retry never refunds twice.
   * Answers the provider's refund id (Stripe re_…; test: a simulated id).
   */
  refund(order: Order, amount: number): Promise<{ refundId: string }>;
}

declare module "../service-deps.server" {
  /** Deps names the provider's type without importing the orders (decision 053). */
  interface ProvidedTypes {
    payments: PaymentProvider;
  }
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

/**
 * Voids an invoice of an order that will not go ahead (idempotent: one key per order). A
 * draft that was never finalized cannot be voided and needs nothing: it was never sent.
 */
async function voidStripeInvoice(config: Config, order: Pick<Order, "id">, invoiceId: string): Promise<void> {
  try {
    await stripeClient(config).invoices.voidInvoice(invoiceId, {}, { idempotencyKey: `invoice-${order.id}-void` });
  } catch (err) {
    logger.error({ err, order: order.id, invoice: invoiceId }, "voiding the invoice failed");
  }
}

function stripeProvider(config: Config): PaymentProvider {
  return {
    name: "stripe",
    async issueInvoice({ order, buyer, lines, note, lang }) {
      const stripe = stripeClient(config);
      // Idempotency keys per order: a retried request never makes a second customer or invoice.
      const key = (step: string) => ({ idempotencyKey: `invoice-${order.id}-${step}` });
      const customer = await stripe.customers.create(
        {
          name: buyer.name,
          email: buyer.email,
          address: { line1: buyer.street, postal_code: buyer.postcode, city: buyer.city, country: buyer.country },
          preferred_locales: [lang === "sv" ? "sv" : "en"],
          // Stripe's own marker for the reverse charge; the note on the invoice is ours.
          tax_exempt: order.reverseCharge ? "reverse" : "none",
          ...(buyer.vatNumber ? { tax_id_data: [{ type: "eu_vat" as const, value: buyer.vatNumber }] } : {}),
          metadata: { organisationId: order.organisationId ?? "", orgNumber: buyer.orgNumber },
        },
        key("customer"),
      );
      const draft = await stripe.invoices.create(
        {
          customer: customer.id,
          collection_method: "send_invoice",
          days_until_due: INVOICE_DAYS_UNTIL_DUE,
          currency: order.currency.toLowerCase(),
          auto_advance: false,
          footer: note,
          metadata: { orderId: order.id, organisationId: order.organisationId ?? "" },
        },
        key("invoice"),
      );
      if (!draft.id) throw new Error("Stripe returned an invoice without an id");
      for (const [i, line] of lines.entries()) {
        await stripe.invoiceItems.create(
          {
            customer: customer.id,
            invoice: draft.id,
            amount: line.amount,
            currency: order.currency.toLowerCase(),
            description: line.description,
            metadata: { orderId: order.id },
          },
          key(`item-${i}`),
        );
      }
      // The total is compared on the draft, before anything is final or sent: a mismatch
      // (tax added by Stripe, say) leaves a draft nobody receives.
      const filled = await stripe.invoices.retrieve(draft.id);
      if (filled.total !== order.totalAmount) {
        throw new Error(`Stripe's draft totals ${filled.total}, the order is ${order.totalAmount}`);
      }
      try {
        const finalized = await stripe.invoices.finalizeInvoice(draft.id, {}, key("finalize"));
        const sent = await stripe.invoices.sendInvoice(draft.id, {}, key("send"));
        const due = sent.due_date ?? finalized.due_date;
        if (!due) throw new Error("Stripe returned an invoice without a due date");
        return {
          invoiceId: draft.id,
          number: sent.number ?? finalized.number ?? null,
          url: sent.hosted_invoice_url ?? finalized.hosted_invoice_url ?? null,
          dueAt: due * 1000,
        };
      } catch (err) {
        // Finalize may have happened even when its answer was lost: the invoice is voided so
        // no live invoice stays for an order the service cancels.
        await voidStripeInvoice(config, order, draft.id);
        throw err;
      }
    },
    async voidInvoice(order) {
      if (order.invoiceId) await voidStripeInvoice(config, order, order.invoiceId);
    },
    async startCheckout({ order, email, lang, now }) {
      // A year paid at once (decision 056): payment mode with the order's one method.
      if (order.paymentKind !== "subscription") {
        const params = oneTimeSessionParams(order, order.paymentKind, { email, lang, origin: config.baseUrl.origin });
        const once = await stripeClient(config).checkout.sessions.create(params, {
          idempotencyKey: `checkout-${order.id}`,
        });
        if (!once.url) throw new Error("Stripe returned a checkout session without a url");
        return { url: once.url, checkoutId: once.id };
      }
      const t = getT(lang);
      // Ordered ahead (decision 036): nothing is charged before the prepaid end.
      const trialEnd = order.startsAt == null ? null : stripeFirstChargeAt(order.startsAt, now);
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
          // The terms beside Stripe's pay button (decision 018): renewal, minimum term, link to the terms.
          custom_text: {
            submit: {
              // The minimum term binds only a monthly plan.
              message: [
                t(`common.checkoutTerms.renews.${interval}`),
                interval === "month"
                  ? t("common.checkoutTerms.minimumMonth", {
                      total: formatPrice(order.totalAmount / 100, order.currency === "SEK" ? "sv" : "en"),
                      committed: formatPrice(
                        minimumTermCommitment("month", order.totalAmount / 100)!,
                        order.currency === "SEK" ? "sv" : "en",
                      ),
                    })
                  : null,
                t("common.checkoutTerms.stripe", { url: `${origin}/terms` }),
              ]
                .filter((part) => part !== null)
                .join(" "),
            },
          },
          // Copied by Stripe onto invoices, so renewals find their order.
          subscription_data: {
            metadata: { orderId: order.id },
            ...(trialEnd == null ? {} : { trial_end: Math.floor(trialEnd / 1000) }),
          },
          success_url: `${origin}/order/complete/${order.id}`,
          cancel_url: `${origin}/order`,
        },
        { idempotencyKey: `checkout-${order.id}` },
      );
      if (!session.url) throw new Error("Stripe returned a checkout session without a url");
      return {
        url: session.url,
        checkoutId: session.id,
        ...(trialEnd == null ? {} : { startsAt: Math.floor(trialEnd / 1000) * 1000 }),
      };
    },
    async cancelRenewal(order, plan) {
      // A year paid at once has no subscription: nothing renews, nothing to stop.
      if (order.paymentKind !== "subscription") return;
      if (!order.subscriptionId) throw new Error(`order ${order.id} has no subscription`);
      if (plan.immediately) {
        // A withdrawal retried after a failed refund finds the subscription cancelled by the
        // first try: Stripe refuses to cancel it again once the idempotency key has expired.
        const stripe = stripeClient(config);
        const current = await stripe.subscriptions.retrieve(order.subscriptionId);
        if (current.status === "canceled") return;
        await stripe.subscriptions.cancel(order.subscriptionId, undefined, {
          idempotencyKey: `withdraw-${order.id}-cancel`,
        });
        return;
      }
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
      if (order.paymentKind !== "subscription") {
        // Nothing renews; the payment itself is for staff to refund (decision 012).
        logger.error({ order: order.id }, "a one-time payment for items already paid: refund it by hand");
        return;
      }
      if (!order.subscriptionId) throw new Error(`order ${order.id} has no subscription`);
      await stripeClient(config).subscriptions.cancel(order.subscriptionId, undefined, {
        idempotencyKey: `duplicate-${order.id}`,
      });
    },
    async refund(order, amount) {
      const stripe = stripeClient(config);
      // A year paid at once (decision 056): back to its own PaymentIntent (Swish takes refunds).
      const once = order.paymentKind === "subscription" ? null : await paymentIntentOf(stripe, order);
      if (once) return refundIntent(stripe, order, once, amount);
      if (!order.subscriptionId) throw new Error(`order ${order.id} has no subscription`);
      // Within the 14 days the subscription's latest invoice is its first: the payment refunded.
      const subscription = await stripe.subscriptions.retrieve(order.subscriptionId);
      const invoice = subscription.latest_invoice;
      const invoiceId = typeof invoice === "string" ? invoice : invoice?.id;
      if (!invoiceId) throw new Error(`order ${order.id}: the subscription has no invoice`);
      const payments = await stripe.invoicePayments.list({ invoice: invoiceId, status: "paid", limit: 1 });
      const intent = payments.data[0]?.payment.payment_intent;
      const paymentIntent = typeof intent === "string" ? intent : intent?.id;
      if (!paymentIntent) throw new Error(`order ${order.id}: no paid payment on invoice ${invoiceId}`);
      return refundIntent(stripe, order, paymentIntent, amount);
    },
  };
}

/** A withdrawal's refund of one PaymentIntent (decision 041): the card's first payment, or a year paid at once. */
async function refundIntent(stripe: Stripe, order: Order, paymentIntent: string, amount: number) {
  const refund = await stripe.refunds.create(
    {
      payment_intent: paymentIntent,
      amount,
      reason: "requested_by_customer",
      metadata: { orderId: order.id, kind: "withdrawal" },
    },
    // The amount is in the key: a retry the next day refunds a day less, and Stripe
    // refuses a key reused with other parameters. Two refunds cannot both go through:
    // each is over half the payment, and Stripe refunds at most the payment.
    { idempotencyKey: `withdraw-${order.id}-refund-${amount}` },
  );
  return { refundId: refund.id };
}

const testProvider: PaymentProvider = {
  name: "test",
  async issueInvoice({ now }) {
    // The simulated invoice is our own page, numbered TEST-N by the service.
    return { invoiceId: null, number: null, url: null, dueAt: now + INVOICE_DAYS_UNTIL_DUE * 24 * 60 * 60_000 };
  },
  async voidInvoice() {
    // The simulated invoice is our own page: the cancelled order shows it void.
  },
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
  async refund(order) {
    // Simulated: no money moves; the order records the amount and this id.
    return { refundId: `test_refund_${order.id}` };
  },
};

/** The bannered local test checkout is active (PAYMENTS=test): every page says so. */
export function testPaymentsActive(config: Pick<Config, "payments">): boolean {
  return config.payments === "test";
}

export function getPaymentProvider(config: Config): PaymentProvider {
  return config.payments === "stripe" ? stripeProvider(config) : testProvider;
}
