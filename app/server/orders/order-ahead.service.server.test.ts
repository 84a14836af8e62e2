/**
 * Ordering ahead (decision 036): an item prepaid with its sticker may be ordered before its
 * prepaid months end, and the subscription's first period starts at the prepaid end, so
 * no day is paid twice; an item an order covers is still refused.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { periodEnd } from "~/lib/domain/pricing";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { ADDRESS, claimPackSticker, RED_BIKE, signUpOwner } from "../../../tests/support/service-fixtures";
import { createItem, getItemPageView } from "../items/items.service.server";
import { findItemById } from "../access/items.repository.server";
import { keepOrderAddress } from "../order-draft/order-draft.service.server";
import { completeTestPayment, createOrder } from "./checkout.service.server";
import { getOrderPage } from "./order-page.service.server";
import { cancelAbandonedOrders, lapseDueOrders } from "./billing.service.server";
import { STRIPE_TRIAL_MIN_MS } from "~/lib/domain/stripe-trial";
import { startCheckout } from "./checkout.service.server";
import { handleStripeEvent, verifyStripeEvent } from "./stripe-webhook.server";
import { startStripeStandIn, stripeEnv, type StripeStandIn } from "../../../tests/support/stripe";

vi.setConfig({ testTimeout: 30_000 });

let deps: ServiceTestDeps;
let owner: string;
beforeEach(async () => {
  deps = await createServiceDeps();
  owner = (await signUpOwner(deps, { verified: true, address: false, prefix: "ahead" })).id;
  await keepOrderAddress(deps, owner, ADDRESS, false);
});
afterEach(async () => {
  await deps.close();
});

/** An item of the owner claimed from a sticker prepaid for 6 months; its prepaid end. */
const prepaidItem = () => claimPackSticker(deps, owner);

const order = (ids: string[]) => createOrder(deps, { userId: owner, itemIds: ids, period: "year", lang: "en" });

describe("ordering ahead for a prepaid sticker's item (decision 036)", () => {
  it("a prepaid item can be ordered, and once paid it is active until the prepaid end plus the period", async () => {
    const { id, until } = await prepaidItem();
    deps.setNow(until - 10 * 24 * 60 * 60_000);
    const page = await getOrderPage(deps, owner);
    expect(page.items.find((i) => i.id === id)).toMatchObject({ paid: true, ahead: true, paidUntil: until });
    const o = await order([id]);
    expect(await completeTestPayment(deps, { userId: owner, orderId: o.id })).toBe("applied");
    expect((await findItemById(deps.db, id))?.paidUntil).toBe(periodEnd(until, "year"));
    const paid = await deps.db.selectFrom("orders").select(["paidUntil"]).where("id", "=", o.id).executeTakeFirst();
    expect(Number(paid?.paidUntil)).toBe(periodEnd(until, "year"));
  });

  it("an item covered by a paid subscription is still refused, also once ordered ahead", async () => {
    const item = await createItem(deps, owner, RED_BIKE, "en");
    const first = await order([item]);
    await completeTestPayment(deps, { userId: owner, orderId: first.id });
    await expect(order([item])).rejects.toMatchObject({ code: "alreadyPaid" });
    const { id } = await prepaidItem();
    const ahead = await order([id]);
    await completeTestPayment(deps, { userId: owner, orderId: ahead.id });
    await expect(order([id])).rejects.toMatchObject({ code: "alreadyPaid" });
    expect((await getOrderPage(deps, owner)).items.find((i) => i.id === id)?.ahead).toBe(false);
  });

  it("a prepaid item is not ordered together with an unpaid one", async () => {
    const { id } = await prepaidItem();
    const unpaid = await createItem(deps, owner, RED_BIKE, "en");
    await expect(order([id, unpaid])).rejects.toMatchObject({ code: "prepaidMixed" });
  });

  it("a second checkout for a prepaid item is a duplicate once the first is paid", async () => {
    const { id } = await prepaidItem();
    const a = await order([id]);
    const b = await order([id]);
    expect(await completeTestPayment(deps, { userId: owner, orderId: a.id })).toBe("applied");
    await expect(completeTestPayment(deps, { userId: owner, orderId: b.id })).rejects.toMatchObject({
      code: "alreadyPaid",
    });
  });
});

describe("ordering ahead with Stripe: a trial until the prepaid end (decision 036)", () => {
  const DAY = 24 * 60 * 60_000;
  let stripe: StripeStandIn;
  beforeEach(async () => {
    stripe = await startStripeStandIn();
    await deps.close();
    deps = await createServiceDeps(stripeEnv(stripe), Date.UTC(2026, 10, 23, 12));
    owner = (await signUpOwner(deps, { verified: true, address: false, prefix: "ahead-stripe" })).id;
    await keepOrderAddress(deps, owner, ADDRESS, false);
  });
  afterEach(async () => {
    await stripe.close();
  });

  /** Stripe's signed event through the webhook's own verification and handler. */
  const deliver = (e: { payload: string; signature: string }) =>
    handleStripeEvent(deps, verifyStripeEvent(deps, Buffer.from(e.payload), e.signature));
  const orderRow = (id: string) =>
    deps.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const at = (ms: number) => {
    deps.setNow(ms);
    stripe.setNow(ms);
  };
  /** The mail queued last. */
  const latestMail = () =>
    deps.db.selectFrom("mail_outbox").selectAll().orderBy("createdAt", "desc").executeTakeFirstOrThrow();

  async function checkoutAhead(id: string) {
    const { url } = await startCheckout(deps, {
      userId: owner,
      itemIds: [id],
      period: "year",
      lang: "en",
      immediateStart: true,
    });
    const session = url.split("/").pop()!;
    const o = await deps.db
      .selectFrom("orders")
      .selectAll()
      .where("checkoutId", "=", session)
      .executeTakeFirstOrThrow();
    const form = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").pop()!.form;
    return { o, form, done: stripe.completeCheckout(session) };
  }

  it("is offered as with the test provider, charges nothing now and is neither abandoned nor lapsed before the prepaid end", async () => {
    const { id, until } = await prepaidItem();
    at(until - 10 * DAY);
    expect((await getOrderPage(deps, owner)).items.find((i) => i.id === id)?.ahead).toBe(true);
    const page = await getItemPageView(deps, id, owner);
    expect(page.kind === "item" && page.manage).toMatchObject({ prepaidUntil: until, prepaidOffer: true });
    const { o, form, done } = await checkoutAhead(id);
    expect(form["subscription_data[trial_end]"]).toBe(String(Math.floor(until / 1000)));
    expect(Number(o.startsAt)).toBe(until);
    expect(done.session).toMatchObject({ payment_status: "no_payment_required", amount_total: 0 });
    expect(stripe.subscriptions.get(done.subscriptionId)?.status).toBe("trialing");
    expect(await deliver(done.completed)).toBe("applied");
    // The trial's zero invoice pays no period.
    expect(await deliver(done.firstInvoicePaid)).toBe("ignored");
    const row = await orderRow(o.id);
    expect(row).toMatchObject({ status: "paid", subscriptionId: done.subscriptionId });
    expect(Number(row.paidUntil)).toBe(until);
    expect((await findItemById(deps.db, id))?.paidUntil).toBe(until);
    expect(await deps.db.selectFrom("receipts").selectAll().where("orderId", "=", o.id).execute()).toEqual([]);
    const mail = await latestMail();
    expect(mail.subject).toBe("Your Hittad order confirmation");
    expect(mail.text).toContain("Nothing is charged now");
    // A day later, and up to the prepaid end: neither the abandoned-checkout job nor the lapse job touches it.
    at(until - 9 * DAY);
    await cancelAbandonedOrders(deps);
    at(until - 1000);
    await lapseDueOrders(deps);
    expect(await orderRow(o.id)).toMatchObject({ status: "paid", lapsedAt: null });
    await expect(createOrder(deps, { userId: owner, itemIds: [id], period: "year", lang: "en" })).rejects.toMatchObject(
      {
        code: "alreadyPaid",
      },
    );
  });

  it("Stripe's first real invoice at the trial end pays the first period: paidUntil is the prepaid end plus a year, charged once", async () => {
    const { id, until } = await prepaidItem();
    at(until - 10 * DAY);
    const { o, done } = await checkoutAhead(id);
    await deliver(done.completed);
    await deliver(done.firstInvoicePaid);
    at(until + 60 * 60_000);
    const first = stripe.endTrial(done.subscriptionId);
    expect(await deliver(first.invoicePaid)).toBe("applied");
    expect(await deliver(first.invoicePaid)).toBe("duplicate");
    expect(await deliver(done.completed)).toBe("duplicate");
    const row = await orderRow(o.id);
    expect(Number(row.paidUntil)).toBe(periodEnd(until, "year"));
    expect((await findItemById(deps.db, id))?.paidUntil).toBe(periodEnd(until, "year"));
    const mail = await latestMail();
    expect(mail.text).toContain("your subscription has started now that the prepaid period has ended");
    const paid = [...stripe.subscriptions.get(done.subscriptionId)!.paid.values()];
    expect(paid).toEqual([0, o.totalAmount]);
    const receipts = await deps.db.selectFrom("receipts").selectAll().where("orderId", "=", o.id).execute();
    expect(receipts.map((r) => [Number(r.totalAmount), Number(r.periodStart), Number(r.periodEnd)])).toEqual([
      [o.totalAmount, until, periodEnd(until, "year")],
    ]);
  });

  it("in the prepaid months' last 48 hours the trial ends 48 hours from now, the items active until then", async () => {
    const { id, until } = await prepaidItem();
    const now = until - DAY;
    at(now);
    const { o, form, done } = await checkoutAhead(id);
    const trialEnd = Math.floor((now + STRIPE_TRIAL_MIN_MS) / 1000);
    expect(form["subscription_data[trial_end]"]).toBe(String(trialEnd));
    expect(Number((await orderRow(o.id)).startsAt)).toBe(trialEnd * 1000);
    expect(await deliver(done.completed)).toBe("applied");
    expect((await findItemById(deps.db, id))?.paidUntil).toBe(trialEnd * 1000);
  });

  it("a second checkout for the item completing after the first is a duplicate whose trial is cancelled", async () => {
    const { id, until } = await prepaidItem();
    at(until - 10 * DAY);
    const a = await checkoutAhead(id);
    const b = await checkoutAhead(id);
    expect(await deliver(a.done.completed)).toBe("applied");
    expect(await deliver(b.done.completed)).toBe("alreadyCovered");
    expect(stripe.subscriptions.get(b.done.subscriptionId)?.status).toBe("canceled");
    expect((await orderRow(b.o.id)).status).toBe("duplicate");
  });
});
