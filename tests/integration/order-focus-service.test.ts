/**
 * "Save and pay now" opens /order on the item just saved (decision 051),
 * on SQLite and (DATABASE_URL=postgres://…) PostgreSQL: that item alone is ticked, with the
 * period chosen on its form, however many other unpaid items the owner has; the server
 * decides from the item as stored, so a made-up, paid or another owner's id changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { ORDER_PAGE_SIZE } from "../../app/lib/domain/item-filter";
import type { ProductInput } from "../../app/lib/forms/product-form";
import { createItem } from "../../app/server/items/items.service.server";
import { registerItem, saveItem } from "../../app/server/items/save-flow.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { getOrderPage } from "../../app/server/orders/order-page.service.server";
import { createTestDatabase, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { createServiceDeps, type ServiceTestDeps } from "../support/service-db";
import { createTestOrganisation, signUpOwner } from "../support/service-fixtures";

const ITEM: ProductInput = {
  name: "Black phone",
  findFee: 100,
  prodType: "mobile",
  contactInfo: "Call 070-123",
  contactVisibility: "private",
  payment: "year",
  intent: "payLater",
};

let tdb: TestDatabase;
let deps: ServiceTestDeps;

beforeAll(async () => {
  tdb = await createTestDatabase("orderfocus");
  deps = await createServiceDeps({ ...testEnv(tdb), RATE_LIMIT_DISABLED: "1" });
}, 60_000);
afterAll(async () => {
  await deps?.close();
  await tdb?.drop();
});

const focusOf = (next: string) => new URL(next, "http://x").searchParams.get("item");

describe(`save and pay now opens /order on that item on ${usingPostgres() ? "PostgreSQL" : "SQLite"}`, () => {
  it("a monthly item saved with 'pay now' is the only one ticked, monthly, among 17 unpaid items", async () => {
    const owner = await signUpOwner(deps);
    for (let i = 0; i < 16; i++) await createItem(deps, owner.id, { ...ITEM, name: `Old ${i}` }, "sv");
    const next = await registerItem(deps, {
      userId: owner.id,
      item: { ...ITEM, name: "Keys", payment: "month", intent: "payNow" },
      lang: "sv",
    });
    expect(next).toMatch(/^\/order\?item=/);
    const id = focusOf(next)!;
    const page = await getOrderPage(deps, owner.id, undefined, { focus: id });
    expect(page.preselected).toEqual([id]);
    expect(page.focus).toEqual({ id, period: "month" });
    expect(page.items.filter((i) => !i.paid)).toHaveLength(17);
    // Opened from the menu, the page is as before: every unpaid item, no period of its own.
    const plain = await getOrderPage(deps, owner.id);
    expect(plain.preselected).toHaveLength(17);
    expect(plain.focus).toBeNull();
  });

  it("an edited item's 'pay now' focuses it with its stored period, listed first even past the first page", async () => {
    const owner = await signUpOwner(deps);
    const old = await createItem(deps, owner.id, { ...ITEM, name: "Oldest" }, "en");
    // The service clock stands still: the newer items are made a minute later.
    deps.setNow(deps.clock() + 60_000);
    for (let i = 0; i < ORDER_PAGE_SIZE; i++) await createItem(deps, owner.id, { ...ITEM, name: `Newer ${i}` }, "en");
    const next = await saveItem(deps, {
      userId: owner.id,
      id: old,
      item: { ...ITEM, name: "Oldest", payment: "month", intent: "payNow" },
    });
    expect(focusOf(next)).toBe(old);
    const page = await getOrderPage(deps, owner.id, undefined, { focus: old });
    expect(page.items[0]!.id).toBe(old);
    expect(page.items).toHaveLength(ORDER_PAGE_SIZE + 1);
    expect(page.preselected).toEqual([old]);
    expect(page.focus?.period).toBe("month");
  });

  it("without an address email 'pay now' goes to the address form, which carries the item on", async () => {
    const owner = await signUpOwner(deps, { address: false });
    const next = await registerItem(deps, { userId: owner.id, item: { ...ITEM, intent: "payNow" }, lang: "en" });
    expect(next).toMatch(/^\/user\/register-adress\?item=[A-Za-z0-9]+$/);
  });

  it("another owner's item, a paid item, an item of another scope or a made-up id focus nothing", async () => {
    const owner = await signUpOwner(deps);
    const other = await signUpOwner(deps);
    const mine = await createItem(deps, owner.id, ITEM, "en");
    const theirs = await createItem(deps, other.id, { ...ITEM, payment: "month" }, "en");
    const paid = await createItem(deps, owner.id, { ...ITEM, payment: "month" }, "en");
    const order = await createOrder(deps, {
      userId: owner.id,
      itemIds: [paid],
      period: "month",
      lang: "en",
      immediateStart: true,
    });
    await completeTestPayment(deps, { userId: owner.id, orderId: order.id });
    const org = await createTestOrganisation(deps, owner);
    const orgItem = await createItem(deps, owner.id, { ...ITEM, payment: "month" }, "en", org);
    for (const focus of [theirs, paid, orgItem, "AAAAAAAAAA"]) {
      const page = await getOrderPage(deps, owner.id, undefined, { focus });
      expect(page.focus).toBeNull();
      expect(page.preselected).toEqual([mine]);
      expect(page.items.map((i) => i.id)).not.toContain(theirs);
    }
  });
});
