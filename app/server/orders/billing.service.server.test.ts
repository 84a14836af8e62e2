/**
 * The subscription lifecycle (decision 016) on an in-memory SQLite through the
 * real migrations, with a clock the test moves: renewals (receipts numbered in sequence,
 * idempotent, paidUntil only grows), failed payments (mail once, items kept through the
 * retry grace), lapses (items unpaid, mail once), reminders 14 days ahead (once per renewal),
 * abandoned checkouts, cancel/resume with mails, the staff simulation's guard and VAT.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "~/i18n/resources.server";
import { isItemPaid } from "~/lib/domain/paid";
import type { ProductInput } from "~/lib/forms/product-form";
import { addMonths } from "~/lib/domain/pricing";
import { vatOfGross } from "~/lib/domain/vat";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createItem } from "../items/items.service.server";
import { keepOrderAddress } from "../order-draft/order-draft.service.server";
import {
  cancelAbandonedOrders,
  getBillingOverview,
  getReceipt,
  getReceiptPdf,
  lapseDueOrders,
  markPaymentFailed,
  parseReceiptNumber,
  runBillingJobs,
  sendRenewalReminders,
  simulateFailedRenewal,
  simulateRenewal,
} from "./billing.service.server";
import { DAY_MS } from "~/lib/domain/dates";
import { PAYMENT_RETRY_GRACE_MS } from "./lifecycle.server";
import { applyPayment, endSubscription } from "./payment-events.service.server";
import { cancelRenewal, getCancelPreview, paymentPortalUrl, resumeRenewal } from "./renewals.service.server";
import { completeTestPayment, createOrder } from "./checkout.service.server";
import { OrderError } from "./order-error.server";

const ITEM: ProductInput = {
  name: "Black phone",
  findFee: 100,
  prodType: "mobile",
  contactInfo: "Call 070-123",
  contactVisibility: "public",
  payment: "year",
  intent: "payLater",
};

const ADDRESS = {
  firstname: "Anna",
  lastname: "Svensson",
  email: "anna@example.test",
  co: "",
  address: "Storgatan 1",
  address2: "",
  city: "Uppsala",
  state: "",
  zip: "753 20",
  country: "Sweden",
};

// Several sign-ups (password hashing) per test on a shared 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const START = Date.UTC(2026, 10, 23, 12);
let deps: ServiceTestDeps;
let n = 0;

async function owner(language: "en" | "sv" = "en") {
  const email = `billing-${++n}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({
    body: { name: "Anna Svensson", email, password: "pw-Secret-123!" },
  });
  await deps.db.updateTable("user").set({ emailVerified: 1, language }).where("id", "=", user.id).execute();
  await keepOrderAddress(deps, user.id, ADDRESS, false);
  return { id: user.id, email };
}

async function paidOrder(period: "month" | "year" = "year", items = 1, language: "en" | "sv" = "en") {
  const u = await owner(language);
  const ids: string[] = [];
  for (let i = 0; i < items; i++) ids.push(await createItem(deps, u.id, { ...ITEM, name: `Item ${i}` }, language));
  const o = await createOrder(deps, { userId: u.id, itemIds: ids, period, lang: language });
  await completeTestPayment(deps, { userId: u.id, orderId: o.id });
  return { u, ids, o };
}

const order = (id: string) => deps.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const item = (id: string) => deps.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const mailsTo = (to: string) =>
  deps.db.selectFrom("mail_outbox").selectAll().where("to", "=", to).orderBy("createdAt").execute();
const receiptsOf = (orderId: string) =>
  deps.db.selectFrom("receipts").selectAll().where("orderId", "=", orderId).orderBy("number").execute();
const paidNow = async (id: string) => {
  const p = await item(id);
  return isItemPaid(
    { payed: Number(p.payed) === 1, paidUntil: p.paidUntil == null ? null : Number(p.paidUntil) },
    deps.clock(),
  );
};

beforeEach(async () => {
  // A VAT-registered seller: the receipts show VAT (decision 057).
  deps = await createServiceDeps({ COMPANY_VAT_NR: "SE559000123401" }, START);
});
afterEach(async () => {
  await deps.close();
});

function renewal(
  o: { id: string; totalAmount: number; currency: string },
  invoice: string,
  start: number,
  end: number,
) {
  return applyPayment(deps, {
    eventId: `evt_${invoice}`,
    eventType: "invoice.paid",
    orderId: o.id,
    paidAt: start,
    periodStart: start,
    periodEnd: end,
    kind: "renewal",
    paymentId: invoice,
    amount: { total: o.totalAmount, currency: o.currency },
  });
}

describe("renewals", () => {
  it("each renewal extends paidUntil by its period and gets the next receipt number and a receipt mail", async () => {
    const { u, ids, o } = await paidOrder("month");
    const first = Number((await order(o.id)).paidUntil);
    expect(first).toBe(addMonths(START, 1));
    expect(await renewal(o, "in_2", first, addMonths(first, 1))).toBe("applied");
    expect(await renewal(o, "in_3", addMonths(first, 1), addMonths(first, 2))).toBe("applied");
    expect(Number((await order(o.id)).paidUntil)).toBe(addMonths(first, 2));
    expect(Number((await item(ids[0]!)).paidUntil)).toBe(addMonths(first, 2));
    const numbers = (await receiptsOf(o.id)).map((r) => Number(r.number));
    expect(numbers).toHaveLength(3);
    expect(numbers[1]).toBe(numbers[0]! + 1);
    expect(numbers[2]).toBe(numbers[1]! + 1);
    const mails = await mailsTo(u.email);
    expect(mails.map((m) => m.subject)).toEqual([
      "Your Hittad receipt",
      `Your Hittad receipt no. ${numbers[1]}`,
      `Your Hittad receipt no. ${numbers[2]}`,
    ]);
    expect(mails[1]!.text).toContain(`/order/${o.id}/receipt?number=${numbers[1]}`);
    expect(mails[1]!.text).toContain("Of which VAT (25 %): €0.60");
  });

  it("a replayed or late renewal changes nothing: one receipt per invoice, paidUntil never shrinks", async () => {
    const { u, o } = await paidOrder("month");
    const first = Number((await order(o.id)).paidUntil);
    await renewal(o, "in_2", first, addMonths(first, 1));
    expect(await renewal(o, "in_2", first, addMonths(first, 1))).toBe("duplicate");
    // The same invoice again under another event id (Stripe resends): no second receipt.
    await applyPayment(deps, {
      eventId: "evt_other",
      eventType: "invoice.paid",
      orderId: o.id,
      paidAt: first,
      periodEnd: addMonths(first, 1),
      kind: "renewal",
      paymentId: "in_2",
      amount: { total: o.totalAmount, currency: o.currency },
    });
    expect(await receiptsOf(o.id)).toHaveLength(2);
    expect(await mailsTo(u.email)).toHaveLength(2);
    expect(Number((await order(o.id)).paidUntil)).toBe(addMonths(first, 1));
  });

  it("the subscription's first invoice after checkout is the same payment: no second receipt", async () => {
    const { u, o } = await paidOrder("year");
    await applyPayment(deps, {
      eventId: "evt_first_invoice",
      eventType: "invoice.paid",
      orderId: o.id,
      paidAt: START,
      periodEnd: addMonths(START, 12),
      kind: "first",
      paymentId: "in_1",
      amount: { total: o.totalAmount, currency: o.currency },
    });
    expect(await receiptsOf(o.id)).toHaveLength(1);
    expect(await mailsTo(u.email)).toHaveLength(1);
  });

  it("receipt numbers are unique and sequential across owners", async () => {
    const a = await paidOrder();
    const b = await paidOrder();
    const [ra] = await receiptsOf(a.o.id);
    const [rb] = await receiptsOf(b.o.id);
    expect(Number(rb!.number)).toBe(Number(ra!.number) + 1);
  });
});

describe("failed payments and lapses", () => {
  it("a failed renewal mails the owner once, warns on the dashboard and keeps the items active through the retry grace", async () => {
    const { u, ids, o } = await paidOrder("month");
    const end = Number((await order(o.id)).paidUntil);
    deps.setNow(end + 60_000);
    const fail = { eventId: "evt_f1", eventType: "invoice.payment_failed", orderId: o.id, subscriptionId: null };
    expect(await markPaymentFailed(deps, fail)).toBe("applied");
    expect(await markPaymentFailed(deps, fail)).toBe("duplicate");
    // Stripe's next retry fails too: no second mail.
    expect(await markPaymentFailed(deps, { ...fail, eventId: "evt_f2" })).toBe("applied");
    const mails = (await mailsTo(u.email)).filter((m) => m.subject === "Your Hittad payment did not go through");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`/order/${o.id}/payment`);
    expect(await paidNow(ids[0]!)).toBe(true);
    const overview = await getBillingOverview(deps, u.id);
    expect(overview.orders[0]).toMatchObject({ paymentFailed: true, lapsed: false });
    // Still inside the grace: the job leaves it; after it, the order lapses.
    deps.setNow(end + PAYMENT_RETRY_GRACE_MS - DAY_MS);
    expect(await lapseDueOrders(deps)).toBe(0);
    deps.setNow(end + PAYMENT_RETRY_GRACE_MS + 2 * 60_000);
    expect(await lapseDueOrders(deps)).toBe(1);
    expect(await paidNow(ids[0]!)).toBe(false);
    expect(Number((await item(ids[0]!)).payed)).toBe(0);
    expect(await lapseDueOrders(deps)).toBe(0);
    const lapsed = (await mailsTo(u.email)).filter((m) => m.subject === "Your Hittad subscription has ended");
    expect(lapsed).toHaveLength(1);
    expect(lapsed[0]!.text).toContain("http://localhost:3000/order");
  });

  it("the dashboard's order list reads a fixed number of statements however many orders the owner paid, each order with its own items", async () => {
    const { u, o } = await paidOrder("year", 2);
    let statements = 0;
    const counting = {
      ...deps,
      db: deps.db.withPlugin({
        transformQuery: (args) => {
          statements++;
          return args.node;
        },
        transformResult: (args) => Promise.resolve(args.result),
      }),
    };
    const one = await getBillingOverview(counting, u.id);
    const forOne = statements;
    // (Both items were made at the same instant: their order among themselves is the id's.)
    expect(one.orders.map((x) => [x.id, [...x.items].sort(), x.itemCount])).toEqual([[o.id, ["Item 0", "Item 1"], 2]]);
    const more: string[] = [];
    for (let i = 0; i < 3; i++) {
      deps.setNow(deps.clock() + 60_000);
      const id = await createItem(deps, u.id, { ...ITEM, name: `Later ${i}` }, "en");
      const next = await createOrder(deps, { userId: u.id, itemIds: [id], period: "year", lang: "en" });
      await completeTestPayment(deps, { userId: u.id, orderId: next.id });
      more.push(next.id);
    }
    statements = 0;
    const four = await getBillingOverview(counting, u.id);
    expect(statements).toBe(forOne);
    expect(new Map(four.orders.map((x) => [x.id, [...x.items].sort()]))).toEqual(
      new Map([
        [o.id, ["Item 0", "Item 1"]],
        [more[0]!, ["Later 0"]],
        [more[1]!, ["Later 1"]],
        [more[2]!, ["Later 2"]],
      ]),
    );
  });

  it("a payment after a failure clears the warning", async () => {
    const { u, o } = await paidOrder("month");
    const end = Number((await order(o.id)).paidUntil);
    deps.setNow(end + 1000);
    await markPaymentFailed(deps, { eventId: "evt_f", eventType: "x", orderId: o.id, subscriptionId: null });
    await renewal(o, "in_2", end, addMonths(end, 1));
    expect((await order(o.id)).paymentFailedAt).toBeNull();
    expect((await getBillingOverview(deps, u.id)).orders[0]!.paymentFailed).toBe(false);
  });

  it("the subscription deleted after failed payments lapses the order at once: items unpaid, owner told", async () => {
    const { u, ids, o } = await paidOrder("month");
    const end = Number((await order(o.id)).paidUntil);
    deps.setNow(end + DAY_MS);
    await markPaymentFailed(deps, { eventId: "evt_f", eventType: "x", orderId: o.id, subscriptionId: null });
    expect(await paidNow(ids[0]!)).toBe(true);
    deps.setNow(end + 3 * DAY_MS);
    const del = { eventId: "evt_del", eventType: "customer.subscription.deleted", orderId: o.id, subscriptionId: null };
    expect(await endSubscription(deps, { ...del, endedAt: deps.clock() })).toBe("applied");
    expect(await paidNow(ids[0]!)).toBe(false);
    expect(await endSubscription(deps, { ...del, endedAt: deps.clock() })).toBe("duplicate");
    expect((await mailsTo(u.email)).filter((m) => m.subject === "Your Hittad subscription has ended")).toHaveLength(1);
  });

  it("a cancelled subscription lapses at its end, with one mail", async () => {
    const { u, ids, o } = await paidOrder("year");
    await cancelRenewal(deps, { userId: u.id, orderId: o.id });
    const end = Number((await order(o.id)).endsAt);
    deps.setNow(end - 1000);
    expect(await lapseDueOrders(deps)).toBe(0);
    deps.setNow(end + 1000);
    expect(await paidNow(ids[0]!)).toBe(false);
    expect(await lapseDueOrders(deps)).toBe(1);
    expect((await mailsTo(u.email)).filter((m) => m.subject === "Your Hittad subscription has ended")).toHaveLength(1);
  });

  it("an item covered by a newer paid order is not made unpaid when an old order lapses", async () => {
    const { u, ids, o } = await paidOrder("month");
    const end = Number((await order(o.id)).paidUntil);
    await cancelRenewal(deps, { userId: u.id, orderId: o.id });
    // The owner let it run out and ordered again later; the old order's lapse is processed late.
    deps.setNow(Number((await order(o.id)).endsAt) + 1000);
    const again = await createOrder(deps, { userId: u.id, itemIds: ids, period: "year", lang: "en" });
    await completeTestPayment(deps, { userId: u.id, orderId: again.id });
    expect(end).toBeLessThan(deps.clock());
    await lapseDueOrders(deps);
    expect(await paidNow(ids[0]!)).toBe(true);
  });
});

describe("reminders and abandoned orders", () => {
  it("a yearly subscription is reminded once, 14 days before it renews, with price, date and how to cancel", async () => {
    const { u, o } = await paidOrder("year", 1, "sv");
    const renews = Number((await order(o.id)).paidUntil);
    deps.setNow(renews - 15 * DAY_MS);
    expect(await sendRenewalReminders(deps)).toBe(0);
    deps.setNow(renews - 14 * DAY_MS + 1000);
    expect(await sendRenewalReminders(deps)).toBe(1);
    expect(await sendRenewalReminders(deps)).toBe(0);
    deps.setNow(renews - DAY_MS);
    expect(await sendRenewalReminders(deps)).toBe(0);
    const mail = (await mailsTo(u.email)).at(-1)!;
    expect(mail.subject).toBe("Din Hittad-prenumeration förnyas den 23 november 2027");
    expect(mail.text).toContain("Hej Anna!");
    expect(mail.text).toContain("300 kr");
    expect(mail.text).toContain(`/order/${o.id}/cancel`);
    // The next year's renewal gets its own reminder.
    await renewal(o, "in_2", renews, addMonths(renews, 12));
    deps.setNow(addMonths(renews, 12) - 10 * DAY_MS);
    expect(await sendRenewalReminders(deps)).toBe(1);
  });

  it("monthly and cancelled subscriptions get no reminder", async () => {
    const m = await paidOrder("month");
    const y = await paidOrder("year");
    await cancelRenewal(deps, { userId: y.u.id, orderId: y.o.id });
    deps.setNow(Number((await order(m.o.id)).paidUntil) - DAY_MS);
    expect(await sendRenewalReminders(deps)).toBe(0);
    deps.setNow(Number((await order(y.o.id)).paidUntil) - DAY_MS);
    expect(await sendRenewalReminders(deps)).toBe(0);
  });

  it("pending orders older than 24 hours are cancelled; younger ones and paid ones are kept", async () => {
    const u = await owner();
    const id = await createItem(deps, u.id, ITEM, "en");
    const old = await createOrder(deps, { userId: u.id, itemIds: [id], period: "year", lang: "en" });
    deps.setNow(START + 12 * 60 * 60_000);
    const young = await createOrder(deps, { userId: u.id, itemIds: [id], period: "year", lang: "en" });
    deps.setNow(START + DAY_MS + 1000);
    expect(await cancelAbandonedOrders(deps)).toBe(1);
    expect((await order(old.id)).status).toBe("cancelled");
    expect((await order(young.id)).status).toBe("pending");
    // The item can be ordered again.
    await createOrder(deps, { userId: u.id, itemIds: [id], period: "month", lang: "en" });
  });

  it("the billing jobs run together on SQLite and report what they did", async () => {
    const r = await runBillingJobs(deps, "sqlite");
    expect(r).toEqual({ lapsed: 0, reminders: 0, prepaidReminders: 0, yearReminders: 0, abandoned: 0 });
  });
});

describe("cancel and resume (issue #19 point 4)", () => {
  it("the confirmation names every item of the order, the end date and that nothing more is charged", async () => {
    const { u, o } = await paidOrder("year", 2);
    const preview = await getCancelPreview(deps, { userId: u.id, orderId: o.id });
    expect(preview.items.map((i) => i.name).sort()).toEqual(["Item 0", "Item 1"]);
    expect(preview).toMatchObject({ endsAt: addMonths(START, 12), atPeriodEnd: true });
    const other = await owner();
    await expect(getCancelPreview(deps, { userId: other.id, orderId: o.id })).rejects.toMatchObject({
      code: "notFound",
    });
  });

  it("cancelling mails a confirmation; resuming before the end renews again and mails too", async () => {
    const { u, o } = await paidOrder("month", 1, "sv");
    await cancelRenewal(deps, { userId: u.id, orderId: o.id });
    const cancelled = (await mailsTo(u.email)).at(-1)!;
    expect(cancelled.subject).toBe("Förnyelsen av din Hittad-prenumeration är avslutad");
    expect(cancelled.text).toContain("Item 0");
    // Monthly inside the minimum term: the remaining months are still charged, and it says so.
    expect(cancelled.text).toContain("Minsta bindningstid är 6 månader");
    expect((await getBillingOverview(deps, u.id)).orders[0]!.resumable).toBe(true);
    const { renewsAt } = await resumeRenewal(deps, { userId: u.id, orderId: o.id });
    expect(renewsAt).toBe(Number((await order(o.id)).paidUntil));
    expect(await order(o.id)).toMatchObject({ renewing: 1, endsAt: null, cancelledAt: null });
    expect((await mailsTo(u.email)).at(-1)!.subject).toBe("Din Hittad-prenumeration förnyas igen");
    await expect(resumeRenewal(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({ code: "notCancelled" });
  });

  it("a subscription that has ended cannot be resumed; another owner's cannot be touched", async () => {
    const { u, o } = await paidOrder("year");
    await cancelRenewal(deps, { userId: u.id, orderId: o.id });
    const other = await owner();
    await expect(resumeRenewal(deps, { userId: other.id, orderId: o.id })).rejects.toMatchObject({ code: "notFound" });
    deps.setNow(Number((await order(o.id)).endsAt) + 1000);
    await expect(resumeRenewal(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({ code: "ended" });
  });

  it("the payment portal exists only with Stripe", async () => {
    const { u, o } = await paidOrder();
    await expect(paymentPortalUrl(deps, { userId: u.id, orderId: o.id, lang: "en" })).rejects.toMatchObject({
      code: "noPortal",
    });
  });
});

describe("staff simulation (test provider)", () => {
  it("simulate renewal pays one more period once per period; simulate failed renewal marks it failed", async () => {
    const { u, o } = await paidOrder("month");
    const first = Number((await order(o.id)).paidUntil);
    expect(await simulateRenewal(deps, o.id)).toBe("applied");
    expect(Number((await order(o.id)).paidUntil)).toBe(addMonths(first, 1));
    expect(await simulateRenewal(deps, o.id)).toBe("applied");
    expect(Number((await order(o.id)).paidUntil)).toBe(addMonths(first, 2));
    expect(await receiptsOf(o.id)).toHaveLength(3);
    expect(await simulateFailedRenewal(deps, o.id)).toBe("applied");
    expect((await getBillingOverview(deps, u.id)).orders[0]!.paymentFailed).toBe(true);
  });

  it("is never available with PAYMENTS=stripe", async () => {
    const stripeDeps = { ...deps, config: { ...deps.config, payments: "stripe" as const } };
    const { o } = await paidOrder();
    await expect(simulateRenewal(stripeDeps, o.id)).rejects.toBeInstanceOf(OrderError);
    await expect(simulateFailedRenewal(stripeDeps, o.id)).rejects.toMatchObject({ code: "notFound" });
  });
});

describe("receipts with VAT", () => {
  it("VAT is 25 % of the net price, contained in the total (minor units, rounded)", () => {
    expect(vatOfGross(30000)).toEqual({ net: 24000, vat: 6000 });
    expect(vatOfGross(300)).toEqual({ net: 240, vat: 60 });
    expect(vatOfGross(999)).toEqual({ net: 799, vat: 200 });
    expect(vatOfGross(0)).toEqual({ net: 0, vat: 0 });
  });

  it("only the owner sees a receipt; a bad number is refused", async () => {
    const { u, o } = await paidOrder("year", 4, "sv");
    const r = await getReceipt(deps, { userId: u.id, orderId: o.id, number: null });
    expect(r).toMatchObject({ currency: "SEK", totalAmount: 80000, vatAmount: 16000, netAmount: 64000, count: 4 });
    expect(r.buyer.name).toBe("Anna Svensson");
    const other = await owner();
    await expect(getReceipt(deps, { userId: other.id, orderId: o.id, number: null })).rejects.toMatchObject({
      code: "notFound",
    });
    expect(parseReceiptNumber("12")).toBe(12);
    expect(parseReceiptNumber(null)).toBeNull();
    expect(parseReceiptNumber("0")).toBe("invalid");
    expect(parseReceiptNumber("1e3")).toBe("invalid");
  });

  it("the PDF is a PDF whose text cannot break out of its strings", async () => {
    const { u, o } = await paidOrder("year");
    // The receipt keeps the item names of the time of payment.
    await deps.db
      .updateTable("receipts")
      .set({ items: JSON.stringify([{ name: "Evil) Tj (x" }]) })
      .where("orderId", "=", o.id)
      .execute();
    const { pdf } = await getReceiptPdf(deps, { userId: u.id, orderId: o.id, number: null, lang: "sv" });
    const text = pdf.toString("latin1");
    expect(text.startsWith("%PDF-1.4")).toBe(true);
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
    // The name stays inside its string: parentheses escaped, no operator of its own.
    expect(text).toContain("Evil\\) Tj \\(x)");
    expect(text).not.toContain("Evil) Tj (x");
  });
});
