/**
 * The consumer's right of withdrawal (decision 041) on an in-memory SQLite through the real
 * migrations, with a clock the test moves: the checkout requires and stores the request to
 * start at once; only the payer of a personal card order withdraws, within 14 days; the
 * refund is pro rata for whole days used (all back without the request); a double submit
 * refunds once; the items stop, an unposted shipment is dropped; the mails.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "~/i18n/resources.server";
import { formatDate } from "~/lib/domain/dates";
import { isItemPaid } from "~/lib/domain/paid";
import type { ProductInput } from "~/lib/forms/product-form";
import { withdrawalRefund } from "~/lib/domain/withdrawal";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { signUpOwner } from "../../../tests/support/service-fixtures";
import { createItem } from "../items/items.service.server";
import { textToHtml } from "../mail/mail.server";
import { createOrganisation } from "../organisations/organisations.service.server";
import { getBillingOverview, getReceipt, simulateRenewal } from "./billing.service.server";
import { completeTestPayment, createOrder, startCheckout } from "./checkout.service.server";
import { DAY_MS } from "~/lib/domain/dates";
import { applyPayment } from "./payment-events.service.server";
import { getWithdrawalPreview, withdrawOrder } from "./withdrawal.service.server";
import { startStripeStandIn, stripeEnv, type StripeStandIn } from "../../../tests/support/stripe";
import { uniqueOrgNumber } from "../../../tests/support/org-numbers";

const ITEM: ProductInput = {
  name: "Black <b>phone</b>",
  findFee: 100,
  prodType: "mobile",
  contactInfo: "Call 070-123",
  contactVisibility: "public",
  payment: "year",
  intent: "payLater",
};

vi.setConfig({ testTimeout: 30_000 });

const START = Date.UTC(2026, 10, 23, 12);
let deps: ServiceTestDeps;
let n = 0;

/** A verified owner with an order address; `n` also numbers the Stripe ids below. */
async function owner(language: "en" | "sv" = "en") {
  n++;
  return signUpOwner(deps, { language, prefix: "withdraw" });
}

async function paidOrder(opts: { period?: "month" | "year"; immediateStart?: boolean; language?: "en" | "sv" } = {}) {
  const language = opts.language ?? "en";
  const u = await owner(language);
  const item = await createItem(deps, u.id, ITEM, language);
  const o = await createOrder(deps, {
    userId: u.id,
    itemIds: [item],
    period: opts.period ?? "year",
    lang: language,
    immediateStart: opts.immediateStart ?? true,
  });
  await completeTestPayment(deps, { userId: u.id, orderId: o.id });
  return { u, item, o };
}

const order = (id: string) => deps.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const mailsTo = (to: string) =>
  deps.db.selectFrom("mail_outbox").selectAll().where("to", "=", to).orderBy("createdAt").execute();
const itemActive = async (id: string) => {
  const p = await deps.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  return isItemPaid(
    { payed: Number(p.payed) === 1, paidUntil: p.paidUntil == null ? null : Number(p.paidUntil) },
    deps.clock(),
  );
};

beforeEach(async () => {
  deps = await createServiceDeps({}, START);
});
afterEach(async () => {
  await deps.close();
});

describe("checkout: the request to start at once", () => {
  it("a consumer's card checkout without the ticked box is refused and makes no order", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    await expect(
      startCheckout(deps, { userId: u.id, itemIds: [item], period: "year", lang: "en" }),
    ).rejects.toMatchObject({ code: "immediateStartRequired" });
    const orders = await deps.db.selectFrom("orders").select("id").where("userId", "=", u.id).execute();
    expect(orders).toHaveLength(0);
  });

  it("the ticked box is stored on the order with its time", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    await startCheckout(deps, { userId: u.id, itemIds: [item], period: "year", lang: "en", immediateStart: true });
    const row = await deps.db.selectFrom("orders").selectAll().where("userId", "=", u.id).executeTakeFirstOrThrow();
    expect(Number(row.immediateStartAt)).toBe(START);
  });

  it("an organisation's checkout is a business purchase: not asked, nothing stored", async () => {
    const u = await owner();
    const org = await createOrganisation(deps, u.id, {
      name: "Withdraw AB",
      orgNumber: uniqueOrgNumber(),
      billingEmail: "billing@withdraw.example",
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "90326",
      invoiceCity: "Umeå",
      invoiceCountry: "SE",
      vatNumber: null,
      deskContact: "Reception",
    });
    const item = await createItem(deps, u.id, ITEM, "en", org);
    await startCheckout(deps, { userId: u.id, itemIds: [item], period: "year", lang: "en", organisationId: org });
    const row = await deps.db.selectFrom("orders").selectAll().where("userId", "=", u.id).executeTakeFirstOrThrow();
    expect(row.immediateStartAt).toBeNull();
  });
});

describe("the first receipt mail repeats the right of withdrawal", () => {
  it("with the link, the deadline and the standard withdrawal form, in Swedish too", async () => {
    const { u, o } = await paidOrder({ language: "sv" });
    const [mail] = await mailsTo(u.email);
    expect(mail!.text).toContain(`http://localhost:3000/order/${o.id}/withdraw`);
    expect(mail!.text).toContain("Standardformulär för utövande av ångerrätt");
    expect(mail!.text).toContain("vill frånträda");
    expect(mail!.text).toContain(`till och med ${formatDate(START + 14 * DAY_MS, "sv")}`);
  });

  it("in English with the model form", async () => {
    const { u } = await paidOrder();
    const [mail] = await mailsTo(u.email);
    expect(mail!.text).toContain("Model withdrawal form");
    expect(mail!.text).toContain("hereby give notice that I/We (*) withdraw");
  });
});

describe("withdrawal", () => {
  it("refunds pro rata for whole days used when the consumer asked to start at once", async () => {
    const { u, o } = await paidOrder({ period: "year" });
    deps.setNow(START + 3 * DAY_MS + 5 * 60 * 60_000);
    const preview = await getWithdrawalPreview(deps, { userId: u.id, orderId: o.id });
    expect(preview.daysUsed).toBe(3);
    expect(preview.periodDays).toBe(365);
    expect(preview.kept).toBe(Math.floor((o.totalAmount * 3) / 365));
    expect(preview.refund + preview.kept).toBe(o.totalAmount);
    const done = await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    expect(done.refund).toBe(preview.refund);
    const row = await order(o.id);
    expect(Number(row.refundAmount)).toBe(preview.refund);
    expect(Number(row.refundedAt)).toBe(deps.clock());
    expect(Number(row.withdrawnAt)).toBe(deps.clock());
    expect(row.refundId).toBe(`test_refund_${o.id}`);
  });

  it("refunds everything when the consumer did not ask for an immediate start", async () => {
    const { u, o } = await paidOrder({ immediateStart: false });
    deps.setNow(START + 10 * DAY_MS);
    const done = await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    expect(done.refund).toBe(o.totalAmount);
  });

  it("rounds in the consumer's favour: a day begun is free, the amount kept rounds down to the öre", () => {
    const paidAt = START;
    const r = withdrawalRefund({
      total: 9900,
      period: "month",
      paidAt,
      immediateStartAt: paidAt,
      now: paidAt + DAY_MS - 1,
    });
    expect(r).toMatchObject({ refund: 9900, kept: 0, daysUsed: 0 });
    const two = withdrawalRefund({
      total: 9900,
      period: "month",
      paidAt,
      immediateStartAt: paidAt,
      now: paidAt + 2 * DAY_MS,
    });
    // 23 Nov + 1 month = 30 days: 9900 × 2 / 30 = 660 exactly; 7 days: 2310.
    expect(two).toMatchObject({ periodDays: 30, daysUsed: 2, kept: 660, refund: 9240 });
    const odd = withdrawalRefund({
      total: 9901,
      period: "month",
      paidAt,
      immediateStartAt: paidAt,
      now: paidAt + 7 * DAY_MS,
    });
    expect(odd.kept).toBe(2310); // 2310.23… rounded down
    expect(odd.refund).toBe(9901 - 2310);
  });

  it("ends the subscription at once and the order's items stop being active", async () => {
    const { u, o, item } = await paidOrder();
    expect(await itemActive(item)).toBe(true);
    deps.setNow(START + DAY_MS);
    await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    expect(await itemActive(item)).toBe(false);
    const row = await order(o.id);
    expect(Number(row.renewing)).toBe(0);
    expect(Number(row.paidUntil)).toBe(deps.clock());
    expect(Number(row.lapsedAt)).toBe(deps.clock());
    // No later renewal revives it (the staff simulation refuses it).
    await expect(simulateRenewal(deps, o.id)).rejects.toMatchObject({ code: "notRenewing" });
  });

  it("is open for 14 Swedish days after the day of the payment and then refused", async () => {
    const { u, o } = await paidOrder();
    // Paid 23 November 13:00 in Stockholm: open to the end of 7 December, Swedish time (decision 052).
    const end = Date.UTC(2026, 11, 7, 23);
    deps.setNow(end - 1);
    await expect(getWithdrawalPreview(deps, { userId: u.id, orderId: o.id })).resolves.toBeTruthy();
    deps.setNow(end);
    await expect(getWithdrawalPreview(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({
      code: "withdrawalExpired",
    });
    await expect(withdrawOrder(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({
      code: "withdrawalExpired",
    });
    expect((await order(o.id)).withdrawnAt).toBeNull();
    // Not offered any more on the dashboard.
    const overview = await getBillingOverview(deps, u.id);
    expect(overview.orders[0]!.withdrawUntil).toBeNull();
  });

  it("is the owner's only: another user gets notFound, as on every order route", async () => {
    const { o } = await paidOrder();
    const other = await owner();
    await expect(getWithdrawalPreview(deps, { userId: other.id, orderId: o.id })).rejects.toMatchObject({
      code: "notFound",
    });
    await expect(withdrawOrder(deps, { userId: other.id, orderId: o.id })).rejects.toMatchObject({ code: "notFound" });
    expect((await order(o.id)).withdrawnAt).toBeNull();
  });

  it("refuses an organisation's order: a business purchase (withdrawalBusiness)", async () => {
    const u = await owner();
    const org = await createOrganisation(deps, u.id, {
      name: "Business AB",
      orgNumber: uniqueOrgNumber(),
      billingEmail: "billing@business.example",
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "90326",
      invoiceCity: "Umeå",
      invoiceCountry: "SE",
      vatNumber: null,
      deskContact: "Reception",
    });
    const item = await createItem(deps, u.id, ITEM, "en", org);
    const o = await createOrder(deps, {
      userId: u.id,
      itemIds: [item],
      period: "year",
      lang: "en",
      organisationId: org,
    });
    await completeTestPayment(deps, { userId: u.id, orderId: o.id });
    await expect(withdrawOrder(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({
      code: "withdrawalBusiness",
    });
    const receipt = await getReceipt(deps, { userId: u.id, orderId: o.id, number: null });
    expect(receipt.withdrawal).toEqual({ kind: "business" });
    const mail = (await mailsTo(u.email)).find((m) => m.subject.includes("receipt") || m.text.includes(o.id));
    expect(mail?.text ?? "").not.toContain("/withdraw");
  });

  it("a double submit refunds once: the second is told it is withdrawn", async () => {
    const { u, o } = await paidOrder();
    deps.setNow(START + 2 * DAY_MS);
    const results = await Promise.allSettled([
      withdrawOrder(deps, { userId: u.id, orderId: o.id }),
      withdrawOrder(deps, { userId: u.id, orderId: o.id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "withdrawn" });
    await expect(withdrawOrder(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({ code: "withdrawn" });
    const confirmations = (await mailsTo(u.email)).filter((m) => m.subject === "You have withdrawn from your order");
    expect(confirmations).toHaveLength(1);
  });

  it("mails the owner the refund and, once posted, which stickers were already sent; untrusted text stays text", async () => {
    const { u, o } = await paidOrder();
    await deps.db
      .updateTable("sticker_shipments")
      .set({ status: "shipped", shippedAt: START + DAY_MS })
      .where("orderId", "=", o.id)
      .execute();
    deps.setNow(START + 2 * DAY_MS);
    await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    const mail = (await mailsTo(u.email)).find((m) => m.subject === "You have withdrawn from your order")!;
    expect(mail.text).toContain("were posted on");
    expect(mail.text).toContain("- Black <b>phone</b>");
    expect(mail.text).toContain("Test mode: the refund is simulated");
    // The outbox makes the HTML part from the text, escaped.
    expect(textToHtml(mail.text)).toContain("Black &lt;b&gt;phone&lt;/b&gt;");
    expect(textToHtml(mail.text)).not.toContain("<b>phone</b>");
  });

  it("drops a shipment not posted yet", async () => {
    const { u, o } = await paidOrder();
    deps.setNow(START + DAY_MS);
    await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    const shipments = await deps.db.selectFrom("sticker_shipments").selectAll().where("orderId", "=", o.id).execute();
    expect(shipments).toHaveLength(0);
    const mail = (await mailsTo(u.email)).find((m) => m.subject === "You have withdrawn from your order")!;
    expect(mail.text).toContain("have not been posted yet");
  });

  it("is linked from the dashboard's order list and the receipt while open, and not after", async () => {
    const { u, o } = await paidOrder();
    const open = await getBillingOverview(deps, u.id);
    // The end of the 14th Swedish day after the payment (decision 052).
    expect(open.orders[0]!.withdrawUntil).toBe(Date.UTC(2026, 11, 7, 23) - 1);
    expect((await getReceipt(deps, { userId: u.id, orderId: o.id, number: null })).withdrawal).toEqual({
      kind: "open",
      until: Date.UTC(2026, 11, 7, 23) - 1,
    });
    await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    const after = await getBillingOverview(deps, u.id);
    expect(after.orders[0]!.withdrawUntil).toBeNull();
    expect(after.orders[0]!.withdrawn).toEqual({ at: START, refund: o.totalAmount });
  });
});

describe("withdrawal with Stripe (the local stand-in speaking Stripe's protocol)", () => {
  let stripe: StripeStandIn;
  beforeEach(async () => {
    stripe = await startStripeStandIn();
    await deps.close();
    deps = await createServiceDeps(stripeEnv(stripe), START);
  });
  afterEach(async () => {
    await stripe.close();
  });

  async function stripeOrder() {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    const o = await createOrder(deps, {
      userId: u.id,
      itemIds: [item],
      period: "year",
      lang: "en",
      immediateStart: true,
    });
    await applyPayment(deps, {
      eventId: `evt_${o.id}`,
      eventType: "checkout.session.completed",
      orderId: o.id,
      subscriptionId: `sub_${n}`,
      customerId: `cus_${n}`,
      paidAt: START,
      amount: { total: o.totalAmount, currency: o.currency },
    });
    return { u, o, item, sub: `sub_${n}` };
  }

  it("cancels the subscription at once and refunds the pro-rata amount of its first payment", async () => {
    const { u, o, sub } = await stripeOrder();
    deps.setNow(START + 4 * DAY_MS);
    const { refund } = await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    expect(refund).toBe(o.totalAmount - Math.floor((o.totalAmount * 4) / 365));
    const calls = stripe.requests.map((r) => `${r.method} ${r.path}`);
    expect(calls).toContain(`DELETE /v1/subscriptions/${sub}`);
    const refundCall = stripe.requests.find((r) => r.method === "POST" && r.path === "/v1/refunds")!;
    expect(refundCall.form).toMatchObject({
      amount: String(refund),
      payment_intent: `pi_in_first_${sub}`,
      reason: "requested_by_customer",
      "metadata[orderId]": o.id,
    });
    expect(refundCall.headers["idempotency-key"]).toBe(`withdraw-${o.id}-refund-${refund}`);
    const row = await order(o.id);
    expect(row.refundId).toBe(stripe.refunds[0]!.id);
    expect(Number(row.refundAmount)).toBe(refund);
    expect(stripe.refunds).toHaveLength(1);
  });

  it("a refund Stripe refuses records nothing and gives the claim back; the retry refunds once", async () => {
    const { u, o } = await stripeOrder();
    stripe.failOn(/^POST \/v1\/refunds$/, 400);
    await expect(withdrawOrder(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({ code: "refundFailed" });
    const failed = await order(o.id);
    expect(failed.withdrawnAt).toBeNull();
    expect(failed.refundedAt).toBeNull();
    await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    await expect(withdrawOrder(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({ code: "withdrawn" });
    expect(stripe.refunds).toHaveLength(1);
    expect(Number((await order(o.id)).refundAmount)).toBe(o.totalAmount);
  });

  it("a withdrawal retried days after a failed refund finishes: the cancelled subscription is not cancelled again, the refund is the day's", async () => {
    const { u, o, sub } = await stripeOrder();
    deps.setNow(START + 2 * DAY_MS);
    stripe.failOn(/^POST \/v1\/refunds$/, 400);
    await expect(withdrawOrder(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({ code: "refundFailed" });
    // Three days later (past Stripe's 24 hours of idempotency): Stripe would refuse a second cancel.
    deps.setNow(START + 5 * DAY_MS);
    const { refund } = await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    expect(refund).toBe(o.totalAmount - Math.floor((o.totalAmount * 5) / 365));
    expect(stripe.requests.filter((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${sub}`)).toHaveLength(
      1,
    );
    expect(stripe.refunds.map((r) => r.amount)).toEqual([refund]);
    expect(Number((await order(o.id)).refundAmount)).toBe(refund);
  });
});
