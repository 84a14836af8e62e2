/**
 * The payment events' rules (payment-events.service.server.ts; decisions 012, 016, 036, 041),
 * on an in-memory SQLite through the real migrations, with a clock the test moves. Each rule
 * is named once; "held by" points at the test that already protects it, the rest are here.
 *
 * applyPayment
 *  1. Each event id counts once: a replay changes nothing.
 *     Held by orders.server.test.ts "a replayed event changes nothing" and
 *     tests/integration/orders.test.ts "checkout.session.completed makes the order paid; a replay changes nothing".
 *  2. An event for no known order is recorded and changes nothing.
 *     Held by tests/integration/orders.test.ts "events for unknown orders … change nothing".
 *  3. An event without the order's id finds it by its subscription. Here.
 *  4. A payment of the wrong amount or currency is not applied. Held by orders.server.test.ts.
 *  5. paidUntil only grows (late, older periods shorten nothing). Held by orders.server.test.ts
 *     and billing.service.server.test.ts "a replayed or late renewal changes nothing".
 *  6. A first payment for items another order already pays activates nothing; the order is a
 *     duplicate and its subscription cancelled at the provider. Held by orders.server.test.ts and
 *     tests/integration/orders.test.ts "a second order paid for items already paid …".
 *  7. A duplicate's subscription the provider refuses to cancel leaves the duplicate recorded
 *     (cancelled by hand). Here.
 *  8. A later payment for an order marked duplicate activates nothing, even once the other
 *     order no longer covers its items. Here.
 *  9. A payment for an order whose item was deleted since its checkout started activates
 *     nothing (decision 017). Held by tests/integration/account.test.ts "item delete cancels a
 *     checkout started for it: paying that checkout later activates nothing …".
 * 10. Nothing revives a withdrawn order (decision 041). Here.
 * 11. A subscription that already ended (events out of order) does not renew once paid. Here.
 * 12. A lapsed order's items stay unpaid for a payment that pays no period beyond now; one
 *     that does revives them. Here.
 * 13. A payment after a failed one clears the warning. Held by billing.service.server.test.ts.
 * 14. The first payment: items active for one period, the 6-month minimum term from the
 *     payment, one shipment, one receipt; Stripe's first invoice is the same payment.
 *     Held by tests/integration/orders.test.ts "pays through the test checkout …" and
 *     billing.service.server.test.ts "the subscription's first invoice after checkout is the same payment".
 * 15. An invoice's payment settles it: no second shipment. Held by tests/integration/invoices.test.ts.
 * 16. Items prepaid with their sticker are not a duplicate; the first period starts at the
 *     prepaid end. Held by order-ahead.service.server.test.ts.
 * 17. The paid items' cached finder pages are forgotten once the payment commits. Here.
 * 17a. The first payment's receipt mail (the orders' listener of orderPaid, in the payment's
 *     transaction) is queued once however often the provider retries, with the receipt the
 *     payment wrote, in the payer's saved language. Here; the mail that waits for a verified
 *     address by tests/integration/receipt-after-verify-service.test.ts.
 * laterEnd
 * 18. An item's end never moves earlier, an item paid without end keeps none, and an unpaid
 *     item's old end counts for nothing. Here (the first two also by orders.server.test.ts).
 * startOrderAhead
 * 19. Paid up to the prepaid end, nothing charged, neither abandoned nor lapsed before it.
 *     Held by order-ahead.service.server.test.ts; its duplicate by the same file.
 * 20. A checkout without payment for an order not placed ahead, or not pending, pays nothing. Here.
 * endSubscription
 * 21. Cancelled by the owner, the items stay active until paidUntil. Held by
 *     tests/integration/orders.test.ts "customer.subscription.deleted stops renewals …".
 * 22. Ended after failed payments, the order lapses at once. Held by billing.service.server.test.ts.
 * 23. Ended with its paid period already over, the order lapses at once and the owner is told. Here.
 * 24. The end the owner chose when cancelling is kept, whatever date the provider sends. Here.
 * 25. A replayed end changes nothing. Here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import "~/i18n/resources.server";
import { DAY_MS } from "~/lib/domain/dates";
import { addMonths, periodEnd } from "~/lib/domain/pricing";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { signUpOwner, type TestOwner } from "../../../tests/support/service-fixtures";
import { itemPageVersion } from "../items/item-page-cache.server";
import { createItem } from "../items/items.service.server";
import { completeTestPayment, createOrder } from "./checkout.service.server";
import type { Order } from "./orders.repository.server";
import { applyPayment, endSubscription, laterEnd, startOrderAhead } from "./payment-events.service.server";
import { cancelRenewal } from "./renewals.service.server";
import { withdrawOrder } from "./withdrawal.service.server";

const ITEM: ProductInput = {
  name: "Blue bag",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  contactVisibility: "public",
  payment: "year",
  intent: "payLater",
};

const START = Date.UTC(2026, 10, 23, 12);
let deps: ServiceTestDeps;
let seq = 0;

// One database for the file (each test makes its own owner, items and orders); the clock starts
// again at START for every test.
beforeAll(async () => {
  deps = await createServiceDeps({}, START);
});
beforeEach(() => {
  deps.setNow(START);
});
afterAll(async () => {
  await deps.close();
});

const orderRow = (id: string) =>
  deps.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const itemRow = (id: string) =>
  deps.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const shipments = (orderId: string) =>
  deps.db.selectFrom("sticker_shipments").select("id").where("orderId", "=", orderId).execute();
const mailsTo = (to: string) => deps.db.selectFrom("mail_outbox").select("subject").where("to", "=", to).execute();
const receiptMailsTo = (to: string) =>
  deps.db
    .selectFrom("mail_outbox")
    .select(["subject", "text", "createdAt"])
    .where("to", "=", to)
    .where("subject", "in", ["Your Hittad receipt", "Ditt kvitto från Hittad"])
    .execute();
const receipts = (orderId: string) =>
  deps.db.selectFrom("receipts").select("number").where("orderId", "=", orderId).orderBy("number").execute();

async function pendingOrder(u?: TestOwner, items?: string[]) {
  const owner = u ?? (await signUpOwner(deps, { prefix: "payev" }));
  const ids = items ?? [await createItem(deps, owner.id, ITEM, "en")];
  const order = await createOrder(deps, {
    userId: owner.id,
    itemIds: ids,
    period: "year",
    lang: "en",
    immediateStart: true,
  });
  return { owner, items: ids, order };
}

async function paidOrder() {
  const p = await pendingOrder();
  await completeTestPayment(deps, { userId: p.owner.id, orderId: p.order.id });
  return p;
}

/** A provider's payment event for the order (the amount the order charges). */
function paymentOf(
  o: Pick<Order, "id" | "totalAmount" | "currency">,
  over: Partial<Parameters<typeof applyPayment>[1]> = {},
) {
  return {
    eventId: `evt_${++seq}`,
    eventType: "invoice.paid",
    orderId: o.id,
    paidAt: deps.clock(),
    amount: { total: o.totalAmount, currency: o.currency },
    ...over,
  };
}

const ended = (orderId: string | null, over: Partial<Parameters<typeof endSubscription>[1]> = {}) => ({
  eventId: `evt_${++seq}`,
  eventType: "customer.subscription.deleted",
  orderId,
  subscriptionId: null,
  endedAt: deps.clock(),
  ...over,
});

describe("applyPayment", () => {
  it("an event without the order's id finds the order by its subscription", async () => {
    const { order, items } = await pendingOrder();
    expect(await applyPayment(deps, paymentOf(order, { subscriptionId: "sub_find" }))).toBe("applied");
    const renewal = paymentOf(order, {
      orderId: null,
      subscriptionId: "sub_find",
      paidAt: START + 360 * DAY_MS,
      periodEnd: START + 730 * DAY_MS,
      kind: "renewal",
    });
    deps.setNow(START + 360 * DAY_MS);
    expect(await applyPayment(deps, renewal)).toBe("applied");
    expect(Number((await orderRow(order.id)).paidUntil)).toBe(START + 730 * DAY_MS);
    expect(Number((await itemRow(items[0]!)).paidUntil)).toBe(START + 730 * DAY_MS);
  });

  it("a duplicate the provider refuses to cancel stays recorded as a duplicate, nothing activated", async () => {
    const first = await pendingOrder();
    const second = await pendingOrder(first.owner, first.items);
    await completeTestPayment(deps, { userId: first.owner.id, orderId: first.order.id });
    const refusing = {
      ...deps,
      payments: {
        ...deps.payments,
        cancelDuplicate: () => Promise.reject(new Error("provider down")),
      },
    };
    expect(await applyPayment(refusing, paymentOf(second.order, { subscriptionId: "sub_dup" }))).toBe("alreadyCovered");
    const row = await orderRow(second.order.id);
    expect(row.status).toBe("duplicate");
    expect(row.subscriptionId).toBe("sub_dup");
    expect(await shipments(second.order.id)).toHaveLength(0);
  });

  it("a later payment for an order marked duplicate activates nothing, even once the other order ended", async () => {
    const first = await pendingOrder();
    const second = await pendingOrder(first.owner, first.items);
    await completeTestPayment(deps, { userId: first.owner.id, orderId: first.order.id });
    expect(await applyPayment(deps, paymentOf(second.order))).toBe("alreadyCovered");
    // The first order's year is over: nothing covers the item any more.
    const firstEnd = Number((await itemRow(first.items[0]!)).paidUntil);
    deps.setNow(firstEnd + DAY_MS);
    const late = paymentOf(second.order, { periodEnd: firstEnd + 365 * DAY_MS, kind: "renewal" });
    expect(await applyPayment(deps, late)).toBe("alreadyCovered");
    const row = await orderRow(second.order.id);
    expect(row.status).toBe("duplicate");
    expect(row.paidUntil).toBeNull();
    expect(Number((await itemRow(first.items[0]!)).paidUntil)).toBe(firstEnd);
    expect(await shipments(second.order.id)).toHaveLength(0);
  });

  it("nothing revives a withdrawn order: a renewal arriving after the withdrawal is not applied", async () => {
    const { owner, order, items } = await paidOrder();
    deps.setNow(START + 2 * DAY_MS);
    await withdrawOrder(deps, { userId: owner.id, orderId: order.id });
    const before = await orderRow(order.id);
    const renewal = paymentOf(order, { periodEnd: START + 730 * DAY_MS, kind: "renewal" });
    expect(await applyPayment(deps, renewal)).toBe("ignored");
    const after = await orderRow(order.id);
    expect(after.paidUntil).toEqual(before.paidUntil);
    expect(after.withdrawnAt).toEqual(before.withdrawnAt);
    expect(Number((await itemRow(items[0]!)).payed)).toBe(0);
  });

  it("a subscription that ended before its payment arrived (events out of order) does not renew", async () => {
    const { order } = await pendingOrder();
    const subscriptionId = "sub_out_of_order";
    await deps.db.updateTable("orders").set({ subscriptionId }).where("id", "=", order.id).execute();
    expect(await endSubscription(deps, ended(order.id, { subscriptionId }))).toBe("applied");
    expect(await applyPayment(deps, paymentOf(order, { subscriptionId }))).toBe("applied");
    const row = await orderRow(order.id);
    expect(row.status).toBe("paid");
    expect(Number(row.renewing)).toBe(0);
    expect(Number(row.endsAt)).toBe(START);
  });

  it("a lapsed order's items stay unpaid for a payment that pays no period beyond now", async () => {
    const { order, items } = await paidOrder();
    const paidUntil = Number((await orderRow(order.id)).paidUntil);
    deps.setNow(paidUntil + 30 * DAY_MS);
    await endSubscription(deps, ended(order.id));
    expect((await orderRow(order.id)).lapsedAt).not.toBeNull();
    // A late invoice for a period that is over by now.
    const late = paymentOf(order, {
      paidAt: paidUntil,
      periodStart: paidUntil,
      periodEnd: paidUntil + 10 * DAY_MS,
      kind: "renewal",
    });
    expect(await applyPayment(deps, late)).toBe("applied");
    expect((await orderRow(order.id)).lapsedAt).not.toBeNull();
    expect(Number((await itemRow(items[0]!)).payed)).toBe(0);
  });

  it("a payment that pays a period beyond now revives a lapsed order and its items", async () => {
    const { order, items } = await paidOrder();
    const paidUntil = Number((await orderRow(order.id)).paidUntil);
    deps.setNow(paidUntil + 30 * DAY_MS);
    await endSubscription(deps, ended(order.id));
    const until = periodEnd(deps.clock(), "year");
    const revival = paymentOf(order, { periodStart: paidUntil, periodEnd: until, kind: "renewal" });
    expect(await applyPayment(deps, revival)).toBe("applied");
    const row = await orderRow(order.id);
    expect(row.lapsedAt).toBeNull();
    expect(Number(row.paidUntil)).toBe(until);
    const item = await itemRow(items[0]!);
    expect(Number(item.payed)).toBe(1);
    expect(Number(item.paidUntil)).toBe(until);
  });

  it("forgets the paid items' cached finder pages once the payment commits", async () => {
    const { order, items } = await pendingOrder();
    const id = items[0]!;
    const key = deps.pageCache.key(`/product/${id}`, "en", false);
    deps.pageCache.set(key, id, (await itemPageVersion(deps.db, id, START))!, [], "<p>not paid</p>", START);
    expect(deps.pageCache.get(key, START)).toBeDefined();
    await applyPayment(deps, paymentOf(order));
    expect(deps.pageCache.get(key, START)).toBeUndefined();
  });

  it("queues the first payment's receipt mail once, with its receipt, however often the provider retries the payment", async () => {
    const { owner, order } = await pendingOrder();
    const checkout = paymentOf(order, { eventType: "checkout.session.completed" });
    expect(await applyPayment(deps, checkout)).toBe("applied");
    deps.setNow(START + 60_000);
    expect(await applyPayment(deps, checkout)).toBe("duplicate");
    // Stripe sends the checkout's payment again as the subscription's first invoice.
    expect(await applyPayment(deps, paymentOf(order, { kind: "first", paymentId: "in_first", paidAt: START }))).toBe(
      "applied",
    );
    const [receipt, ...more] = await receipts(order.id);
    expect(more).toHaveLength(0);
    const mails = await receiptMailsTo(owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Your Hittad receipt");
    expect(mails[0]!.text).toMatch(new RegExp(`Receipt no\\. ${receipt!.number}[: ]`));
    // Queued at the payment, in its transaction.
    expect(Number(mails[0]!.createdAt)).toBe(START);
  });

  it("writes the receipt mail in the payer's saved language, whatever language the order was placed in", async () => {
    const owner = await signUpOwner(deps, { language: "sv", prefix: "payev" });
    const { order } = await pendingOrder(owner);
    expect(await applyPayment(deps, paymentOf(order))).toBe("applied");
    const [receipt] = await receipts(order.id);
    const mails = await receiptMailsTo(owner.email);
    expect(mails.map((m) => m.subject)).toEqual(["Ditt kvitto från Hittad"]);
    expect(mails[0]!.text).toMatch(new RegExp(`Kvitto nr ${receipt!.number}[: ]`));
  });
});

describe("laterEnd", () => {
  it("never moves an item's end earlier; no end stays no end; an unpaid item's old end counts for nothing", () => {
    expect(laterEnd({ payed: true, paidUntil: 2000 }, 1000)).toBe(2000);
    expect(laterEnd({ payed: true, paidUntil: 1000 }, 2000)).toBe(2000);
    expect(laterEnd({ payed: true, paidUntil: null }, 2000)).toBeNull();
    expect(laterEnd({ payed: false, paidUntil: 5000 }, 2000)).toBe(2000);
  });
});

describe("startOrderAhead", () => {
  const start = (o: Order) => ({
    eventId: `evt_${++seq}`,
    eventType: "checkout.session.completed",
    orderId: o.id,
    subscriptionId: "sub_trial",
    customerId: "cus_trial",
  });

  it("a checkout without payment for an order not placed ahead pays nothing", async () => {
    const { order, items } = await pendingOrder();
    expect(await startOrderAhead(deps, start(order))).toBe("ignored");
    expect((await orderRow(order.id)).status).toBe("pending");
    expect(Number((await itemRow(items[0]!)).payed)).toBe(0);
    expect(await shipments(order.id)).toHaveLength(0);
  });

  it("nor one for an order already paid, and a replay of it is a duplicate", async () => {
    const { order } = await paidOrder();
    const before = await orderRow(order.id);
    await deps.db
      .updateTable("orders")
      .set({ startsAt: addMonths(START, 6) })
      .where("id", "=", order.id)
      .execute();
    const event = start(order);
    expect(await startOrderAhead(deps, event)).toBe("ignored");
    expect(await startOrderAhead(deps, event)).toBe("duplicate");
    const after = await orderRow(order.id);
    expect(after.paidUntil).toEqual(before.paidUntil);
    expect(after.subscriptionId).toBeNull();
    expect(await shipments(order.id)).toHaveLength(1);
  });
});

describe("endSubscription", () => {
  it("ended with its paid period over, the order lapses at once: items unpaid, the owner told", async () => {
    const { owner, order, items } = await paidOrder();
    const paidUntil = Number((await orderRow(order.id)).paidUntil);
    const mailsBefore = (await mailsTo(owner.email)).length;
    deps.setNow(paidUntil + DAY_MS);
    expect(await endSubscription(deps, ended(order.id))).toBe("applied");
    const row = await orderRow(order.id);
    expect(Number(row.lapsedAt)).toBe(paidUntil + DAY_MS);
    expect(Number(row.renewing)).toBe(0);
    expect(Number((await itemRow(items[0]!)).payed)).toBe(0);
    expect((await mailsTo(owner.email)).length).toBe(mailsBefore + 1);
  });

  it("keeps the end the owner chose when cancelling, whatever date the provider sends", async () => {
    const { owner, order, items } = await paidOrder();
    const { endsAt } = await cancelRenewal(deps, { userId: owner.id, orderId: order.id });
    expect(await endSubscription(deps, ended(order.id, { endedAt: START + DAY_MS }))).toBe("applied");
    const row = await orderRow(order.id);
    expect(Number(row.endsAt)).toBe(endsAt);
    expect(row.lapsedAt).toBeNull();
    expect(Number((await itemRow(items[0]!)).payed)).toBe(1);
  });

  it("a replayed end changes nothing", async () => {
    const { order } = await paidOrder();
    const paidUntil = Number((await orderRow(order.id)).paidUntil);
    const event = ended(order.id, { endedAt: START + 5 * DAY_MS });
    expect(await endSubscription(deps, event)).toBe("applied");
    const once = await orderRow(order.id);
    deps.setNow(paidUntil + DAY_MS);
    expect(await endSubscription(deps, { ...event, endedAt: paidUntil })).toBe("duplicate");
    const twice = await orderRow(order.id);
    expect(twice).toEqual(once);
    expect(twice.lapsedAt).toBeNull();
  });
});
