/**
 * Ordering ahead (decision 036): an item prepaid with its sticker may be ordered before its
 * prepaid months end, and the subscription's first period starts at the prepaid end, so
 * no day is paid twice; an item an order covers is still refused.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ProductInput } from "~/lib/product-form";
import { addMonths, periodEnd } from "~/lib/pricing";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { ADDRESS, signUpOwner } from "../../../tests/support/service-fixtures";
import { createItem, getItemPageView } from "../items/items.service.server";
import { findItemById } from "../items/items.repository.server";
import { keepOrderAddress } from "../order-draft/order-draft.service.server";
import { claimSticker, createBatch, getBatch } from "../stickers/stickers.service.server";
import { completeTestPayment, createOrder } from "./checkout.service.server";
import { getOrderPage } from "./order-page.service.server";

vi.setConfig({ testTimeout: 30_000 });

const ITEM: ProductInput = {
  contactVisibility: "public",
  name: "Red bike",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  payment: "year",
  intent: "payLater",
};

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
async function prepaidItem() {
  const staff = (await signUpOwner(deps, { verified: false, address: false, prefix: "ahead-staff" })).id;
  const batch = await getBatch(deps, await createBatch(deps, staff, { size: 1, prepaidMonths: 6, label: "Pack" }));
  const id = batch.stickers[0]!.id;
  await claimSticker(deps, { userId: owner, ip: "10.0.0.1" }, { id }, ITEM, "en");
  return { id, until: addMonths(deps.clock(), 6) };
}

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
    const item = await createItem(deps, owner, ITEM, "en");
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
    const unpaid = await createItem(deps, owner, ITEM, "en");
    await expect(order([id, unpaid])).rejects.toMatchObject({ code: "prepaidMixed" });
  });

  it("with Stripe (no later first period yet) a prepaid item is neither offered nor taken ahead", async () => {
    const { id, until } = await prepaidItem();
    deps.setNow(until - 10 * 24 * 60 * 60_000);
    const stripe = { ...deps, config: { ...deps.config, payments: "stripe" as const } };
    await expect(
      createOrder(stripe, { userId: owner, itemIds: [id], period: "year", lang: "en" }),
    ).rejects.toMatchObject({ code: "alreadyPaid" });
    expect((await getOrderPage(stripe, owner)).items.find((i) => i.id === id)?.ahead).toBe(false);
    const page = await getItemPageView(stripe, id, owner);
    expect(page.kind === "item" && page.manage).toMatchObject({ prepaidUntil: until, prepaidOffer: false });
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
