/**
 * A local stand-in for the Stripe API endpoints the app uses (Checkout Sessions,
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
        return send(200, {
          id,
          object: "checkout.session",
          mode: form.mode,
          url: `${standInUrl}/c/pay/${id}`,
          client_reference_id: form.client_reference_id ?? null,
          currency: form["line_items[0][price_data][currency]"],
          amount_total: Number(form["line_items[0][price_data][unit_amount]"]),
          metadata,
          status: "open",
          payment_status: "unpaid",
        });
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
    clearFailures() {
      failures = null;
      routeFailure = null;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
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
