/**
 * The subscription lifecycle over HTTP (decision 016) against the production
 * server and a real database (SQLite, or PostgreSQL with DATABASE_URL): the Stripe
 * provider against the local stand-in with signed events (checkout → two renewals →
 * failed payment → subscription deleted; duplicates and reordering; the Customer Portal;
 * cancel / resume), receipts (page, PDF read by pdftotext), the billing jobs (reminder
 * once with two instances, abandoned orders) and the test provider's staff simulation.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Payments applied in this process (test provider, jobs) write mails through getT.
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { runBillingJobs } from "../../app/server/orders/billing.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { addMonths } from "../../app/lib/domain/pricing";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import {
  signedEvent,
  checkoutCompleted,
  startStripeStandIn,
  stripeEnv,
  TEST_STRIPE_KEY,
  TEST_WEBHOOK_SECRET,
  type StripeStandIn,
} from "../support/stripe";
import { createUser, type TestUser } from "../support/users";

const label = usingPostgres() ? "PostgreSQL" : "SQLite";
const DAY = 24 * 60 * 60_000;

const ADDRESS = {
  firstname: "Anna",
  lastname: "Svensson",
  email: "anna.billing@example.test",
  co: "",
  address: "Storgatan 1",
  address2: "",
  city: "Uppsala",
  state: "",
  zip: "753 20",
  country: "Sweden",
};

const COMPANY = {
  COMPANY_NAME: "Hittad Sverige AB",
  COMPANY_ORG_NR: "559123-4567",
  COMPANY_VAT_NR: "SE559123456701",
  COMPANY_ADDRESS: "Kungsgatan 1\\n111 43 Stockholm",
};

let seq = 0;
async function owner(rt: Runtime, language: "en" | "sv" = "en"): Promise<TestUser> {
  const u = await createUser(rt, {
    name: "Anna Svensson",
    email: `billing-${++seq}-${Date.now()}@example.test`,
    language,
  });
  await keepOrderAddress(depsOf(rt), u.id, ADDRESS, false);
  return u;
}

const item = (rt: Runtime, u: TestUser, name: string, lang: "en" | "sv" = "en") =>
  createItem(
    depsOf(rt),
    u.id,
    { name, findFee: 100, prodType: "mobile", contactInfo: "Call 070-123", payment: "year", intent: "payLater" },
    lang,
  );
const orderRow = (rt: Runtime, id: string) =>
  rt.database.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const productRow = (rt: Runtime, id: string) =>
  rt.database.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const mailsTo = (rt: Runtime, to: string) =>
  rt.database.db.selectFrom("mail_outbox").selectAll().where("to", "=", to).orderBy("createdAt").execute();
const receiptsOf = (rt: Runtime, orderId: string) =>
  rt.database.db.selectFrom("receipts").selectAll().where("orderId", "=", orderId).orderBy("number").execute();

function pdfText(bytes: ArrayBuffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "receipt-")), "r.pdf");
  fs.writeFileSync(file, Buffer.from(bytes));
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

describe(`subscriptions with Stripe (local stand-in) on ${label}`, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  let stripe: StripeStandIn;
  const { get, post } = httpClient(() => server.url);

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    db = await createTestDatabase("billing_stripe");
    const env = testEnv(db, {
      RATE_LIMIT_DISABLED: "1",
      ...stripeEnv(stripe),
      ...COMPANY,
    });
    server = await startServer(env);
    rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  });
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
    await stripe?.close();
  });

  const webhook = async (e: { payload: string; signature: string }) => {
    const res = await fetch(`${server.url}/api/stripe/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": e.signature },
      body: e.payload,
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: string }).result;
  };

  async function paidStripeOrder(u: TestUser, ids: string[], period: "month" | "year", lang: "en" | "sv") {
    const res = await post(
      "/order",
      [["immediateStart", "yes"], ...ids.map((id): [string, string] => ["items", id]), ["payment", period]],
      {
        cookie: u.cookie,
        lang,
      },
    );
    expect(res.status).toBe(302);
    const o = (
      await rt.database.db.selectFrom("orders").selectAll().where("userId", "=", u.id).orderBy("createdAt").execute()
    ).at(-1)!;
    const sub = `sub_${o.id.slice(0, 8)}`;
    const customer = `cus_${o.id.slice(0, 8)}`;
    const paidAt = Date.parse("2026-11-23T12:00:00Z");
    const result = await webhook(
      checkoutCompleted(
        o.id,
        {
          id: `cs_${o.id.slice(0, 8)}`,
          subscription: sub,
          customer,
          amount_total: Number(o.totalAmount),
          currency: o.currency.toLowerCase(),
        },
        { created: paidAt / 1000 },
      ),
    );
    expect(result).toBe("applied");
    return { o, sub, customer, paidAt };
  }

  const invoice = (
    o: { id: string; totalAmount: number; currency: string },
    sub: string,
    evt: string,
    type: "invoice.paid" | "invoice.payment_failed",
    start: number,
    end: number,
    reason = "subscription_cycle",
  ) =>
    signedEvent({
      id: evt,
      type,
      data: {
        object: {
          id: `in_${evt}`,
          object: "invoice",
          billing_reason: reason,
          amount_paid: type === "invoice.paid" ? Number(o.totalAmount) : 0,
          amount_due: Number(o.totalAmount),
          currency: o.currency.toLowerCase(),
          customer: "cus_x",
          status_transitions: { paid_at: type === "invoice.paid" ? start / 1000 : null },
          parent: {
            type: "subscription_details",
            subscription_details: { subscription: sub, metadata: { orderId: o.id } },
          },
          lines: { object: "list", data: [{ period: { start: start / 1000, end: end / 1000 } }] },
        },
      },
    });

  it("checkout → two renewals → failed payment → subscription deleted; duplicates and reordered events change nothing", async () => {
    const u = await owner(rt, "sv");
    const ids = [await item(rt, u, "Svart telefon", "sv"), await item(rt, u, "Röda nycklar", "sv")];
    const { o, sub, paidAt } = await paidStripeOrder(u, ids, "month", "sv");
    const p1 = addMonths(paidAt, 1);
    const p2 = addMonths(paidAt, 2);
    const p3 = addMonths(paidAt, 3);
    // The subscription's first invoice is the checkout's payment: no second receipt.
    expect(await webhook(invoice(o, sub, "evt_first", "invoice.paid", paidAt, p1, "subscription_create"))).toBe(
      "applied",
    );
    expect(await receiptsOf(rt, o.id)).toHaveLength(1);

    const r1 = invoice(o, sub, "evt_r1", "invoice.paid", p1, p2);
    const r2 = invoice(o, sub, "evt_r2", "invoice.paid", p2, p3);
    // Out of order: the second renewal first.
    expect(await webhook(r2)).toBe("applied");
    expect(await webhook(r1)).toBe("applied");
    expect(Number((await orderRow(rt, o.id)).paidUntil)).toBe(p3);
    for (const id of ids) expect(Number((await productRow(rt, id)).paidUntil)).toBe(p3);
    // Replays: nothing more.
    expect(await webhook(r1)).toBe("duplicate");
    expect(await webhook(r2)).toBe("duplicate");
    const receipts = await receiptsOf(rt, o.id);
    expect(receipts).toHaveLength(3);
    expect(Number(receipts[1]!.number)).toBe(Number(receipts[0]!.number) + 1);
    expect(Number(receipts[2]!.number)).toBe(Number(receipts[1]!.number) + 1);
    const receiptMails = (await mailsTo(rt, u.email)).filter((m) =>
      m.subject.startsWith("Ditt kvitto från Hittad, nr"),
    );
    expect(receiptMails).toHaveLength(2);
    expect(receiptMails[0]!.text).toContain("Hej Anna!");
    expect(receiptMails[0]!.text).toContain("Varav moms (25 %)");

    // The renewal after p3 fails: mail with the link, dashboard warning, items still active.
    const failed = invoice(o, sub, "evt_fail", "invoice.payment_failed", p3, addMonths(paidAt, 4));
    expect(await webhook(failed)).toBe("applied");
    expect(await webhook(failed)).toBe("duplicate");
    const failMails = (await mailsTo(rt, u.email)).filter(
      (m) => m.subject === "Din betalning till Hittad gick inte igenom",
    );
    expect(failMails).toHaveLength(1);
    expect(failMails[0]!.text).toContain(`${server.url}/order/${o.id}/payment`);
    const dash = await (await get("/dashboard", { cookie: u.cookie, lang: "sv" })).text();
    expect(dash).toContain("Betalningen misslyckades: uppdatera ditt kort");
    expect(dash).toContain("Den senaste betalningen misslyckades");
    expect(dash).toContain("Hantera betalning");
    const before = await (await get(`/product/${ids[0]}`, { lang: "en" })).text();
    expect(before).toContain("Svart telefon");

    // Stripe gives up: the items are unpaid everywhere, the cached finder page is forgotten, one mail.
    const deleted = signedEvent({
      id: "evt_deleted",
      type: "customer.subscription.deleted",
      data: { object: { id: sub, object: "subscription", status: "canceled", metadata: { orderId: o.id } } },
    });
    expect(await webhook(deleted)).toBe("applied");
    expect(await webhook(deleted)).toBe("duplicate");
    for (const id of ids) expect(Number((await productRow(rt, id)).payed)).toBe(0);
    const after = await (await get(`/product/${ids[0]}`, { lang: "en" })).text();
    expect(after).toContain("This item is not paid.");
    expect(after).not.toContain("Svart telefon");
    const ended = (await mailsTo(rt, u.email)).filter((m) => m.subject === "Din Hittad-prenumeration har upphört");
    expect(ended).toHaveLength(1);
    expect(ended[0]!.text).toContain(`${server.url}/order`);
    // A late renewal event of an old period does not bring it back.
    expect(await webhook(invoice(o, sub, "evt_r1_again", "invoice.paid", p1, p2))).toBe("applied");
    expect(Number((await productRow(rt, ids[0]!)).payed)).toBe(0);
  });

  it("the receipt page and PDF carry the seller, VAT and totals, for the owner only", async () => {
    const u = await owner(rt, "sv");
    const ids = [await item(rt, u, "Cykel", "sv")];
    const { o } = await paidStripeOrder(u, ids, "year", "sv");
    const [receipt] = await receiptsOf(rt, o.id);
    const page = await get(`/order/${o.id}/receipt?number=${receipt!.number}`, { cookie: u.cookie, lang: "sv" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Kvitto nr ${receipt!.number}`);
    expect(html).toContain("559123-4567");
    const res = await get(`/order/${o.id}/receipt.pdf`, { cookie: u.cookie, lang: "sv" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const text = pdfText(await res.arrayBuffer());
    for (const s of [
      `Kvitto nr ${receipt!.number}`,
      "Hittad Sverige AB",
      "Org.nr 559123-4567",
      "Momsreg.nr SE559123456701",
      "Kungsgatan 1",
      "111 43 Stockholm",
      "Cykel",
      "Moms 25 %",
      "Totalt",
      "Anna Svensson",
    ]) {
      expect(text).toContain(s);
    }
    const total = Number(o.totalAmount) / 100;
    expect(text).toMatch(new RegExp(`Totalt\\s+${total} kr`));
    expect(text).toMatch(new RegExp(`Moms 25 %\\s+${Number(receipt!.vatAmount) / 100} kr`));
    const other = await owner(rt);
    expect((await get(`/order/${o.id}/receipt.pdf`, { cookie: other.cookie })).status).toBe(404);
    expect((await get(`/order/${o.id}/receipt?number=abc`, { cookie: u.cookie })).status).toBe(404);
    // Listed on the dashboard.
    const dash = await (await get("/dashboard", { cookie: u.cookie, lang: "sv" })).text();
    expect(dash).toContain("Beställningar och kvitton");
    expect(dash).toContain(`/order/${o.id}/receipt.pdf?number=${receipt!.number}`);
  });

  it("Manage payment opens a Customer Portal session for the owner's own customer only", async () => {
    const u = await owner(rt);
    const { o, customer } = await paidStripeOrder(u, [await item(rt, u, "Laptop")], "year", "en");
    const res = await get(`/order/${o.id}/payment`, { cookie: u.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(new RegExp(`^${stripe.url}/p/session/bps_test_\\d+`));
    const req = stripe.requests.filter((r) => r.path === "/v1/billing_portal/sessions").at(-1)!;
    expect(req.form).toMatchObject({ customer, return_url: `${server.url}/dashboard`, locale: "en" });
    const count = stripe.requests.filter((r) => r.path === "/v1/billing_portal/sessions").length;
    const other = await owner(rt);
    expect((await get(`/order/${o.id}/payment`, { cookie: other.cookie })).status).toBe(404);
    expect((await get(`/order/${o.id}/payment`)).headers.get("location")).toBe("/login");
    expect(stripe.requests.filter((r) => r.path === "/v1/billing_portal/sessions")).toHaveLength(count);
    // A failing portal is a translated 502, not a 500.
    stripe.failNext(500, 2);
    expect((await get(`/order/${o.id}/payment`, { cookie: u.cookie })).status).toBe(502);
  });

  it("cancel asks first, goes through Stripe and mails; resume undoes it at Stripe and mails", async () => {
    const u = await owner(rt, "sv");
    const ids = [await item(rt, u, "Väska", "sv"), await item(rt, u, "Paraply", "sv")];
    const { o, sub } = await paidStripeOrder(u, ids, "year", "sv");
    const confirm = await (await get(`/order/${o.id}/cancel`, { cookie: u.cookie, lang: "sv" })).text();
    expect(confirm).toContain("Väska");
    expect(confirm).toContain("Paraply");
    expect(confirm).toContain("Sakerna är aktiva till och med 23 november 2027.");
    expect(confirm).toContain("Inget mer kommer att dras.");
    // The dashboard links to the confirmation instead of cancelling at once.
    const dash = await (await get("/dashboard", { cookie: u.cookie, lang: "sv" })).text();
    expect(dash).toContain(`href="/order/${o.id}/cancel"`);
    const other = await owner(rt);
    expect((await post(`/order/${o.id}/cancel`, {}, { cookie: other.cookie })).status).toBe(404);
    expect((await orderRow(rt, o.id)).renewing).toBe(1);

    const res = await post(`/order/${o.id}/cancel`, {}, { cookie: u.cookie, lang: "sv" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/dashboard?billing=cancelled&order=${o.id}`);
    const upd = stripe.requests.filter((r) => r.path === `/v1/subscriptions/${sub}`).at(-1)!;
    expect(upd.form).toMatchObject({ cancel_at_period_end: "true" });
    const after = await (await get(res.headers.get("location")!, { cookie: u.cookie, lang: "sv" })).text();
    expect(after).toContain("Förnyelsen är avslutad. Sakerna är aktiva till och med 23 november 2027");
    expect(after).toContain("Återuppta förnyelsen");
    // The card says "Active" once, and when it ends.
    expect(after).toContain("Förnyas inte, upphör den 23 november 2027");
    const mails = await mailsTo(rt, u.email);
    expect(mails.at(-1)!.subject).toBe("Förnyelsen av din Hittad-prenumeration är avslutad");
    expect(mails.at(-1)!.text).toContain("Paraply");

    const resume = await post(
      "/dashboard",
      { intent: "resumeRenewal", orderId: o.id },
      { cookie: u.cookie, lang: "sv" },
    );
    expect(resume.status).toBe(302);
    const undo = stripe.requests.filter((r) => r.path === `/v1/subscriptions/${sub}`).at(-1)!;
    expect(undo.form).toMatchObject({ cancel_at: "", cancel_at_period_end: "false" });
    expect(await orderRow(rt, o.id)).toMatchObject({ renewing: 1, endsAt: null });
    expect((await mailsTo(rt, u.email)).at(-1)!.subject).toBe("Din Hittad-prenumeration förnyas igen");
    const resumed = await (await get(resume.headers.get("location")!, { cookie: u.cookie, lang: "sv" })).text();
    expect(resumed).toContain("Förnyelsen är återupptagen.");
    // Resuming twice is a translated 409.
    expect(
      (await post("/dashboard", { intent: "resumeRenewal", orderId: o.id }, { cookie: u.cookie, lang: "sv" })).status,
    ).toBe(409);
  });

  it("the yearly reminder is sent exactly once with two server instances", async () => {
    const u = await owner(rt);
    const { o } = await paidStripeOrder(u, [await item(rt, u, "Camera")], "year", "en");
    const renews = Number((await orderRow(rt, o.id)).paidUntil);
    const second = await createTestRuntime({
      ...testEnv(db, {
        PAYMENTS: "stripe",
        STRIPE_SECRET_KEY: TEST_STRIPE_KEY,
        STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      }),
      BASE_URL: server.url,
    });
    try {
      const at = () => renews - 13 * DAY;
      const jobs = [
        () => runBillingJobs({ ...depsOf(rt), clock: at }, rt.database.dialect),
        () => runBillingJobs({ ...depsOf(second), clock: at }, second.database.dialect),
        () => runBillingJobs({ ...depsOf(rt), clock: at }, rt.database.dialect),
      ];
      // PostgreSQL: at the same moment (advisory lock + claims). SQLite is one server on one
      // file (decision 012): the instances run one after the other.
      const runs = usingPostgres()
        ? await Promise.all(jobs.map((j) => j()))
        : [await jobs[0]!(), await jobs[1]!(), await jobs[2]!()];
      expect(runs.reduce((n, r) => n + (r?.reminders ?? 0), 0)).toBeGreaterThanOrEqual(1);
      await runBillingJobs({ ...depsOf(second), clock: at }, second.database.dialect);
    } finally {
      await second.database.close();
    }
    const reminders = (await mailsTo(rt, u.email)).filter((m) =>
      m.subject.startsWith("Your Hittad subscription renews on"),
    );
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text).toContain("€3");
  });

  it("checkouts abandoned for 24 hours are cancelled and say so; their items can be ordered again", async () => {
    const u = await owner(rt);
    const id = await item(rt, u, "Umbrella");
    const res = await post(
      "/order",
      [
        ["immediateStart", "yes"],
        ["items", id],
        ["payment", "year"],
      ],
      { cookie: u.cookie },
    );
    expect(res.status).toBe(302);
    const o = (await rt.database.db.selectFrom("orders").selectAll().where("userId", "=", u.id).execute()).at(-1)!;
    const pending = await (await get(`/order/complete/${o.id}`, { cookie: u.cookie })).text();
    expect(pending).toContain('aria-live="polite"');
    await runBillingJobs({ ...depsOf(rt), clock: () => Number(o.createdAt) + DAY + 1000 }, rt.database.dialect);
    expect((await orderRow(rt, o.id)).status).toBe("cancelled");
    const page = await (await get(`/order/complete/${o.id}`, { cookie: u.cookie })).text();
    expect(page).toContain("Order not paid");
    expect(
      (
        await post(
          "/order",
          [
            ["immediateStart", "yes"],
            ["items", id],
            ["payment", "year"],
          ],
          { cookie: u.cookie },
        )
      ).status,
    ).toBe(302);
  });
});

describe(`subscriptions with the test provider on ${label}`, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  const { get, post } = httpClient(() => server.url);
  const ADMIN = "staff.billing@example.test";

  beforeAll(async () => {
    db = await createTestDatabase("billing_test");
    const env = testEnv(db, { RATE_LIMIT_DISABLED: "1", ADMIN_EMAILS: ADMIN, ...COMPANY });
    server = await startServer(env);
    rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  });
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
  });

  it("staff simulate a renewal and a failed renewal; owners and others cannot", async () => {
    const u = await owner(rt);
    const id = await item(rt, u, "Keys");
    const o = await createOrder(depsOf(rt), { userId: u.id, itemIds: [id], period: "month", lang: "en" });
    await completeTestPayment(depsOf(rt), { userId: u.id, orderId: o.id });
    const first = Number((await orderRow(rt, o.id)).paidUntil);
    const staff = await createUser(rt, { name: "Staff", email: ADMIN });
    const list = await (await get("/admin/orders", { cookie: staff.cookie })).text();
    expect(list).toContain("Simulate renewal");
    expect((await get("/admin/orders", { cookie: u.cookie })).status).toBe(404);
    expect(
      (await post("/admin/orders", { intent: "simulateRenewal", orderId: o.id }, { cookie: u.cookie })).status,
    ).toBe(404);
    const r = await post("/admin/orders", { intent: "simulateRenewal", orderId: o.id }, { cookie: staff.cookie });
    expect(r.status).toBe(302);
    expect(Number((await orderRow(rt, o.id)).paidUntil)).toBe(addMonths(first, 1));
    expect(await receiptsOf(rt, o.id)).toHaveLength(2);
    const f = await post("/admin/orders", { intent: "simulateFailedRenewal", orderId: o.id }, { cookie: staff.cookie });
    expect(f.status).toBe(302);
    const dash = await (await get("/dashboard", { cookie: u.cookie })).text();
    expect(dash).toContain("Payment failed: update your card");
    expect(dash).toContain("simulated in test mode");
    // Bad input is a 404, never a 500.
    expect(
      (await post("/admin/orders", { intent: "simulateRenewal", orderId: "x" }, { cookie: staff.cookie })).status,
    ).toBe(404);
    // Manage payment in test mode: no card, a clear page.
    const pay = await get(`/order/${o.id}/payment`, { cookie: u.cookie });
    expect(pay.status).toBe(200);
    expect(await pay.text()).toContain("test mode");
  });
});
