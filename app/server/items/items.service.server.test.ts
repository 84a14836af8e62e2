/**
 * The items service and the save flow on an in-memory SQLite through the real migrations
 * (decision 011): ownership, the paid rule by the clock, and the pay-now decision.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { keepOrderAddress } from "../order-draft/order-draft.service.server";
import { createItem, getItemPageView, getOwnedItem, ItemError, updateOwnedItem } from "./items.service.server";
import { registerItem, saveItem } from "./save-flow.server";

const ITEM: ProductInput = {
  contactVisibility: "public",
  name: "Black phone",
  findFee: 100,
  prodType: "mobile",
  contactInfo: "Call 070-123",
  payment: "month",
  intent: "payLater",
};

let deps: ServiceTestDeps;
let n = 0;

async function user() {
  const email = `items-${++n}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({
    body: { name: "Anna Svensson", email, password: "pw-Secret-123!" },
  });
  return user.id;
}

const markPaid = (id: string, paidUntil: number | null) =>
  deps.db.updateTable("products").set({ payed: 1, paidUntil }).where("id", "=", id).execute();

beforeEach(async () => {
  deps = await createServiceDeps();
});
afterEach(async () => {
  await deps.close();
});

describe("items service", () => {
  it("a new item is unpaid and keeps the currency of the owner's language", async () => {
    const owner = await user();
    const sv = await getOwnedItem(deps, owner, await createItem(deps, owner, ITEM, "sv"));
    const en = await getOwnedItem(deps, owner, await createItem(deps, owner, ITEM, "en"));
    expect(sv).toMatchObject({ currency: "SEK", paid: false, payment: "month", prodType: "mobile" });
    expect(en.currency).toBe("EUR");
  });

  it("another owner's item is not found, and saving it changes nothing", async () => {
    const owner = await user();
    const intruder = await user();
    const id = await createItem(deps, owner, ITEM, "en");
    await expect(getOwnedItem(deps, intruder, id)).rejects.toBeInstanceOf(ItemError);
    await expect(updateOwnedItem(deps, intruder, id, { ...ITEM, name: "Mine now" })).rejects.toMatchObject({
      code: "notFound",
    });
    expect((await getOwnedItem(deps, owner, id)).name).toBe("Black phone");
  });

  it("a paid item keeps its payment choice when saved", async () => {
    const owner = await user();
    const id = await createItem(deps, owner, ITEM, "en");
    await markPaid(id, deps.clock() + 1000);
    await updateOwnedItem(deps, owner, id, { ...ITEM, payment: "year" });
    expect((await getOwnedItem(deps, owner, id)).payment).toBe("month");
  });

  it("paid follows the clock: active until paidUntil, then the finder sees 'not paid'", async () => {
    const owner = await user();
    const id = await createItem(deps, owner, ITEM, "en");
    const until = deps.clock() + 60_000;
    await markPaid(id, until);
    expect(await getItemPageView(deps, id, null)).toMatchObject({ kind: "item", contactInfo: "Call 070-123" });
    deps.setNow(until);
    // The contact info goes; with no payment on record (marked paid by hand) no relay
    // either (decision 050: only a payment kept earns it, the next test).
    expect(await getItemPageView(deps, id, null)).toEqual({
      kind: "notPaid",
      id,
      code: expect.stringMatching(/^[A-Z2-9]{3}-[A-Z2-9]{3}-[A-Z2-9]{3}$/),
      isOwner: false,
      canMessage: false,
    });
    // The owner still sees it, with the warning to activate it.
    expect(await getItemPageView(deps, id, owner)).toMatchObject({ kind: "item", ownerMustActivate: true });
  });

  it("an item never paid shows finders only 'not paid', without the relay (issue #21)", async () => {
    const owner = await user();
    const id = await createItem(deps, owner, ITEM, "en");
    expect(await getItemPageView(deps, id, null)).toMatchObject({ kind: "notPaid", canMessage: false });
  });

  it("an item covered by a paid order counts as paid once, even without its own paid state (issue #21)", async () => {
    const owner = await user();
    const id = await createItem(deps, owner, ITEM, "en");
    const now = deps.clock();
    const order = {
      userId: owner,
      provider: "test",
      period: "year",
      lang: "en",
      currency: "EUR",
      count: 1,
      unitAmount: 30,
      packageAmount: 30,
      discountAmount: 0,
      totalAmount: 30,
      adress: "{}",
      createdAt: now,
      updatedAt: now,
    };
    // An order never paid does not count.
    await deps.db
      .insertInto("orders")
      .values({ ...order, id: "o-pending", status: "pending" })
      .execute();
    await deps.db.insertInto("order_items").values({ orderId: "o-pending", productId: id }).execute();
    expect(await getItemPageView(deps, id, null)).toMatchObject({ kind: "notPaid", canMessage: false });
    await deps.db
      .insertInto("orders")
      .values({ ...order, id: "o-paid", status: "paid", paidAt: now - 1 })
      .execute();
    await deps.db.insertInto("order_items").values({ orderId: "o-paid", productId: id }).execute();
    expect(await getItemPageView(deps, id, null)).toMatchObject({ kind: "notPaid", canMessage: true });
  });

  it("the approximate value is the owner's alone: kept on save, never in the finder's view (issue #21)", async () => {
    const owner = await user();
    const id = await createItem(deps, owner, { ...ITEM, approxValue: 8_000 }, "sv");
    await markPaid(id, null);
    expect((await getOwnedItem(deps, owner, id)).approxValue).toBe(8_000);
    const view = await getItemPageView(deps, id, null);
    expect(JSON.stringify(view)).not.toContain("8000");
    expect(view).not.toHaveProperty("approxValue");
    // An edit without the field (a caller outside the form) keeps it; the form's empty field clears it.
    await updateOwnedItem(deps, owner, id, { ...ITEM, intent: "update" });
    expect((await getOwnedItem(deps, owner, id)).approxValue).toBe(8_000);
    await updateOwnedItem(deps, owner, id, { ...ITEM, intent: "update", approxValue: null });
    expect((await getOwnedItem(deps, owner, id)).approxValue).toBeNull();
  });

  it("the item page of no such item is not found", async () => {
    await expect(getItemPageView(deps, "AAAAAAAAAA", null)).rejects.toMatchObject({ code: "notFound" });
  });
});

describe("save flow", () => {
  it("pay now goes to the address form without an address email, to /order with one", async () => {
    const owner = await user();
    expect(await registerItem(deps, { userId: owner, item: { ...ITEM, intent: "payNow" }, lang: "en" })).toMatch(
      /^\/user\/register-adress\?item=/,
    );
    await keepOrderAddress(
      deps,
      owner,
      {
        firstname: "Anna",
        lastname: "",
        email: "anna@example.test",
        co: "",
        address: "",
        address2: "",
        city: "",
        state: "",
        zip: "",
        country: "",
      },
      false,
    );
    expect(await registerItem(deps, { userId: owner, item: { ...ITEM, intent: "payNow" }, lang: "en" })).toMatch(
      /^\/order\?item=/,
    );
    expect(await registerItem(deps, { userId: owner, item: ITEM, lang: "en" })).toBe("/dashboard");
  });

  it("a forged pay now for a paid item only saves it: no item is remembered for buying", async () => {
    const owner = await user();
    const id = await createItem(deps, owner, ITEM, "en");
    await markPaid(id, null);
    expect(await saveItem(deps, { userId: owner, id, item: { ...ITEM, intent: "payNow" } })).toBe("/dashboard");
    const draft = await deps.db.selectFrom("order_drafts").selectAll().where("userId", "=", owner).executeTakeFirst();
    expect(draft?.buy ?? null).toBeNull();
  });
});
