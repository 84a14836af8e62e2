/**
 * Paying before verifying the email (decision 051), on SQLite and
 * (DATABASE_URL=postgres://…) PostgreSQL: no receipt goes to an unverified address, but the
 * receipt and order confirmation with the withdrawal form go out once it is verified, by
 * whatever path verifies it, once; the thank-you page's view says so and offers the receipt.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import type { ProductInput } from "../../app/lib/forms/product-form";
import { createItem } from "../../app/server/items/items.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { getOrderView } from "../../app/server/orders/order-page.service.server";
import { withdrawOrder } from "../../app/server/orders/withdrawal.service.server";
import { createTestDatabase, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { createServiceDeps, type ServiceTestDeps } from "../support/service-db";
import { signUpOwner, type TestOwner } from "../support/service-fixtures";

const ITEM: ProductInput = {
  name: "Red scarf",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  contactVisibility: "private",
  payment: "month",
  intent: "payLater",
};

let tdb: TestDatabase;
let deps: ServiceTestDeps;

beforeAll(async () => {
  tdb = await createTestDatabase("receiptverify");
  deps = await createServiceDeps({ ...testEnv(tdb), RATE_LIMIT_DISABLED: "1" });
}, 60_000);
afterAll(async () => {
  await deps?.close();
  await tdb?.drop();
});

async function paidOrder(owner: TestOwner): Promise<string> {
  const item = await createItem(deps, owner.id, ITEM, "sv");
  const order = await createOrder(deps, {
    userId: owner.id,
    itemIds: [item],
    period: "month",
    lang: "sv",
    immediateStart: true,
  });
  await completeTestPayment(deps, { userId: owner.id, orderId: order.id });
  return order.id;
}

const mailsTo = (email: string) =>
  deps.db.selectFrom("mail_outbox").select(["subject", "text"]).where("to", "=", email).execute();

/** What the verification link does: better-auth marks the user verified (its update hooks run). */
async function verify(owner: TestOwner) {
  const ctx = await deps.auth.$context;
  await ctx.internalAdapter.updateUser(owner.id, { emailVerified: true });
}

describe(`receipts wait for the verified address on ${usingPostgres() ? "PostgreSQL" : "SQLite"}`, () => {
  it("paid unverified: no receipt yet; verified: the receipt with the withdrawal form, once", async () => {
    const owner = await signUpOwner(deps, { verified: false, language: "sv" });
    const orderId = await paidOrder(owner);
    expect(await mailsTo(owner.email)).toHaveLength(0);
    // The thank-you page says where it will go and offers the receipt at once.
    const view = await getOrderView(deps, owner.id, orderId);
    expect(view.receiptTo).toBeNull();
    expect(view.receiptWaitsFor).toBe(owner.email);
    expect(view.receiptNumber).toEqual(expect.any(Number));

    await verify(owner);
    const mails = await mailsTo(owner.email);
    expect(mails.map((m) => m.subject)).toEqual(["Ditt kvitto från Hittad"]);
    const text = mails[0]!.text;
    expect(text).toContain(`Kvitto nr ${view.receiptNumber}`);
    expect(text).toContain("Ångerrätt");
    expect(text).toContain("Standardformulär för utövande av ångerrätt");
    // Named by its receipt number; the order's raw id is only inside links (decision 051).
    expect(text.replace(/https?:\/\/\S+/g, "")).not.toContain(orderId);

    // Any later change of the verified user (a language, a name) sends nothing again.
    await verify(owner);
    expect(await mailsTo(owner.email)).toHaveLength(1);
    const after = await getOrderView(deps, owner.id, orderId);
    expect(after.receiptTo).toBe(owner.email);
    expect(after.receiptWaitsFor).toBeNull();
  });

  it("a verified payer gets the receipt at payment, and verifying later sends no second one", async () => {
    const owner = await signUpOwner(deps, { verified: true });
    await paidOrder(owner);
    expect(await mailsTo(owner.email)).toHaveLength(1);
    await verify(owner);
    expect(await mailsTo(owner.email)).toHaveLength(1);
  });

  it("an order withdrawn before the address was verified gets no stale offer to withdraw", async () => {
    const owner = await signUpOwner(deps, { verified: false });
    const orderId = await paidOrder(owner);
    await withdrawOrder(deps, { userId: owner.id, orderId });
    await verify(owner);
    const subjects = (await mailsTo(owner.email)).map((m) => m.subject);
    expect(subjects).not.toContain("Your Hittad receipt");
  });
});
