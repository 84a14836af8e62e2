/**
 * The renewals' rules (renewals.service.server.ts; decisions 016, 017, 028), on an in-memory
 * SQLite through the real migrations, with a clock the test moves. Each rule is named once;
 * "held by" points at the test that already protects it, the rest are here.
 *
 * cancellationPlan / cancelRenewal
 *  1. A monthly plan cancelled inside the 6-month minimum term runs to its end; otherwise
 *     it ends with the paid period. Held by orders.server.test.ts "cancellationPlan" and
 *     tests/integration/orders.test.ts "a monthly subscription cancelled before 6 months …".
 *  2. The provider is told first; when it refuses nothing is recorded and renewal stays on.
 *     Held by tests/integration/orders.test.ts "a failing Stripe call on cancel …".
 *  3. Cancelling never shortens what is paid. Held by orders.server.test.ts "cancelRenewal".
 *  4. Only the payer's paid, renewing order: another user's or one already cancelled is
 *     refused. Held by orders.server.test.ts "refuses another user's order and an order already cancelled".
 *  5. A lapsed order is ended: neither its cancel page nor a cancel is offered. Here.
 *  6. The owner's cancel mails a confirmation. Held by billing.service.server.test.ts.
 * stopAllRenewals (account deletion)
 *  7. Every renewing order stops at the provider; a refusal stops the deletion. Held by
 *     tests/integration/account.test.ts "delete: cancels the subscription at Stripe …" and
 *     "delete: when Stripe refuses to cancel, nothing is deleted".
 * stopRenewalsInOrganisation (a member leaves)
 *  8. Only the orders made in that organisation's scope stop, with the confirmation mail;
 *     the member's personal ones keep renewing. Here.
 *  9. A provider refusal is left for staff: the order is skipped and not counted, the others
 *     still stop. Here.
 * renewalsEndedByDeletion / stopRenewalsOfItem / cancelPendingCheckoutsOfItem (deleting an item)
 * 10. The preview names only the other items the viewer manages. Held by
 *     tests/integration/organisation-items.test.ts "… the preview names only their items …".
 * 11. Deleting a paid item stops its renewals like a cancel; a refusal keeps the item. Held by
 *     tests/integration/account.test.ts "item delete of a paid item …" and "item delete: when Stripe refuses …".
 * 12. A checkout started for a deleted item is cancelled. Held by tests/integration/account.test.ts
 *     "item delete cancels a checkout started for it …".
 * renewalEndsIfCancelled
 * 13. Each order ends at its own real end, charged until then inside the minimum term.
 *     Held by orders.server.test.ts "renewalEndsIfCancelled".
 * resumeRenewal
 * 14. Resuming before the end renews again and mails. Held by billing.service.server.test.ts.
 * 15. An order past its end, lapsed, or another owner's cannot be resumed. Held by
 *     billing.service.server.test.ts "a subscription that has ended cannot be resumed …".
 * 16. A subscription the provider ended (the owner never cancelled) cannot be resumed. Here.
 * 17. An order one of whose items was deleted cannot be resumed (it would charge for it).
 *     Held by tests/integration/account.test.ts "item delete of a paid item … cannot be resumed".
 * 18. When the provider refuses to resume, nothing changes here. Here.
 * paymentPortalUrl
 * 19. Only the owner's paid Stripe order with a customer. Held by billing.service.server.test.ts
 *     "the payment portal exists only with Stripe" and tests/integration/billing.test.ts "Manage payment …".
 * 20. A provider failure is portalFailed, a provider without a portal noPortal. Here.
 * listItemSubscriptions
 * 21. Per item, the paid order that covers it longest is shown. Here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import "~/i18n/resources.server";
import { DAY_MS } from "~/lib/domain/dates";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createTestOrganisation, signUpOwner, type TestOwner } from "../../../tests/support/service-fixtures";
import { stripeEnv } from "../../../tests/support/stripe";
import { createItem } from "../items/items.service.server";
import { completeTestPayment, createOrder } from "./checkout.service.server";
import { applyPayment, endSubscription } from "./payment-events.service.server";
import type { PaymentProvider } from "./payments.server";
import {
  cancelRenewal,
  getCancelPreview,
  listItemSubscriptions,
  paymentPortalUrl,
  resumeRenewal,
  stopRenewalsInOrganisation,
} from "./renewals.service.server";

const ITEM: ProductInput = {
  name: "Grey scarf",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  contactVisibility: "public",
  payment: "year",
  intent: "payLater",
};

const START = Date.UTC(2026, 10, 23, 12);
let deps: ServiceTestDeps;

const orderRow = (id: string) =>
  deps.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const mailsTo = (to: string) => deps.db.selectFrom("mail_outbox").select("subject").where("to", "=", to).execute();

/** The payment provider as deployed, but refusing `what` (a provider that is down). */
function refusing(what: keyof PaymentProvider): ServiceTestDeps {
  return { ...deps, payments: { ...deps.payments, [what]: () => Promise.reject(new Error("provider down")) } };
}

async function paidOrder(owner: TestOwner, opts: { organisationId?: string; items?: string[] } = {}) {
  const items = opts.items ?? [await createItem(deps, owner.id, ITEM, "en", opts.organisationId)];
  const order = await createOrder(deps, {
    userId: owner.id,
    itemIds: items,
    period: "year",
    lang: "en",
    organisationId: opts.organisationId ?? null,
    immediateStart: true,
  });
  await completeTestPayment(deps, { userId: owner.id, orderId: order.id });
  return { order, items };
}

describe("with the test provider", () => {
  let owner: TestOwner;
  // One database for these tests (each makes its own owner and orders); the clock starts again.
  beforeAll(async () => {
    deps = await createServiceDeps({}, START);
  });
  beforeEach(async () => {
    deps.setNow(START);
    owner = await signUpOwner(deps, { prefix: "renew" });
  });
  afterAll(async () => {
    await deps.close();
  });

  it("a lapsed order is ended: neither its cancel page nor a cancel is offered", async () => {
    const { order } = await paidOrder(owner);
    deps.setNow(Number((await orderRow(order.id)).paidUntil) + DAY_MS);
    await endSubscription(deps, {
      eventId: "evt_lapse",
      eventType: "customer.subscription.deleted",
      orderId: order.id,
      subscriptionId: null,
      endedAt: deps.clock(),
    });
    const input = { userId: owner.id, orderId: order.id };
    await expect(getCancelPreview(deps, input)).rejects.toMatchObject({ code: "ended" });
    await expect(cancelRenewal(deps, input)).rejects.toMatchObject({ code: "ended" });
    expect((await orderRow(order.id)).cancelledAt).toBeNull();
  });

  it("a member who leaves stops only the orders made in that organisation, each with the confirmation mail", async () => {
    const org = await createTestOrganisation(deps, owner);
    const inOrg = await paidOrder(owner, { organisationId: org });
    const personal = await paidOrder(owner);
    const mailsBefore = (await mailsTo(owner.email)).length;
    expect(await stopRenewalsInOrganisation(deps, owner.id, org)).toBe(1);
    const stopped = await orderRow(inOrg.order.id);
    expect(Number(stopped.renewing)).toBe(0);
    expect(Number(stopped.cancelledAt)).toBe(START);
    expect(Number((await orderRow(personal.order.id)).renewing)).toBe(1);
    expect((await mailsTo(owner.email)).length).toBe(mailsBefore + 1);
  });

  it("a provider refusing to stop an ex-member's order leaves it for staff, uncounted; nothing is recorded", async () => {
    const org = await createTestOrganisation(deps, owner);
    const { order } = await paidOrder(owner, { organisationId: org });
    expect(await stopRenewalsInOrganisation(refusing("cancelRenewal"), owner.id, org)).toBe(0);
    const row = await orderRow(order.id);
    expect(Number(row.renewing)).toBe(1);
    expect(row.cancelledAt).toBeNull();
  });

  it("a subscription the provider ended (the owner never cancelled) cannot be resumed", async () => {
    const { order } = await paidOrder(owner);
    await endSubscription(deps, {
      eventId: "evt_provider_end",
      eventType: "customer.subscription.deleted",
      orderId: order.id,
      subscriptionId: null,
      endedAt: START + DAY_MS,
    });
    await expect(resumeRenewal(deps, { userId: owner.id, orderId: order.id })).rejects.toMatchObject({
      code: "ended",
    });
    expect(Number((await orderRow(order.id)).renewing)).toBe(0);
  });

  it("when the provider refuses to resume, the order stays cancelled and no mail goes", async () => {
    const { order } = await paidOrder(owner);
    const { endsAt } = await cancelRenewal(deps, { userId: owner.id, orderId: order.id });
    const mailsBefore = (await mailsTo(owner.email)).length;
    await expect(
      resumeRenewal(refusing("resumeRenewal"), { userId: owner.id, orderId: order.id }),
    ).rejects.toMatchObject({ code: "resumeFailed" });
    const row = await orderRow(order.id);
    expect(Number(row.renewing)).toBe(0);
    expect(Number(row.endsAt)).toBe(endsAt);
    expect((await mailsTo(owner.email)).length).toBe(mailsBefore);
  });

  it("per item, the dashboard shows the paid order that covers it longest", async () => {
    const first = await paidOrder(owner);
    const item = first.items[0]!;
    // A second order paid for the same item later (ordered ahead, decision 036): it covers it longer.
    const longer = await paidOrder(owner);
    await deps.db.insertInto("order_items").values({ orderId: longer.order.id, productId: item }).execute();
    const firstUntil = Number((await orderRow(first.order.id)).paidUntil);
    await deps.db
      .updateTable("orders")
      .set({ paidUntil: firstUntil + 365 * DAY_MS })
      .where("id", "=", longer.order.id)
      .execute();
    const subs = await listItemSubscriptions(deps, owner.id);
    expect(subs[item]).toMatchObject({ orderId: longer.order.id, paidUntil: firstUntil + 365 * DAY_MS });
    expect(subs[longer.items[0]!]).toMatchObject({ orderId: longer.order.id });
    // Only the items asked for (one dashboard page).
    expect(Object.keys(await listItemSubscriptions(deps, owner.id, [item]))).toEqual([item]);
  });
});

describe("with Stripe", () => {
  beforeAll(async () => {
    // The provider is replaced in the test; the address only makes the configuration valid.
    deps = await createServiceDeps(stripeEnv({ url: "http://127.0.0.1:9" }), START);
  });
  afterAll(async () => {
    await deps.close();
  });

  it("the customer portal: a provider failure is portalFailed, a provider without a portal noPortal", async () => {
    const owner = await signUpOwner(deps, { prefix: "renew" });
    const item = await createItem(deps, owner.id, ITEM, "en");
    const order = await createOrder(deps, {
      userId: owner.id,
      itemIds: [item],
      period: "year",
      lang: "en",
      immediateStart: true,
    });
    await applyPayment(deps, {
      eventId: "evt_portal",
      eventType: "checkout.session.completed",
      orderId: order.id,
      subscriptionId: "sub_portal",
      customerId: "cus_portal",
      paidAt: START,
      amount: { total: order.totalAmount, currency: order.currency },
    });
    const input = { userId: owner.id, orderId: order.id, lang: "en" as const };
    await expect(paymentPortalUrl(refusing("portalUrl"), input)).rejects.toMatchObject({ code: "portalFailed" });
    const none = { ...deps, payments: { ...deps.payments, portalUrl: () => Promise.resolve(null) } };
    await expect(paymentPortalUrl(none, input)).rejects.toMatchObject({ code: "noPortal" });
    const portal = {
      ...deps,
      payments: { ...deps.payments, portalUrl: () => Promise.resolve("https://portal.test/s") },
    };
    expect(await paymentPortalUrl(portal, input)).toBe("https://portal.test/s");
  });
});
