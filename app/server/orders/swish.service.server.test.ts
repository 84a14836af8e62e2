/**
 * A year paid at once (decision 056) on a real database with a clock the test moves: the
 * Stripe path against the stand-in (payment-mode Checkout with Swish, retried and
 * asynchronous webhooks, failure, refunds to the same PaymentIntent) and the test
 * provider's simulated Swish (renewal from the end, the reminders, the lapse that keeps the
 * relay).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "~/i18n/resources.server";
import { DAY_MS } from "~/lib/domain/dates";
import { isItemPaid } from "~/lib/domain/paid";
import { orderTotals, periodEnd } from "~/lib/domain/pricing";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { signUpOwner } from "../../../tests/support/service-fixtures";
import { startStripeStandIn, stripeEnv, type StripeStandIn } from "../../../tests/support/stripe";
import { createItem } from "../items/items.service.server";
import { hasEarnedLapsedRelay } from "../items/lapsed-relay.repository.server";
import { lapseDueOrders } from "./billing.service.server";
import { completeTestPayment, createOrder, startCheckout } from "./checkout.service.server";
import { getOrderView } from "./order-page.service.server";
import { handleStripeEvent, verifyStripeEvent } from "./stripe-webhook.server";
import { withdrawOrder } from "./withdrawal.service.server";
import { sendYearReminders } from "./year-reminders.service.server";
import { getRenewalOffer, startYearRenewal } from "./year-renewal.service.server";

vi.setConfig({ testTimeout: 30_000 });

const START = Date.UTC(2026, 10, 23, 12);
const PHONE = "070-123 45 67";
const ITEM: ProductInput = {
  name: "Röd cykel",
  findFee: 200,
  prodType: "other",
  contactInfo: "Ring 070-123",
  contactVisibility: "public",
  payment: "year",
  intent: "payLater",
};

let deps: ServiceTestDeps;
afterEach(async () => {
  await deps.close();
});

async function ownerWithItem(language: "en" | "sv" = "sv") {
  const u = await signUpOwner(deps, { language, prefix: "swish" });
  const item = await createItem(deps, u.id, ITEM, language);
  return { u, item };
}

const order = (id: string) => deps.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const orderOf = (userId: string) =>
  deps.db.selectFrom("orders").selectAll().where("userId", "=", userId).orderBy("createdAt").execute();
const product = (id: string) =>
  deps.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const active = async (id: string) => {
  const p = await product(id);
  return isItemPaid(
    { payed: Number(p.payed) === 1, paidUntil: p.paidUntil == null ? null : Number(p.paidUntil) },
    deps.clock(),
  );
};
const receiptsOf = (orderId: string) =>
  deps.db.selectFrom("receipts").selectAll().where("orderId", "=", orderId).orderBy("number").execute();
const shipmentsOf = (orderId: string) =>
  deps.db.selectFrom("sticker_shipments").selectAll().where("orderId", "=", orderId).execute();
const mailsTo = (to: string) =>
  deps.db.selectFrom("mail_outbox").selectAll().where("to", "=", to).orderBy("createdAt").execute();
const yearPrice = (count: number) => orderTotals({ lang: "sv", period: "year", count }).minor.total;

describe("Swish through Stripe (payment mode)", () => {
  let stripe: StripeStandIn;
  beforeEach(async () => {
    stripe = await startStripeStandIn();
    stripe.setNow(START);
    deps = await createServiceDeps(stripeEnv(stripe), START);
  });
  afterEach(async () => {
    await stripe.close();
  });

  const deliver = (e: { payload: string; signature: string }) =>
    handleStripeEvent(deps, verifyStripeEvent(deps, Buffer.from(e.payload), e.signature));

  async function swishCheckout(u: { id: string }, item: string) {
    const { url } = await startCheckout(deps, {
      userId: u.id,
      itemIds: [item],
      period: "year",
      lang: "sv",
      immediateStart: true,
      payWith: "swish",
    });
    const sessionId = url.split("/").pop()!;
    const [o] = await orderOf(u.id);
    return { sessionId, orderId: o!.id };
  }

  it("offers Swish in a payment-mode session, one year in kronor at the server's price", async () => {
    const { u, item } = await ownerWithItem();
    await swishCheckout(u, item);
    const req = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(req.form.mode).toBe("payment");
    expect(req.form["allowed_payment_method_types[0]"]).toBe("swish");
    expect(req.form["line_items[0][price_data][currency]"]).toBe("sek");
    expect(req.form["line_items[0][price_data][unit_amount]"]).toBe(String(yearPrice(1)));
    expect(req.form["line_items[0][price_data][recurring][interval]"]).toBeUndefined();
    expect(req.form["payment_intent_data[metadata][orderId]"]).toBeDefined();
  });

  it("a Swish year activates the items once, however often the webhook is retried", async () => {
    const { u, item } = await ownerWithItem();
    const { sessionId, orderId } = await swishCheckout(u, item);
    const paid = stripe.completePayment(sessionId);
    expect(await deliver(paid.completed)).toBe("applied");
    expect(await deliver(paid.completed)).toBe("duplicate");
    expect(await deliver(paid.intentSucceeded)).toBe("duplicate");
    const o = await order(orderId);
    expect(o).toMatchObject({ status: "paid", paymentKind: "swish", paymentIntentId: paid.paymentIntentId });
    expect(Number(o.renewing)).toBe(0);
    expect(Number(o.paidUntil)).toBe(periodEnd(START, "year"));
    expect(Number((await product(item)).paidUntil)).toBe(periodEnd(START, "year"));
    expect(await receiptsOf(orderId)).toHaveLength(1);
    expect(await shipmentsOf(orderId)).toHaveLength(1);
  });

  it("an asynchronous Swish payment activates only when it succeeds", async () => {
    const { u, item } = await ownerWithItem();
    const { sessionId, orderId } = await swishCheckout(u, item);
    const paid = stripe.completePayment(sessionId, { async: true });
    expect(await deliver(paid.completed)).toBe("ignored");
    expect((await order(orderId)).status).toBe("pending");
    expect(await active(item)).toBe(false);
    expect(await deliver(paid.asyncSucceeded)).toBe("applied");
    expect(await deliver(paid.intentSucceeded)).toBe("duplicate");
    expect(await deliver(paid.asyncSucceeded)).toBe("duplicate");
    expect(await active(item)).toBe(true);
    expect(await receiptsOf(orderId)).toHaveLength(1);
  });

  it("a failed Swish payment activates nothing, and the order says why", async () => {
    const { u, item } = await ownerWithItem();
    const { sessionId, orderId } = await swishCheckout(u, item);
    const failed = stripe.completePayment(sessionId, { fail: true });
    expect(await deliver(failed.completed)).toBe("ignored");
    expect(await deliver(failed.asyncFailed)).toBe("applied");
    expect(await deliver(failed.asyncFailed)).toBe("duplicate");
    expect(await active(item)).toBe(false);
    expect(await receiptsOf(orderId)).toHaveLength(0);
    expect(await shipmentsOf(orderId)).toHaveLength(0);
    const view = await getOrderView(deps, u.id, orderId);
    expect(view).toMatchObject({ status: "cancelled", paid: false, paymentKind: "swish", paymentFailure: "failed" });
  });

  it("an abandoned checkout expires: nothing activated, the order says it expired", async () => {
    const { u, item } = await ownerWithItem();
    const { sessionId, orderId } = await swishCheckout(u, item);
    expect(await deliver(stripe.expireSession(sessionId))).toBe("applied");
    expect(await order(orderId)).toMatchObject({ status: "cancelled", paymentFailure: "expired" });
    expect(await active(item)).toBe(false);
  });

  it("Swish is refused in euro and for the monthly plan, whatever the browser sent", async () => {
    const { u, item } = await ownerWithItem("en");
    const base = { userId: u.id, itemIds: [item], immediateStart: true, payWith: "swish" as const };
    await expect(startCheckout(deps, { ...base, period: "year", lang: "en" })).rejects.toMatchObject({
      code: "payWithUnavailable",
    });
    await expect(startCheckout(deps, { ...base, period: "month", lang: "sv" })).rejects.toMatchObject({
      code: "payWithYearlyOnly",
    });
    expect(await orderOf(u.id)).toHaveLength(0);
    expect(stripe.requests.filter((r) => r.path === "/v1/checkout/sessions")).toHaveLength(0);
  });

  it("a withdrawal refunds the right amount to the same PaymentIntent, pro rata", async () => {
    const { u, item } = await ownerWithItem();
    const { sessionId, orderId } = await swishCheckout(u, item);
    const paid = stripe.completePayment(sessionId);
    await deliver(paid.completed);
    deps.setNow(START + 3 * DAY_MS + 3_600_000);
    const total = yearPrice(1);
    const expected = total - Math.floor((total * 3) / 365);
    expect(await withdrawOrder(deps, { userId: u.id, orderId })).toMatchObject({ refund: expected });
    expect(stripe.refunds).toEqual([
      expect.objectContaining({ amount: expected, payment_intent: paid.paymentIntentId }),
    ]);
    expect(stripe.paymentIntents.get(paid.paymentIntentId)!.refunded).toBe(expected);
    // No subscription to cancel: nothing renews.
    expect(stripe.requests.some((r) => r.path.startsWith("/v1/subscriptions"))).toBe(false);
    expect(await active(item)).toBe(false);
  });
});

describe("Swish with the test provider", () => {
  beforeEach(async () => {
    deps = await createServiceDeps({}, START);
  });

  async function paidYear(u: { id: string }, item: string) {
    const o = await createOrder(deps, {
      userId: u.id,
      itemIds: [item],
      period: "year",
      lang: "sv",
      immediateStart: true,
      payWith: "swish",
    });
    expect(await completeTestPayment(deps, { userId: u.id, orderId: o.id, phone: PHONE })).toBe("applied");
    return order(o.id);
  }

  it("the simulated Swish step needs a Swedish mobile number; declined, it activates nothing", async () => {
    const { u, item } = await ownerWithItem();
    const o = await createOrder(deps, {
      userId: u.id,
      itemIds: [item],
      period: "year",
      lang: "sv",
      immediateStart: true,
      payWith: "swish",
    });
    await expect(completeTestPayment(deps, { userId: u.id, orderId: o.id, phone: "12345" })).rejects.toMatchObject({
      code: "swishNumberInvalid",
    });
    expect(await completeTestPayment(deps, { userId: u.id, orderId: o.id, phone: PHONE, decline: true })).toBe(
      "applied",
    );
    expect(await order(o.id)).toMatchObject({ status: "cancelled", paymentFailure: "declined" });
    expect(await active(item)).toBe(false);
    expect(await receiptsOf(o.id)).toHaveLength(0);
  });

  it("renewing early adds the year to the end: no day is paid twice", async () => {
    const { u, item } = await ownerWithItem();
    const first = await paidYear(u, item);
    const end = Number(first.paidUntil);
    deps.setNow(end - 20 * DAY_MS);
    const offer = await getRenewalOffer(deps, { userId: u.id, orderId: first.id });
    expect(offer).toMatchObject({
      startsAt: end,
      endsAt: periodEnd(end, "year"),
      total: yearPrice(1),
      methods: ["swish"],
    });
    const { url } = await startYearRenewal(deps, {
      userId: u.id,
      orderId: first.id,
      payWith: "swish",
      lang: "en",
      immediateStart: true,
    });
    const renewalId = url.split("/").pop()!;
    expect(await order(renewalId)).toMatchObject({ renewalOf: first.id, currency: "SEK", startsAt: end });
    expect(await completeTestPayment(deps, { userId: u.id, orderId: renewalId, phone: PHONE })).toBe("applied");
    const renewal = await order(renewalId);
    expect(renewal.status).toBe("paid");
    expect(Number(renewal.paidUntil)).toBe(periodEnd(end, "year"));
    expect(Number((await product(item)).paidUntil)).toBe(periodEnd(end, "year"));
    const [receipt] = await receiptsOf(renewalId);
    expect(Number(receipt!.periodStart)).toBe(end);
    // Once renewed, that year is not renewed again.
    await expect(getRenewalOffer(deps, { userId: u.id, orderId: first.id })).rejects.toMatchObject({
      code: "alreadyRenewed",
    });
    // The first year's end is no lapse: the renewal covers the item, and nobody is told it ended.
    deps.setNow(end + 3_600_000);
    const before = (await mailsTo(u.email)).length;
    expect(await lapseDueOrders(deps)).toBe(1);
    expect(await active(item)).toBe(true);
    expect(await mailsTo(u.email)).toHaveLength(before);
  });

  // What the renew page asks about the right of withdrawal (decisions 041, 056): the rule is the
  // service's, whatever the browser sent.
  const renew = (u: { id: string }, orderId: string, immediateStart: boolean) =>
    startYearRenewal(deps, { userId: u.id, orderId, payWith: "swish", lang: "sv", immediateStart });
  const renewalOf = async (url: string) => order(url.split("/").pop()!);

  it("a renewal whose year starts after the 14 days asks nothing, records no request, and a withdrawal gives everything back", async () => {
    const { u, item } = await ownerWithItem();
    const first = await paidYear(u, item);
    const end = Number(first.paidUntil);
    deps.setNow(end - 20 * DAY_MS);
    expect(await getRenewalOffer(deps, { userId: u.id, orderId: first.id })).toMatchObject({
      startsAt: end,
      withdrawal: "afterPeriod",
    });
    // A request sent anyway (a forged box) is not recorded: nothing of the year is used in the 14 days.
    const forged = await renewalOf((await renew(u, first.id, true)).url);
    expect(forged.immediateStartAt).toBeNull();
    const renewal = await renewalOf((await renew(u, first.id, false)).url);
    expect(renewal.immediateStartAt).toBeNull();
    expect(await completeTestPayment(deps, { userId: u.id, orderId: renewal.id, phone: PHONE })).toBe("applied");
    deps.setNow(end - 8 * DAY_MS);
    expect(await withdrawOrder(deps, { userId: u.id, orderId: renewal.id })).toMatchObject({ refund: yearPrice(1) });
  });

  it("a renewal whose year starts within the 14 days needs the request for that day; withdrawn after it, the days used are paid", async () => {
    const { u, item } = await ownerWithItem();
    const first = await paidYear(u, item);
    const end = Number(first.paidUntil);
    deps.setNow(end - 6 * DAY_MS);
    expect(await getRenewalOffer(deps, { userId: u.id, orderId: first.id })).toMatchObject({
      startsAt: end,
      withdrawal: "withinPeriod",
    });
    await expect(renew(u, first.id, false)).rejects.toMatchObject({ code: "renewalStartRequired" });
    expect(await orderOf(u.id)).toHaveLength(1);
    const asked = await renewalOf((await renew(u, first.id, true)).url);
    expect(Number(asked.immediateStartAt)).toBe(end - 6 * DAY_MS);
    expect(await completeTestPayment(deps, { userId: u.id, orderId: asked.id, phone: PHONE })).toBe("applied");
    // Three whole days into the new year, nine after paying: those three days of it are kept.
    deps.setNow(end + 3 * DAY_MS + 3_600_000);
    const total = yearPrice(1);
    const days = Math.round((periodEnd(end, "year") - end) / DAY_MS);
    expect(await withdrawOrder(deps, { userId: u.id, orderId: asked.id })).toMatchObject({
      refund: total - Math.floor((total * 3) / days),
    });
  });

  it("a renewal after the year has ended starts at the payment and needs the request to start at once", async () => {
    const { u, item } = await ownerWithItem();
    const first = await paidYear(u, item);
    deps.setNow(Number(first.paidUntil) + DAY_MS);
    await lapseDueOrders(deps);
    const offer = await getRenewalOffer(deps, { userId: u.id, orderId: first.id });
    expect(offer).toMatchObject({ startsAt: deps.clock(), withdrawal: "atOnce" });
    await expect(renew(u, first.id, false)).rejects.toMatchObject({ code: "immediateStartRequired" });
    const asked = await renewalOf((await renew(u, first.id, true)).url);
    expect(Number(asked.immediateStartAt)).toBe(deps.clock());
  });

  it("a lapsed year behaves as a lapsed subscription: the item is unpaid, the finder page still relays", async () => {
    const { u, item } = await ownerWithItem();
    const paid = await paidYear(u, item);
    deps.setNow(Number(paid.paidUntil) + 3_600_000);
    expect(await lapseDueOrders(deps)).toBe(1);
    expect(await active(item)).toBe(false);
    expect(await hasEarnedLapsedRelay(deps.db, item)).toBe(true);
    const last = (await mailsTo(u.email)).at(-1)!;
    expect(last.subject).toBe("Ditt år med Hittad har tagit slut");
    expect(last.text).toContain(`http://localhost:3000/order/${paid.id}/renew`);
  });

  it("reminds 30 and 7 days before the year ends, each once, in the owner's language with the renewal link", async () => {
    const { u, item } = await ownerWithItem("sv");
    const paid = await paidYear(u, item);
    const end = Number(paid.paidUntil);
    deps.setNow(end - 40 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(0);
    deps.setNow(end - 29 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    expect(await sendYearReminders(deps)).toBe(0);
    const mail = (await mailsTo(u.email)).at(-1)!;
    expect(mail.subject).toMatch(/^Ditt år med Hittad tar slut den /);
    expect(mail.text).toContain(`http://localhost:3000/order/${paid.id}/renew`);
    expect(mail.text).toContain("Röd cykel");
    deps.setNow(end - 6 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    expect(await sendYearReminders(deps)).toBe(0);
  });

  it("a renewed year is not reminded about", async () => {
    const { u, item } = await ownerWithItem();
    const first = await paidYear(u, item);
    deps.setNow(Number(first.paidUntil) - 40 * DAY_MS);
    const { url } = await startYearRenewal(deps, {
      userId: u.id,
      orderId: first.id,
      payWith: "swish",
      lang: "sv",
      immediateStart: true,
    });
    await completeTestPayment(deps, { userId: u.id, orderId: url.split("/").pop()!, phone: PHONE });
    deps.setNow(Number(first.paidUntil) - 29 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(0);
  });
});
