/**
 * A local stand-in for the Stripe API endpoints the app uses (Checkout Sessions in
 * subscription and payment mode — Swish and Klarna's `payment_method_types`, asynchronous
 * success and failure, refunds bounded by the PaymentIntent, decision 056 —,
 * subscription updates and cancellation, Customer Portal sessions, and for invoice payment
 * (decision 027) customers, invoices, invoice items, finalize and send), so the official `stripe` client can be pointed at it with
 * STRIPE_API_URL. It records every request (method, path, form fields) for assertions,
 * and signs webhook events with the stripe library's own test header helper.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export const TEST_STRIPE_KEY = "sk_test_standin_0123456789";
export const TEST_WEBHOOK_SECRET = "whsec_test_standin_0123456789";

export interface StripeRequest {
  method: string;
  path: string;
  /** Form fields as Stripe's client encodes them, e.g. `line_items[0][price_data][currency]`. */
  form: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

/** An invoice as the stand-in keeps it (decision 027). */
export interface StandInInvoice {
  id: string;
  object: "invoice";
  customer: string;
  status: "draft" | "open" | "void";
  collection_method: string;
  days_until_due: number | null;
  currency: string;
  metadata: Record<string, string>;
  footer: string | null;
  total: number;
  amount_due: number;
  amount_paid: number;
  number: string | null;
  due_date: number | null;
  hosted_invoice_url: string | null;
  billing_reason: "manual";
  lines: { object: "list"; data: Array<{ id: string; amount: number; description: string; currency: string }> };
}

/** A subscription made by a completed Checkout Session. */
export interface StandInSubscription {
  id: string;
  object: "subscription";
  status: "trialing" | "active" | "canceled";
  customer: string;
  trial_end: number | null;
  latest_invoice: string;
  metadata: Record<string, string>;
  /** What each period charges (minor units), its currency and interval. */
  amount: number;
  currency: string;
  interval: "month" | "year";
  /** Invoices with the amount actually paid (a trial's first one: 0). */
  paid: Map<string, number>;
}

/** The events of one payment-mode checkout (decision 056). */
export interface StandInPayment {
  paymentIntentId: string;
  session: Record<string, unknown>;
  completed: { payload: string; signature: string };
  asyncSucceeded: { payload: string; signature: string };
  asyncFailed: { payload: string; signature: string };
  intentSucceeded: { payload: string; signature: string };
  intentFailed: { payload: string; signature: string };
}

export interface StripeStandIn {
  url: string;
  requests: StripeRequest[];
  /** Invoices made through the API, by id. */
  invoices: Map<string, StandInInvoice>;
  /** Refunds made through the API (one per idempotency key). */
  refunds: Array<{ id: string; amount: number; payment_intent: string | null }>;
  /** Answer the next N API requests with this HTTP status and a Stripe error body. */
  failNext(status: number, times?: number): void;
  /** Answer the next request to this method and path (e.g. "POST /v1/invoices/{id}/send") with this status. */
  failOn(route: RegExp, status: number): void;
  /** Tax Stripe adds to each invoice it makes (as automatic tax would): its total then differs from the lines. */
  setInvoiceTax(amount: number): void;
  /** Stripe's "now" for the 48 hours a Checkout trial must last (default: the real time). */
  setNow(ms: number | null): void;
  /**
   * The customer pays (or, with `subscription_data[trial_end]`, only confirms) a Checkout
   * Session made through the API: the stand-in makes its subscription (`trialing` until the
   * trial end, no charge, a zero first invoice) and answers the signed webhook events Stripe
   * would send, `checkout.session.completed` and the first invoice's `invoice.paid`.
   */
  completeCheckout(sessionId: string): {
    subscriptionId: string;
    session: Record<string, unknown>;
    completed: { payload: string; signature: string };
    firstInvoicePaid: { payload: string; signature: string };
  };
  /**
   * The trial of a subscription ends (decision 036): Stripe charges its first real invoice
   * for the period from the trial end and the subscription turns `active`. Answers the
   * signed `invoice.paid`.
   */
  endTrial(subscriptionId: string): { invoiceId: string; invoicePaid: { payload: string; signature: string } };
  /** Subscriptions made by completeCheckout, by id. */
  subscriptions: Map<string, StandInSubscription>;
  /**
   * A payment-mode Checkout Session (a year paid at once, decision 056) is paid: the
   * stand-in makes its PaymentIntent and answers the signed events Stripe sends. With
   * `async` (as a delayed method may) the completion says `unpaid` and the outcome comes
   * later: `asyncSucceeded` or `asyncFailed`. `intentSucceeded` / `intentFailed` are the
   * PaymentIntent's own events about the same payment.
   */
  completePayment(sessionId: string, opts?: { async?: boolean; fail?: boolean }): StandInPayment;
  /** A payment-mode session nobody paid: Stripe expires it (`checkout.session.expired`). */
  expireSession(sessionId: string): { payload: string; signature: string };
  /** PaymentIntents made by completePayment, by id, with what was refunded of each. */
  paymentIntents: Map<string, { amount: number; currency: string; refunded: number; metadata: Record<string, string> }>;
  /** Forget failures still pending from failNext (so one test's leftovers cannot fail the next). */
  clearFailures(): void;
  close(): Promise<void>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StripeRequest[] = [];
  const invoices = new Map<string, StandInInvoice>();
  /** Refunds made (decision 041), and each idempotency key's answer. */
  const refunds: Array<{ id: string; amount: number; payment_intent: string | null }> = [];
  const refundsByKey = new Map<string, unknown>();
  /** Subscriptions cancelled at once: Stripe answers them as canceled and will not cancel them again. */
  const cancelled = new Set<string>();
  let failures: { status: number; times: number } | null = null;
  let routeFailure: { route: RegExp; status: number } | null = null;
  let invoiceTax = 0;
  let n = 0;
  let standInNow: number | null = null;
  const nowSeconds = () => Math.floor((standInNow ?? Date.now()) / 1000);
  /** Checkout Sessions made through the API, by id (for completeCheckout). */
  const sessions = new Map<string, Record<string, unknown>>();
  const subscriptions = new Map<string, StandInSubscription>();
  const paymentIntents: StripeStandIn["paymentIntents"] = new Map();
  /** A session as the API answers it (the stand-in's own bookkeeping left out). */
  const publicSession = (made: Record<string, unknown>) => {
    const { trialEnd: _t, unitAmount: _u, interval: _i, subscriptionMetadata: _m, intentMetadata: _im, ...body } = made;
    return body;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const form = Object.fromEntries(new URLSearchParams(body));
      const path = (req.url ?? "/").split("?")[0]!;
      requests.push({ method: req.method ?? "GET", path, form, headers: req.headers });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${++n}` });
        res.end(JSON.stringify(json));
      };
      if (routeFailure && routeFailure.route.test(`${req.method} ${path}`)) {
        const { status } = routeFailure;
        routeFailure = null;
        return send(status, { error: { type: "invalid_request_error", message: "stand-in failure" } });
      }
      if (failures && failures.times > 0) {
        failures.times--;
        return send(failures.status, { error: { type: "api_error", message: "stand-in failure" } });
      }
      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const id = `cs_test_${++n}`;
        const metadata = Object.fromEntries(
          Object.entries(form)
            .filter(([k]) => /^metadata\[[^\]]+\]$/.test(k))
            .map(([k, v]) => [k.slice("metadata[".length, -1), v]),
        );
        const trialEnd = form["subscription_data[trial_end]"] ? Number(form["subscription_data[trial_end]"]) : null;
        // As Stripe: a Checkout trial must end at least 48 hours after the session is made.
        if (trialEnd != null && trialEnd < nowSeconds() + 48 * 3600) {
          return send(400, {
            error: {
              type: "invalid_request_error",
              param: "subscription_data[trial_end]",
              message: "`subscription_data[trial_end]` must be at least 48 hours in the future.",
            },
          });
        }
        const unitAmount = Number(form["line_items[0][price_data][unit_amount]"]);
        const methodTypes = Object.entries(form)
          // `allowed_payment_method_types` since API version 2026-10-28; `payment_method_types` before.
          .filter(([k]) => /^(allowed_)?payment_method_types\[\d+\]$/.test(k))
          .map(([, v]) => v);
        // As Stripe: Swish takes Swedish kronor only, and a one-time method needs payment mode.
        const currency = form["line_items[0][price_data][currency]"];
        if (methodTypes.includes("swish") && currency !== "sek") {
          return send(400, {
            error: {
              type: "invalid_request_error",
              param: "allowed_payment_method_types",
              message: "The payment method `swish` does not support the currency " + currency + ".",
            },
          });
        }
        const session = {
          id,
          object: "checkout.session",
          mode: form.mode,
          url: `${standInUrl}/c/pay/${id}`,
          client_reference_id: form.client_reference_id ?? null,
          currency: form["line_items[0][price_data][currency]"],
          // What is due today: nothing during a trial.
          amount_total: trialEnd == null ? unitAmount : 0,
          metadata,
          status: "open",
          payment_status: "unpaid",
          payment_method_types: methodTypes.length > 0 ? methodTypes : ["card"],
          payment_intent: null,
          locale: form.locale ?? null,
        };
        sessions.set(id, {
          ...session,
          intentMetadata: Object.fromEntries(
            Object.entries(form)
              .filter(([k]) => /^payment_intent_data\[metadata\]\[[^\]]+\]$/.test(k))
              .map(([k, v]) => [k.slice("payment_intent_data[metadata][".length, -1), v]),
          ),
          trialEnd,
          unitAmount,
          interval: form["line_items[0][price_data][recurring][interval]"] === "month" ? "month" : "year",
          subscriptionMetadata: Object.fromEntries(
            Object.entries(form)
              .filter(([k]) => /^subscription_data\[metadata\]\[[^\]]+\]$/.test(k))
              .map(([k, v]) => [k.slice("subscription_data[metadata][".length, -1), v]),
          ),
        });
        return send(200, session);
      }
      const oneSession = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(path);
      if (oneSession && req.method === "GET") {
        const made = sessions.get(oneSession[1]!);
        if (!made) return send(404, { error: { type: "invalid_request_error", message: "No such checkout session." } });
        return send(200, publicSession(made));
      }
      // The hosted checkout page the session's url points to (browser tests land here).
      if (req.method === "GET" && path === "/favicon.ico") {
        res.writeHead(204);
        res.end();
        return;
      }
      if (req.method === "GET" && path.startsWith("/c/pay/")) {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        res.end(
          '<!doctype html><html lang="en"><title>Stand-in checkout</title><h1>Stand-in Stripe checkout</h1></html>',
        );
        return;
      }
      // Customer Portal sessions ("Manage payment"): the portal of the given customer.
      if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
        if (!form.customer) {
          return send(400, { error: { type: "invalid_request_error", message: "Missing required param: customer." } });
        }
        const id = `bps_test_${++n}`;
        return send(200, {
          id,
          object: "billing_portal.session",
          customer: form.customer,
          return_url: form.return_url ?? null,
          locale: form.locale ?? null,
          livemode: false,
          url: `${standInUrl}/p/session/${id}?customer=${encodeURIComponent(form.customer)}`,
        });
      }
      if (req.method === "GET" && path.startsWith("/p/session/")) {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        res.end(
          '<!doctype html><html lang="en"><title>Stand-in portal</title><h1>Stand-in customer portal</h1></html>',
        );
        return;
      }
      const metadataOf = () =>
        Object.fromEntries(
          Object.entries(form)
            .filter(([k]) => /^metadata\[[^\]]+\]$/.test(k))
            .map(([k, v]) => [k.slice("metadata[".length, -1), v]),
        );
      // Invoice payment (decision 027): customer → draft invoice → its items → finalize → send.
      if (req.method === "POST" && path === "/v1/customers") {
        return send(200, {
          id: `cus_test_${++n}`,
          object: "customer",
          name: form.name ?? null,
          email: form.email ?? null,
          tax_exempt: form.tax_exempt ?? "none",
          metadata: metadataOf(),
        });
      }
      if (req.method === "POST" && path === "/v1/invoices") {
        if (!form.customer) {
          return send(400, { error: { type: "invalid_request_error", message: "Missing required param: customer." } });
        }
        const id = `in_test_${++n}`;
        const invoice: StandInInvoice = {
          id,
          object: "invoice",
          customer: form.customer,
          status: "draft",
          collection_method: form.collection_method ?? "charge_automatically",
          days_until_due: form.days_until_due ? Number(form.days_until_due) : null,
          currency: form.currency ?? "sek",
          metadata: metadataOf(),
          footer: form.footer ?? null,
          total: invoiceTax,
          amount_due: invoiceTax,
          amount_paid: 0,
          number: null,
          due_date: null,
          hosted_invoice_url: null,
          billing_reason: "manual",
          lines: { object: "list", data: [] },
        };
        invoices.set(id, invoice);
        return send(200, invoice);
      }
      if (req.method === "POST" && path === "/v1/invoiceitems") {
        const invoice = form.invoice ? invoices.get(form.invoice) : undefined;
        if (!invoice || invoice.status !== "draft") {
          return send(400, { error: { type: "invalid_request_error", message: "No such draft invoice." } });
        }
        const line = {
          id: `il_test_${++n}`,
          amount: Number(form.amount),
          description: form.description ?? "",
          currency: form.currency ?? invoice.currency,
        };
        invoice.lines.data.push(line);
        invoice.total += line.amount;
        invoice.amount_due = invoice.total;
        return send(200, { ...line, id: `ii_test_${n}`, object: "invoiceitem", invoice: invoice.id });
      }
      const one = /^\/v1\/invoices\/([\w-]+)$/.exec(path);
      if (one && req.method === "GET") {
        const invoice = invoices.get(one[1]!);
        if (!invoice) return send(404, { error: { type: "invalid_request_error", message: "No such invoice." } });
        return send(200, invoice);
      }
      const inv = /^\/v1\/invoices\/([\w-]+)\/(finalize|send|void)$/.exec(path);
      if (inv && req.method === "POST") {
        const invoice = invoices.get(inv[1]!);
        if (!invoice) return send(404, { error: { type: "invalid_request_error", message: "No such invoice." } });
        // Like Stripe: only an open (finalized, unpaid) invoice can be voided.
        if (inv[2] === "void") {
          if (invoice.status !== "open" && invoice.status !== "void") {
            return send(400, {
              error: { type: "invalid_request_error", message: "Only open invoices can be voided." },
            });
          }
          invoice.status = "void";
          return send(200, invoice);
        }
        if (inv[2] === "finalize" && invoice.status === "draft") {
          invoice.status = "open";
          invoice.number = `STANDIN-${String(invoices.size).padStart(4, "0")}`;
          invoice.due_date = Math.floor(Date.now() / 1000) + (invoice.days_until_due ?? 30) * 86_400;
          invoice.hosted_invoice_url = `${standInUrl}/i/${invoice.id}`;
        }
        if (inv[2] === "send" && invoice.status !== "open") {
          return send(400, { error: { type: "invalid_request_error", message: "Finalize the invoice first." } });
        }
        return send(200, invoice);
      }
      if (req.method === "GET" && path.startsWith("/i/")) {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        res.end(
          '<!doctype html><html lang="en"><title>Stand-in invoice</title><h1>Stand-in Stripe invoice</h1></html>',
        );
        return;
      }
      const sub = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path);
      // A withdrawal's refund (decision 041): the subscription's latest invoice, its paid
      // payment's PaymentIntent, and the refund (one per idempotency key, as Stripe answers a retry).
      if (sub && req.method === "GET") {
        const made = subscriptions.get(sub[1]!);
        if (made) {
          const { paid: _paid, amount: _amount, interval: _interval, ...body } = made;
          return send(200, body);
        }
        return send(200, {
          id: sub[1],
          object: "subscription",
          status: cancelled.has(sub[1]!) ? "canceled" : "active",
          latest_invoice: `in_first_${sub[1]}`,
          metadata: {},
        });
      }
      if (req.method === "GET" && path === "/v1/invoice_payments") {
        const invoice = new URL(req.url ?? "/", standInUrl).searchParams.get("invoice") ?? "";
        // A trial's zero invoice has no payment to refund.
        const ofTrial = [...subscriptions.values()].some((s) => s.paid.get(invoice) === 0);
        if (ofTrial) return send(200, { object: "list", url: "/v1/invoice_payments", has_more: false, data: [] });
        return send(200, {
          object: "list",
          url: "/v1/invoice_payments",
          has_more: false,
          data: [
            {
              id: `inpay_${invoice}`,
              object: "invoice_payment",
              invoice,
              status: "paid",
              payment: { type: "payment_intent", payment_intent: `pi_${invoice}` },
            },
          ],
        });
      }
      if (req.method === "POST" && path === "/v1/refunds") {
        const key = String(req.headers["idempotency-key"] ?? "");
        const earlier = key ? refundsByKey.get(key) : undefined;
        if (earlier) return send(200, earlier);
        // A PaymentIntent of a year paid at once: as Stripe, never more back than was paid.
        const intent = form.payment_intent ? paymentIntents.get(form.payment_intent) : undefined;
        if (intent && intent.refunded + Number(form.amount) > intent.amount) {
          return send(400, {
            error: {
              type: "invalid_request_error",
              code: "charge_already_refunded",
              message: "Refund amount exceeds what remains of the payment.",
            },
          });
        }
        if (intent) intent.refunded += Number(form.amount);
        const refund = {
          id: `re_test_${++n}`,
          object: "refund",
          amount: Number(form.amount),
          payment_intent: form.payment_intent ?? null,
          reason: form.reason ?? null,
          status: "succeeded",
          metadata: metadataOf(),
        };
        if (key) refundsByKey.set(key, refund);
        refunds.push(refund);
        return send(200, refund);
      }
      if (sub && req.method === "POST") {
        return send(200, {
          id: sub[1],
          object: "subscription",
          status: "active",
          cancel_at: form.cancel_at ? Number(form.cancel_at) : null,
          cancel_at_period_end: form.cancel_at_period_end === "true",
          metadata: {},
        });
      }
      // Cancelling a subscription at once (a second payment for items already paid).
      if (sub && req.method === "DELETE") {
        if (cancelled.has(sub[1]!)) {
          return send(400, {
            error: {
              type: "invalid_request_error",
              code: "resource_missing",
              message: `No such subscription: '${sub[1]}'`,
            },
          });
        }
        cancelled.add(sub[1]!);
        const made = subscriptions.get(sub[1]!);
        if (made) made.status = "canceled";
        return send(200, { id: sub[1], object: "subscription", status: "canceled", metadata: {} });
      }
      send(404, { error: { type: "invalid_request_error", message: `No such route: ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const standInUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: standInUrl,
    requests,
    invoices,
    refunds,
    failNext(status, times = 1) {
      failures = { status, times };
    },
    failOn(route, status) {
      routeFailure = { route, status };
    },
    setInvoiceTax(amount) {
      invoiceTax = amount;
    },
    setNow(ms) {
      standInNow = ms;
    },
    subscriptions,
    completeCheckout(sessionId) {
      const made = sessions.get(sessionId);
      if (!made) throw new Error(`no such checkout session: ${sessionId}`);
      const trialEnd = made.trialEnd as number | null;
      const amount = made.unitAmount as number;
      const subscriptionId = `sub_test_${++n}`;
      const customer = `cus_test_${++n}`;
      const invoiceId = `in_test_${++n}`;
      const first = trialEnd == null ? amount : 0;
      const metadata = made.subscriptionMetadata as Record<string, string>;
      subscriptions.set(subscriptionId, {
        id: subscriptionId,
        object: "subscription",
        status: trialEnd == null ? "active" : "trialing",
        customer,
        trial_end: trialEnd,
        latest_invoice: invoiceId,
        metadata,
        amount,
        currency: String(made.currency),
        interval: made.interval as "month" | "year",
        paid: new Map([[invoiceId, first]]),
      });
      const now = nowSeconds();
      const session = {
        ...publicSession(made),
        status: "complete",
        // Stripe's answer for a checkout that charged nothing (a trial).
        payment_status: trialEnd == null ? "paid" : "no_payment_required",
        subscription: subscriptionId,
        customer,
      };
      const start = now;
      const end = trialEnd ?? addInterval(now, made.interval as "month" | "year");
      return {
        subscriptionId,
        session,
        completed: signedEvent({
          id: `evt_cs_${++n}`,
          type: "checkout.session.completed",
          created: now,
          data: { object: session },
        }),
        firstInvoicePaid: signedEvent({
          id: `evt_in_${++n}`,
          type: "invoice.paid",
          created: now,
          data: {
            object: subscriptionInvoice(invoiceId, subscriptionId, customer, metadata, {
              amount: first,
              currency: String(made.currency),
              billingReason: "subscription_create",
              start,
              end,
              paidAt: now,
            }),
          },
        }),
      };
    },
    endTrial(subscriptionId) {
      const made = subscriptions.get(subscriptionId);
      if (!made || made.trial_end == null) throw new Error(`no subscription on trial: ${subscriptionId}`);
      if (made.status === "canceled")
        throw new Error(`subscription ${subscriptionId} was cancelled: nothing is charged`);
      const invoiceId = `in_test_${++n}`;
      made.status = "active";
      made.latest_invoice = invoiceId;
      made.paid.set(invoiceId, made.amount);
      const start = made.trial_end;
      return {
        invoiceId,
        invoicePaid: signedEvent({
          id: `evt_in_${++n}`,
          type: "invoice.paid",
          created: start,
          data: {
            object: subscriptionInvoice(invoiceId, subscriptionId, made.customer, made.metadata, {
              amount: made.amount,
              currency: made.currency,
              billingReason: "subscription_cycle",
              start,
              end: addInterval(start, made.interval),
              paidAt: start,
            }),
          },
        }),
      };
    },
    paymentIntents,
    completePayment(sessionId, opts = {}) {
      const made = sessions.get(sessionId);
      if (!made || made.mode !== "payment") throw new Error(`no payment-mode checkout session: ${sessionId}`);
      const paymentIntentId = `pi_test_${++n}`;
      const amount = made.unitAmount as number;
      const currency = String(made.currency);
      const metadata = made.intentMetadata as Record<string, string>;
      if (!opts.fail) paymentIntents.set(paymentIntentId, { amount, currency, refunded: 0, metadata });
      made.payment_intent = paymentIntentId;
      made.status = "complete";
      made.payment_status = opts.async || opts.fail ? "unpaid" : "paid";
      const now = nowSeconds();
      const session = publicSession(made);
      const event = (type: string, object: Record<string, unknown>) =>
        signedEvent({ id: `evt_${type.replace(/\W/g, "_")}_${++n}`, type, created: now, data: { object } });
      const intent = (status: string) => ({
        id: paymentIntentId,
        object: "payment_intent",
        amount,
        amount_received: status === "succeeded" ? amount : 0,
        currency,
        status,
        metadata,
        payment_method_types: made.payment_method_types,
      });
      return {
        paymentIntentId,
        session,
        completed: event("checkout.session.completed", session),
        asyncSucceeded: event("checkout.session.async_payment_succeeded", { ...session, payment_status: "paid" }),
        asyncFailed: event("checkout.session.async_payment_failed", { ...session, payment_status: "unpaid" }),
        intentSucceeded: event("payment_intent.succeeded", intent("succeeded")),
        intentFailed: event("payment_intent.payment_failed", intent("requires_payment_method")),
      };
    },
    expireSession(sessionId) {
      const made = sessions.get(sessionId);
      if (!made) throw new Error(`no such checkout session: ${sessionId}`);
      made.status = "expired";
      return signedEvent({
        id: `evt_expired_${++n}`,
        type: "checkout.session.expired",
        created: nowSeconds(),
        data: { object: publicSession(made) },
      });
    },
    clearFailures() {
      failures = null;
      routeFailure = null;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One period after `seconds` (calendar months in UTC, as Stripe bills). */
function addInterval(seconds: number, interval: "month" | "year"): number {
  const d = new Date(seconds * 1000);
  d.setUTCMonth(d.getUTCMonth() + (interval === "year" ? 12 : 1));
  return Math.floor(d.getTime() / 1000);
}

/** A subscription's invoice as Stripe sends it (API 2025+: parent.subscription_details). */
function subscriptionInvoice(
  id: string,
  subscription: string,
  customer: string,
  metadata: Record<string, string>,
  p: { amount: number; currency: string; billingReason: string; start: number; end: number; paidAt: number },
): Record<string, unknown> {
  return {
    id,
    object: "invoice",
    customer,
    status: "paid",
    currency: p.currency,
    total: p.amount,
    amount_due: p.amount,
    amount_paid: p.amount,
    billing_reason: p.billingReason,
    status_transitions: { paid_at: p.paidAt },
    parent: { type: "subscription_details", subscription_details: { subscription, metadata } },
    lines: {
      object: "list",
      data: [{ id: `il_${id}`, amount: p.amount, currency: p.currency, period: { start: p.start, end: p.end } }],
    },
    metadata: {},
  };
}

const signer = new Stripe(TEST_STRIPE_KEY);

/** A Stripe event as the webhook receives it, with a valid (or given) signature header. */
export function signedEvent(
  event: { id: string; type: string; created?: number; data: { object: Record<string, unknown> } },
  secret = TEST_WEBHOOK_SECRET,
): { payload: string; signature: string } {
  const payload = JSON.stringify({
    object: "event",
    api_version: Stripe.API_VERSION,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    created: Math.floor(Date.now() / 1000),
    ...event,
  });
  return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret }) };
}

/**
 * The seller's settings production with Stripe cannot start without: the
 * servers under test run with NODE_ENV=production.
 */
export const TEST_SELLER_ENV = {
  COMPANY_NAME: "Hittad Test AB",
  COMPANY_ORG_NR: "559000-1234",
  // A seller that charges VAT needs its VAT number in production (decision 052).
  COMPANY_VAT_NR: "SE559000123401",
  COMPANY_ADDRESS: "Testgatan 1\\n111 11 Stockholm",
  COMPANY_EMAIL: "seller@hittad.test",
} as const;

/** The server's environment for payments through the stand-in (PAYMENTS=stripe). */
export function stripeEnv(stripe: Pick<StripeStandIn, "url">): Record<string, string> {
  return {
    ...TEST_SELLER_ENV,
    PAYMENTS: "stripe",
    STRIPE_SECRET_KEY: TEST_STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
  };
}

/**
 * A signed `checkout.session.completed` for an order: its subscription's first payment.
 * `object` overrides or adds Checkout Session fields (amount_total and currency at least);
 * the event id defaults to `evt_cs_<orderId>`, its time to now.
 */
export function checkoutCompleted(
  orderId: string,
  object: Record<string, unknown>,
  event: { id?: string; created?: number } = {},
): { payload: string; signature: string } {
  return signedEvent({
    id: event.id ?? `evt_cs_${orderId}`,
    type: "checkout.session.completed",
    created: event.created ?? Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: "cs_test_x",
        object: "checkout.session",
        mode: "subscription",
        payment_status: "paid",
        status: "complete",
        client_reference_id: orderId,
        metadata: { orderId },
        subscription: `sub_${orderId.slice(0, 8)}`,
        customer: "cus_123",
        ...object,
      },
    },
  });
}

/**
 * A signed invoice event (decision 027: invoice.paid, invoice.payment_failed,
 * invoice.overdue, invoice.voided) for an invoice the stand-in made; `object` overrides
 * fields (amount_paid, status, …). The event id defaults to `evt_<type>_<invoice id>`.
 */
export function invoiceEvent(
  type: string,
  invoice: StandInInvoice,
  object: Record<string, unknown> = {},
  event: { id?: string; created?: number } = {},
): { payload: string; signature: string } {
  return signedEvent({
    id: event.id ?? `evt_${type.replace(/\W/g, "_")}_${invoice.id}`,
    type,
    created: event.created ?? Math.floor(Date.now() / 1000),
    data: { object: { ...invoice, ...object } },
  });
}
