/**
 * Withdrawing from an order placed ahead for prepaid items (decisions 036 and 041): the 14
 * days run from the order, but no day of the service is paid for before its start, so a
 * withdrawal before it gives back everything paid (with Stripe's trial nothing was paid:
 * the subscription is cancelled, nothing refunded) and the items stay prepaid until then.
 * After the start the days used count from the start.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "~/i18n/resources.server";
import { isItemPaid } from "~/lib/domain/paid";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { claimPackSticker, signUpOwner } from "../../../tests/support/service-fixtures";
import { startStripeStandIn, stripeEnv, type StripeStandIn } from "../../../tests/support/stripe";
import { completeTestPayment, createOrder, startCheckout } from "./checkout.service.server";
import { DAY_MS } from "~/lib/domain/dates";
import { handleStripeEvent, verifyStripeEvent } from "./stripe-webhook.server";
import { getWithdrawalPreview, withdrawOrder } from "./withdrawal.service.server";

vi.setConfig({ testTimeout: 30_000 });

const START = Date.UTC(2026, 10, 23, 12);

let deps: ServiceTestDeps;
afterEach(async () => {
  await deps.close();
});

/** A verified owner of an item claimed from a sticker prepaid for 6 months, 10 days before its end. */
async function prepaidOwner() {
  const u = await signUpOwner(deps, { prefix: "withdraw-ahead" });
  const { id, until } = await claimPackSticker(deps, u.id);
  return { u, id, until };
}

/** A yearly order for the item placed at `at` (ahead of its prepaid end) and paid with the test provider. */
async function paidYearAhead(userId: string, id: string, at: number) {
  deps.setNow(at);
  const o = await createOrder(deps, { userId, itemIds: [id], period: "year", lang: "en", immediateStart: true });
  await completeTestPayment(deps, { userId, orderId: o.id });
  return o;
}

const item = (id: string) => deps.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const active = async (id: string) => {
  const p = await item(id);
  return isItemPaid({ payed: Number(p.payed) === 1, paidUntil: Number(p.paidUntil) }, deps.clock());
};
const lastMail = (to: string) =>
  deps.db
    .selectFrom("mail_outbox")
    .selectAll()
    .where("to", "=", to)
    .orderBy("createdAt", "desc")
    .executeTakeFirstOrThrow();

describe("withdrawal of an order placed ahead with the test provider", () => {
  beforeEach(async () => {
    deps = await createServiceDeps({}, START);
  });

  it("before the prepaid end everything paid goes back and the item stays prepaid until then", async () => {
    const { u, id, until } = await prepaidOwner();
    const o = await paidYearAhead(u.id, id, until - 10 * DAY_MS);
    deps.setNow(until - 3 * DAY_MS);
    const preview = await getWithdrawalPreview(deps, { userId: u.id, orderId: o.id });
    expect(preview).toMatchObject({
      refund: o.totalAmount,
      kept: 0,
      daysUsed: 0,
      paid: o.totalAmount,
      startsAt: until,
    });
    expect(await withdrawOrder(deps, { userId: u.id, orderId: o.id })).toMatchObject({ refund: o.totalAmount });
    expect(Number((await item(id)).paidUntil)).toBe(until);
    expect(await active(id)).toBe(true);
    const mail = await lastMail(u.email);
    expect(mail.text).toContain("The subscription had not started yet, so you get everything back.");
    expect(mail.text).toContain("These items stay active until");
    deps.setNow(until + 1000);
    expect(await active(id)).toBe(false);
  });

  it("after the prepaid end the days used count from it, not from the order", async () => {
    const { u, id, until } = await prepaidOwner();
    const o = await paidYearAhead(u.id, id, until - 5 * DAY_MS);
    deps.setNow(until + 3 * DAY_MS + 1000);
    const { refund } = await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    expect(refund).toBe(o.totalAmount - Math.floor((o.totalAmount * 3) / 365));
    expect(await active(id)).toBe(false);
  });
});

describe("withdrawal of an order placed ahead with Stripe (a trial until the prepaid end)", () => {
  let stripe: StripeStandIn;
  beforeEach(async () => {
    stripe = await startStripeStandIn();
    deps = await createServiceDeps(stripeEnv(stripe), START);
  });
  afterEach(async () => {
    await stripe.close();
  });

  const deliver = (e: { payload: string; signature: string }) =>
    handleStripeEvent(deps, verifyStripeEvent(deps, Buffer.from(e.payload), e.signature));

  async function orderAhead(userId: string, id: string) {
    const { url } = await startCheckout(deps, {
      userId,
      itemIds: [id],
      period: "year",
      lang: "en",
      immediateStart: true,
    });
    const done = stripe.completeCheckout(url.split("/").pop()!);
    expect(await deliver(done.completed)).toBe("applied");
    const o = await deps.db
      .selectFrom("orders")
      .selectAll()
      .where("subscriptionId", "=", done.subscriptionId)
      .executeTakeFirstOrThrow();
    return { o, sub: done.subscriptionId };
  }

  it("before the first charge the trial is cancelled, nothing is refunded, and the mail says nothing was charged", async () => {
    const { u, id, until } = await prepaidOwner();
    deps.setNow(until - 10 * DAY_MS);
    stripe.setNow(deps.clock());
    const { o, sub } = await orderAhead(u.id, id);
    deps.setNow(until - 9 * DAY_MS);
    expect(await getWithdrawalPreview(deps, { userId: u.id, orderId: o.id })).toMatchObject({ refund: 0, paid: 0 });
    expect(await withdrawOrder(deps, { userId: u.id, orderId: o.id })).toMatchObject({ refund: 0 });
    expect(stripe.subscriptions.get(sub)?.status).toBe("canceled");
    expect(stripe.requests.filter((r) => r.path === "/v1/refunds")).toEqual([]);
    expect(() => stripe.endTrial(sub)).toThrow(/cancelled/);
    const row = await deps.db.selectFrom("orders").selectAll().where("id", "=", o.id).executeTakeFirstOrThrow();
    expect(row.withdrawnAt).not.toBeNull();
    expect(Number(row.refundAmount)).toBe(0);
    expect(row.refundId).toBeNull();
    expect(Number((await item(id)).paidUntil)).toBe(until);
    expect(await active(id)).toBe(true);
    expect((await lastMail(u.email)).text).toContain("Nothing had been charged for this order yet");
  });

  it("after Stripe's first charge at the prepaid end its payment is refunded less the days since then", async () => {
    const { u, id, until } = await prepaidOwner();
    deps.setNow(until - 5 * DAY_MS);
    stripe.setNow(deps.clock());
    const { o, sub } = await orderAhead(u.id, id);
    deps.setNow(until + 60 * 60_000);
    const first = stripe.endTrial(sub);
    expect(await deliver(first.invoicePaid)).toBe("applied");
    deps.setNow(until + 2 * DAY_MS + 1000);
    const { refund } = await withdrawOrder(deps, { userId: u.id, orderId: o.id });
    expect(refund).toBe(o.totalAmount - Math.floor((o.totalAmount * 2) / 365));
    expect(stripe.refunds).toEqual([
      expect.objectContaining({ amount: refund, payment_intent: `pi_${first.invoiceId}` }),
    ]);
    expect(await active(id)).toBe(false);
  });
});
