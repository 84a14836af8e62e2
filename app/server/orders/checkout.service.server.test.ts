/**
 * The checkout's rules (checkout.service.server.ts; decisions 008, 012, 018, 022, 027, 036,
 * 041), on an in-memory SQLite through the real migrations. Each rule is named once; "held by"
 * points at the test that already protects it, the rest are here.
 *
 * chargedAmounts
 *  1. Prices include 25 % VAT; under the reverse charge the buyer pays each amount's net and
 *     the lines still add up to the total. Here (the sums); the invoice's words by
 *     tests/integration/invoices.test.ts "an EU business outside Sweden with a VAT number pays no VAT …".
 * createOrder
 *  2. The totals are the server's, never the browser's. Held by tests/integration/orders.test.ts
 *     "recomputes the summary on the server …".
 *  3. Nothing selected is refused. Held by tests/integration/orders.test.ts "nothing selected …".
 *  4. An item ticked twice is ordered and charged once. Here.
 *  5. "All unpaid" means the server's list, filtered, at most 2,000. Held by
 *     tests/integration/dashboard-scale.test.ts "'all unpaid' …".
 *  6. Orders per user are rate-limited. Held by orders.server.test.ts "is rate-limited per user …".
 *  7. Every id must be the owner's and in the order's scope, or nothing is created. Held by
 *     tests/integration/orders.test.ts "another user's item ids are refused …" and
 *     tests/integration/invoices.test.ts "an organisation is billed for its own items only …".
 *  8. Items already paid are refused (a prepaid sticker's item may be ordered ahead). Held by
 *     orders.server.test.ts "refuses items already paid" and order-ahead.service.server.test.ts.
 *  9. Stickers need a complete postal address. Held by orders.server.test.ts.
 * 10. Only a consumer's personal card order records the request to start at once, even when an
 *     organisation's checkout sends it. Here (the personal case by withdrawal.service.server.test.ts).
 * 11. An invoice order is refused past the credit limit, while one is overdue, and for items
 *     already invoiced. Held by invoice.service.server.test.ts and tests/integration/invoices.test.ts.
 * startCheckout
 * 12. A consumer's checkout without the request to start at once starts nothing. Held by
 *     withdrawal.service.server.test.ts "a consumer's card checkout without the ticked box is refused …".
 * 13. A provider that fails is checkoutFailed, not an error page. Held by
 *     tests/integration/orders.test.ts "a failing Stripe API is a translated 502 …".
 * 14. The provider's checkout id, and the start it gives an order placed ahead, are kept. Here.
 * the test checkout (getTestCheckout, completeTestPayment)
 * 15. It exists only with PAYMENTS=test. Here.
 * 16. Only the payer's own order, never an invoice. Held by orders.server.test.ts "is only for
 *     the order's owner" and tests/integration/invoices.test.ts "an invoice order is never paid through the test checkout".
 * 17. An abandoned (cancelled) checkout is refused as such and pays nothing. Here.
 * 18. Items another order paid meanwhile are refused. Held by orders.server.test.ts.
 * 19. Completing it twice pays once: its event is the order's. Here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "~/i18n/resources.server";
import { addMonths } from "~/lib/domain/pricing";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createTestOrganisation, signUpOwner } from "../../../tests/support/service-fixtures";
import { stripeEnv } from "../../../tests/support/stripe";
import { createItem } from "../items/items.service.server";
import {
  chargedAmounts,
  completeTestPayment,
  createOrder,
  getTestCheckout,
  startCheckout,
} from "./checkout.service.server";

const ITEM: ProductInput = {
  name: "Green wallet",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  contactVisibility: "public",
  payment: "year",
  intent: "payLater",
};

const START = Date.UTC(2026, 10, 23, 12);
// One database per payment provider for the file; each test makes its own owner and items.
let testMode: ServiceTestDeps;
let stripeMode: ServiceTestDeps;

beforeAll(async () => {
  testMode = await createServiceDeps({}, START);
  // No request reaches the address: the tests that use it replace the provider or are refused first.
  stripeMode = await createServiceDeps(stripeEnv({ url: "http://127.0.0.1:9" }), START);
});
afterAll(async () => {
  await testMode.close();
  await stripeMode.close();
});

async function setUp(d: ServiceTestDeps = testMode) {
  const owner = await signUpOwner(d, { prefix: "checkout" });
  const item = await createItem(d, owner.id, ITEM, "en");
  return { d, owner, item };
}

const shipments = (d: ServiceTestDeps, orderId: string) =>
  d.db.selectFrom("sticker_shipments").select("id").where("orderId", "=", orderId).execute();

describe("chargedAmounts", () => {
  const examples = [
    { unitPrice: 10000, packagePrice: 30000, discount: 10000, total: 20000 },
    { unitPrice: 1000, packagePrice: 7000, discount: 2333, total: 4667 },
    { unitPrice: 999, packagePrice: 999, discount: 0, total: 999 },
    // Nets rounded on their own would not add up: 2402 − 801 ≠ 1602.
    { unitPrice: 1001, packagePrice: 3003, discount: 1001, total: 2002 },
  ];

  it("with VAT: the amounts are the prices, the VAT a fifth of the total rounded to the öre", () => {
    for (const m of examples) {
      const a = chargedAmounts(m, false);
      expect(a).toMatchObject({ unitAmount: m.unitPrice, packageAmount: m.packagePrice, totalAmount: m.total });
      expect(a.vatAmount).toBe(m.total - Math.round(m.total / 1.25));
    }
  });

  it("under the reverse charge: no VAT, each amount its net, and the lines add up to the total", () => {
    for (const m of examples) {
      const a = chargedAmounts(m, true);
      expect(a.vatAmount).toBe(0);
      expect(a.totalAmount).toBe(Math.round(m.total / 1.25));
      expect(a.unitAmount).toBe(Math.round(m.unitPrice / 1.25));
      expect(a.packageAmount - a.discountAmount).toBe(a.totalAmount);
    }
  });
});

describe("createOrder", () => {
  it("an item ticked twice is ordered and charged once", async () => {
    const { d, owner, item } = await setUp();
    const once = await createOrder(d, { userId: owner.id, itemIds: [item], period: "year", lang: "en" });
    const other = await signUpOwner(d, { prefix: "checkout" });
    const theirs = await createItem(d, other.id, ITEM, "en");
    const twice = await createOrder(d, { userId: other.id, itemIds: [theirs, theirs], period: "year", lang: "en" });
    expect(twice.count).toBe(1);
    expect(twice.totalAmount).toBe(once.totalAmount);
    const lines = await d.db.selectFrom("order_items").select("productId").where("orderId", "=", twice.id).execute();
    expect(lines).toEqual([{ productId: theirs }]);
  });

  it("an organisation's order never records the request to start at once, even when it is sent", async () => {
    const { d, owner } = await setUp();
    const org = await createTestOrganisation(d, owner);
    const item = await createItem(d, owner.id, ITEM, "en", org);
    const order = await createOrder(d, {
      userId: owner.id,
      itemIds: [item],
      period: "year",
      lang: "en",
      organisationId: org,
      immediateStart: true,
    });
    expect(order.immediateStartAt).toBeNull();
    const row = await d.db
      .selectFrom("orders")
      .select("immediateStartAt")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(row.immediateStartAt).toBeNull();
  });
});

describe("startCheckout", () => {
  it("keeps the provider's checkout id and the start it gives an order placed ahead", async () => {
    const { d, owner, item } = await setUp();
    const startsAt = addMonths(START, 3);
    const provider = {
      ...d,
      payments: {
        ...d.payments,
        startCheckout: () => Promise.resolve({ url: "https://pay.test/cs_1", checkoutId: "cs_1", startsAt }),
      },
    };
    const input = { userId: owner.id, itemIds: [item], period: "year" as const, lang: "en" as const };
    expect(await startCheckout(provider, { ...input, immediateStart: true })).toEqual({ url: "https://pay.test/cs_1" });
    const row = await d.db.selectFrom("orders").selectAll().where("userId", "=", owner.id).executeTakeFirstOrThrow();
    expect(row.checkoutId).toBe("cs_1");
    expect(Number(row.startsAt)).toBe(startsAt);
    expect(row.status).toBe("pending");
  });
});

describe("the test checkout", () => {
  it("does not exist with PAYMENTS=stripe", async () => {
    const { d, owner, item } = await setUp(stripeMode);
    const order = await createOrder(d, { userId: owner.id, itemIds: [item], period: "year", lang: "en" });
    // Even an order the test provider made (before PAYMENTS changed) is not paid here.
    await d.db.updateTable("orders").set({ provider: "test" }).where("id", "=", order.id).execute();
    const input = { userId: owner.id, orderId: order.id };
    await expect(getTestCheckout(d, input)).rejects.toMatchObject({ code: "notFound" });
    await expect(completeTestPayment(d, input)).rejects.toMatchObject({ code: "notFound" });
    const row = await d.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("pending");
  });

  it("an abandoned (cancelled) checkout is refused as such and pays nothing", async () => {
    const { d, owner, item } = await setUp();
    const order = await createOrder(d, { userId: owner.id, itemIds: [item], period: "year", lang: "en" });
    await d.db.updateTable("orders").set({ status: "cancelled" }).where("id", "=", order.id).execute();
    const input = { userId: owner.id, orderId: order.id };
    await expect(getTestCheckout(d, input)).rejects.toMatchObject({ code: "checkoutCancelled" });
    await expect(completeTestPayment(d, input)).rejects.toMatchObject({ code: "checkoutCancelled" });
    const p = await d.db.selectFrom("products").select("payed").where("id", "=", item).executeTakeFirstOrThrow();
    expect(Number(p.payed)).toBe(0);
  });

  it("completing it twice pays once: one shipment, one receipt", async () => {
    const { d, owner, item } = await setUp();
    const order = await createOrder(d, { userId: owner.id, itemIds: [item], period: "year", lang: "en" });
    const input = { userId: owner.id, orderId: order.id };
    expect(await completeTestPayment(d, input)).toBe("applied");
    expect(await completeTestPayment(d, input)).toBe("duplicate");
    expect(await shipments(d, order.id)).toHaveLength(1);
    const receipts = await d.db.selectFrom("receipts").select("id").where("orderId", "=", order.id).execute();
    expect(receipts).toHaveLength(1);
    expect((await getTestCheckout(d, input)).status).toBe("paid");
  });
});
