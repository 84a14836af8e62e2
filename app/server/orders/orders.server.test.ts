/**
 * The order services (checkout, payment events, renewals) on an in-memory SQLite through the real migrations (decision 011):
 * applying payments (replays, wrong amounts, paidUntil only grows, a second payment for
 * items already paid), cancelling (the minimum term; never shortening what is paid), the
 * test checkout's guard, receipts and the order rate limit (decision 012).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import "~/i18n/resources.server"; // the receipt mail is written in the owner's language
import type { ProductInput } from "~/lib/forms/product-form";
import { addMonths, minimumTermEnd } from "~/lib/domain/pricing";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createItem } from "../items/items.service.server";
import { keepOrderAddress } from "../order-draft/order-draft.service.server";
import { applyPayment } from "./payment-events.service.server";
import { cancellationPlan, cancelRenewal, renewalEndsIfCancelled } from "./renewals.service.server";
import { completeTestPayment, createOrder, getTestCheckout, ORDER_RATE_RULE } from "./checkout.service.server";
import { OrderError } from "./order-error.server";

const ITEM: ProductInput = {
  contactVisibility: "public",
  name: "Black phone",
  findFee: 100,
  prodType: "mobile",
  contactInfo: "Call 070-123",
  payment: "year",
  intent: "payLater",
};

const ADDRESS = {
  firstname: "Anna",
  lastname: "Svensson",
  email: "typed.by.anyone@example.test",
  co: "",
  address: "Storgatan 1",
  address2: "",
  city: "Uppsala",
  state: "",
  zip: "753 20",
  country: "Sweden",
};

let deps: ServiceTestDeps;
let n = 0;

async function owner(opts: { verified?: boolean } = {}) {
  const email = `owner-${++n}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({
    body: { name: "Anna Svensson", email, password: "pw-Secret-123!" },
  });
  if (opts.verified ?? true) {
    await deps.db.updateTable("user").set({ emailVerified: 1 }).where("id", "=", user.id).execute();
  }
  await keepOrderAddress(deps, user.id, ADDRESS, false);
  return { id: user.id, email };
}

const itemRow = (id: string) =>
  deps.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const order = (id: string) => deps.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const shipments = (orderId: string) =>
  deps.db.selectFrom("sticker_shipments").selectAll().where("orderId", "=", orderId).execute();
const mails = () => deps.db.selectFrom("mail_outbox").selectAll().execute();

async function pendingOrder(userId: string, items: string[], period: "month" | "year" = "year") {
  return createOrder(deps, { userId, itemIds: items, period, lang: "en" });
}

function payment(o: { id: string; totalAmount: number; currency: string }, eventId: string, paidAt = deps.clock()) {
  return {
    eventId,
    eventType: "invoice.paid",
    orderId: o.id,
    paidAt,
    amount: { total: o.totalAmount, currency: o.currency },
  };
}

beforeEach(async () => {
  deps = await createServiceDeps();
});
afterEach(async () => {
  await deps.close();
});

describe("applyPayment", () => {
  it("a replayed event changes nothing: one shipment, one receipt", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    const o = await pendingOrder(u.id, [item]);
    expect(await applyPayment(deps, payment(o, "evt_1"))).toBe("applied");
    const before = await order(o.id);
    expect(await applyPayment(deps, payment(o, "evt_1"))).toBe("duplicate");
    expect(await order(o.id)).toEqual(before);
    expect(await shipments(o.id)).toHaveLength(1);
    expect(await mails()).toHaveLength(1);
  });

  it("a payment of the wrong amount or currency is not applied", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    const o = await pendingOrder(u.id, [item]);
    const wrong = { ...payment(o, "evt_low"), amount: { total: o.totalAmount - 1, currency: o.currency } };
    expect(await applyPayment(deps, wrong)).toBe("ignored");
    const other = { ...payment(o, "evt_sek"), amount: { total: o.totalAmount, currency: "sek" } };
    expect(await applyPayment(deps, other)).toBe("ignored");
    expect((await order(o.id)).status).toBe("pending");
    expect((await itemRow(item)).payed).toBe(0);
    expect(await shipments(o.id)).toHaveLength(0);
  });

  it("paidUntil only grows: an older period arriving late does not shorten the order or its items", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    const o = await pendingOrder(u.id, [item], "month");
    const start = deps.clock();
    await applyPayment(deps, { ...payment(o, "evt_2"), periodEnd: addMonths(start, 2) });
    await applyPayment(deps, { ...payment(o, "evt_1"), periodEnd: addMonths(start, 1) });
    expect((await order(o.id)).paidUntil).toBe(addMonths(start, 2));
    expect((await itemRow(item)).paidUntil).toBe(addMonths(start, 2));
  });

  it("a second order's payment for items already paid activates nothing again: no shipment, no receipt", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    // Two checkouts started for one item before either was paid.
    const first = await pendingOrder(u.id, [item]);
    const second = await pendingOrder(u.id, [item]);
    expect(await applyPayment(deps, payment(first, "evt_a"))).toBe("applied");
    const paid = await itemRow(item);
    expect(await applyPayment(deps, payment(second, "evt_b"))).toBe("alreadyCovered");
    expect((await order(second.id)).status).toBe("duplicate");
    expect(await itemRow(item)).toEqual(paid);
    expect(await shipments(second.id)).toHaveLength(0);
    expect(await mails()).toHaveLength(1);
    // Its later events (renewals) change nothing either.
    expect(await applyPayment(deps, payment(second, "evt_c"))).toBe("alreadyCovered");
  });
});

describe("receipts", () => {
  it("go only to the account's verified email, never to the address email typed on the order", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    const o = await pendingOrder(u.id, [item]);
    await applyPayment(deps, payment(o, "evt_1"));
    expect((await mails()).map((m) => m.to)).toEqual([u.email]);
  });

  it("are not sent while the account's email is not verified", async () => {
    const u = await owner({ verified: false });
    const item = await createItem(deps, u.id, ITEM, "en");
    const o = await pendingOrder(u.id, [item]);
    expect(await applyPayment(deps, payment(o, "evt_1"))).toBe("applied");
    expect(await mails()).toHaveLength(0);
  });
});

describe("cancellationPlan", () => {
  const paidAt = Date.UTC(2026, 0, 15);
  it("a monthly subscription cancelled inside the minimum term runs until the 6-month mark", () => {
    const plan = cancellationPlan(
      { paidAt, paidUntil: addMonths(paidAt, 1), minimumUntil: minimumTermEnd(paidAt) },
      paidAt,
    );
    expect(plan).toEqual({ endsAt: minimumTermEnd(paidAt), atPeriodEnd: false });
  });
  it("after the minimum term (or yearly) it ends when the paid period ends", () => {
    const plan = cancellationPlan(
      { paidAt, paidUntil: addMonths(paidAt, 12), minimumUntil: minimumTermEnd(paidAt) },
      paidAt,
    );
    expect(plan).toEqual({ endsAt: addMonths(paidAt, 12), atPeriodEnd: true });
  });
});

describe("renewalEndsIfCancelled (the delete-account page, issue #32 point 6)", () => {
  it("each order ends at its own real end: a monthly plan at its minimum term's end and charged until then, a yearly one when its paid year ends and not charged", async () => {
    const u = await owner();
    const monthly = await pendingOrder(u.id, [await createItem(deps, u.id, ITEM, "en")], "month");
    await completeTestPayment(deps, { userId: u.id, orderId: monthly.id });
    const yearly = await pendingOrder(
      u.id,
      [await createItem(deps, u.id, ITEM, "en"), await createItem(deps, u.id, ITEM, "en")],
      "year",
    );
    await completeTestPayment(deps, { userId: u.id, orderId: yearly.id });
    const [m, y] = [await order(monthly.id), await order(yearly.id)];
    expect(await renewalEndsIfCancelled(deps, u.id)).toEqual([
      { orderId: monthly.id, period: "month", count: 1, endsAt: m.minimumUntil, charged: true },
      { orderId: yearly.id, period: "year", count: 2, endsAt: y.paidUntil, charged: false },
    ]);
    expect(m.minimumUntil).toBeLessThan(y.paidUntil!);
  });
});

describe("cancelRenewal", () => {
  it("never moves an item's paidUntil backwards when another order covers it longer", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    const o = await pendingOrder(u.id, [item], "month");
    await completeTestPayment(deps, { userId: u.id, orderId: o.id });
    // The item is paid further ahead by hand (or another order): cancelling must keep that.
    const later = addMonths(deps.clock(), 24);
    await deps.db.updateTable("products").set({ paidUntil: later }).where("id", "=", item).execute();
    const { endsAt } = await cancelRenewal(deps, { userId: u.id, orderId: o.id });
    expect(endsAt).toBeLessThan(later);
    expect((await itemRow(item)).paidUntil).toBe(later);
  });

  it("an item paid without an end keeps having no end", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    const o = await pendingOrder(u.id, [item]);
    await completeTestPayment(deps, { userId: u.id, orderId: o.id });
    await deps.db.updateTable("products").set({ paidUntil: null }).where("id", "=", item).execute();
    await cancelRenewal(deps, { userId: u.id, orderId: o.id });
    expect((await itemRow(item)).paidUntil).toBeNull();
  });

  it("refuses another user's order and an order already cancelled", async () => {
    const u = await owner();
    const other = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    const o = await pendingOrder(u.id, [item]);
    await completeTestPayment(deps, { userId: u.id, orderId: o.id });
    await expect(cancelRenewal(deps, { userId: other.id, orderId: o.id })).rejects.toMatchObject({ code: "notFound" });
    await cancelRenewal(deps, { userId: u.id, orderId: o.id });
    await expect(cancelRenewal(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({ code: "notRenewing" });
  });
});

describe("the test checkout", () => {
  it("refuses to show or complete an order whose items were paid by another order meanwhile", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    const first = await pendingOrder(u.id, [item]);
    const second = await pendingOrder(u.id, [item]);
    await completeTestPayment(deps, { userId: u.id, orderId: first.id });
    await expect(getTestCheckout(deps, { userId: u.id, orderId: second.id })).rejects.toMatchObject({
      code: "alreadyPaid",
    });
    await expect(completeTestPayment(deps, { userId: u.id, orderId: second.id })).rejects.toMatchObject({
      code: "alreadyPaid",
    });
    expect((await order(second.id)).status).toBe("pending");
    expect(await mails()).toHaveLength(1);
  });

  it("is only for the order's owner", async () => {
    const u = await owner();
    const other = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    const o = await pendingOrder(u.id, [item]);
    await expect(completeTestPayment(deps, { userId: other.id, orderId: o.id })).rejects.toBeInstanceOf(OrderError);
    expect((await order(o.id)).status).toBe("pending");
  });
});

describe("createOrder", () => {
  it("an order cannot be paid without a complete postal address (name, street, postal code, city, country)", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    for (const missing of ["firstname", "address", "zip", "city", "country"] as const) {
      await keepOrderAddress(deps, u.id, { ...ADDRESS, [missing]: "  " }, false);
      await expect(pendingOrder(u.id, [item])).rejects.toMatchObject({ code: "noAddress" });
    }
    await keepOrderAddress(deps, u.id, { ...ADDRESS, lastname: "" }, false);
    await expect(pendingOrder(u.id, [item])).resolves.toMatchObject({ status: "pending" });
  });

  it("refuses items already paid", async () => {
    const u = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    await completeTestPayment(deps, { userId: u.id, orderId: (await pendingOrder(u.id, [item])).id });
    await expect(pendingOrder(u.id, [item])).rejects.toMatchObject({ code: "alreadyPaid" });
  });

  it("is rate-limited per user: the eleventh order in an hour is refused, another user is not affected", async () => {
    await deps.close();
    deps = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" });
    const u = await owner();
    const other = await owner();
    const item = await createItem(deps, u.id, ITEM, "en");
    for (let i = 0; i < ORDER_RATE_RULE.limit; i++) await pendingOrder(u.id, [item]);
    await expect(pendingOrder(u.id, [item])).rejects.toMatchObject({ code: "rateLimited", params: { count: 60 } });
    const theirs = await createItem(deps, other.id, ITEM, "en");
    await expect(pendingOrder(other.id, [theirs])).resolves.toMatchObject({ status: "pending" });
    // A new window allows orders again.
    deps.setNow(deps.clock() + ORDER_RATE_RULE.windowMs + 1);
    await expect(pendingOrder(u.id, [item])).resolves.toMatchObject({ status: "pending" });
  });
});
