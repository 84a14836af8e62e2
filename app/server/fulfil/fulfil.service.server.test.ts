import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addMonths } from "~/lib/domain/pricing";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createItem } from "../items/items.service.server";
import { keepOrderAddress } from "../order-draft/order-draft.service.server";
import { completeTestPayment, createOrder } from "../orders/checkout.service.server";
import { claimSticker, createBatch, getBatch, voidSticker } from "../stickers/stickers.service.server";
import { findItemByCode, FulfilError, markShipped, requestReplacement, shipmentQueue } from "./fulfil.service.server";

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
const ITEM = {
  name: "Keys",
  findFee: 1,
  prodType: "other",
  contactInfo: "x",
  payment: "year",
  intent: "payLater",
} as const;

let deps: ServiceTestDeps;
let n = 0;

async function paidItem() {
  const email = `owner-${++n}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({
    body: { name: "Anna Svensson", email, password: "pw-Secret-123!" },
  });
  await deps.db.updateTable("user").set({ emailVerified: 1 }).where("id", "=", user.id).execute();
  await keepOrderAddress(deps, user.id, ADDRESS, false);
  const id = await createItem(deps, user.id, ITEM, "en");
  const order = await createOrder(deps, { userId: user.id, itemIds: [id], period: "year", lang: "en" });
  await completeTestPayment(deps, { userId: user.id, orderId: order.id });
  return { userId: user.id, email, id, orderId: order.id };
}

const codeOf = async (id: string) =>
  (await deps.db.selectFrom("products").select("code").where("id", "=", id).executeTakeFirstOrThrow()).code;
const errorCode = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof FulfilError ? e.code : e),
  );

beforeEach(async () => {
  deps = await createServiceDeps();
});
afterEach(async () => {
  await deps.close();
});

describe("replacement stickers", () => {
  it("one free replacement per item per 6 months, counted across a change of id", async () => {
    const { userId, id } = await paidItem();
    const { id: newId } = await requestReplacement(deps, userId, id, "newCode");
    expect(newId).not.toBe(id);
    deps.setNow(addMonths(deps.clock(), 6) - 60_000);
    expect(await errorCode(requestReplacement(deps, userId, newId, "reprint"))).toBe("replacement.limit");
    deps.setNow(addMonths(deps.clock(), 0) + 2 * 60_000);
    expect((await requestReplacement(deps, userId, newId, "reprint")).id).toBe(newId);
  });

  it("only for the owner's paid items", async () => {
    const { userId, id } = await paidItem();
    const other = await paidItem();
    expect(await errorCode(requestReplacement(deps, other.userId, id, "reprint"))).toBe("replacement.notFound");
    const unpaid = await createItem(deps, userId, ITEM, "en");
    expect(await errorCode(requestReplacement(deps, userId, unpaid, "reprint"))).toBe("replacement.notPaid");
  });

  it("a new code retires the old id and code: the code lookup says replaced", async () => {
    const { userId, id } = await paidItem();
    const oldCode = await codeOf(id);
    const { id: newId } = await requestReplacement(deps, userId, id, "newCode");
    expect(await errorCode(findItemByCode(deps, oldCode, "1.1.1.1"))).toBe("code.replaced");
    expect(await findItemByCode(deps, await codeOf(newId), "1.1.1.1")).toEqual({ id: newId });
    const queue = await shipmentQueue(deps, "pending");
    const replacement = queue.shipments.find((s) => s.kind === "replacement");
    expect(replacement?.items.map((i) => i.id)).toEqual([newId]);
    expect(replacement?.mode).toBe("newCode");
  });
});

describe("finding an item by its code", () => {
  it("an unregistered or voided printed sticker's code is unknown, exactly like a code never printed", async () => {
    const { userId } = await paidItem();
    const batchId = await createBatch(deps, userId, { size: 3, prepaidMonths: 12, label: "" });
    const [unclaimed, voided, claimed] = (await getBatch(deps, batchId)).stickers;
    await voidSticker(deps, batchId, voided!.id);
    const answer = async (code: string) => {
      try {
        return await findItemByCode(deps, code, "1.1.1.1");
      } catch (err) {
        return err instanceof FulfilError ? { code: err.code, params: err.params } : err;
      }
    };
    const neverPrinted = await answer("ZZZ-ZZZ-ZZZ");
    expect(neverPrinted).toEqual({ code: "code.unknown", params: {} });
    expect(await answer(unclaimed!.code)).toEqual(neverPrinted);
    expect(await answer(voided!.code)).toEqual(neverPrinted);
    // Once claimed, the sticker's code is its item's and the finder reaches it.
    await claimSticker(deps, { userId, ip: "10.9.9.9" }, { id: claimed!.id }, ITEM, "en");
    expect(await answer(claimed!.code)).toEqual({ id: claimed!.id });
  });
});

describe("mark shipped", () => {
  it("mails each owner once, even when submitted twice, and records who and when", async () => {
    const a = await paidItem();
    const queue = await shipmentQueue(deps, "pending");
    const shipment = queue.shipments.find((s) => s.orderId === a.orderId)!;
    const before = await deps.db.selectFrom("mail_outbox").selectAll().where("to", "=", a.email).execute();
    expect(await markShipped(deps, { id: "admin-1" }, { shipments: [shipment.id], orders: [] }, "")).toEqual({
      shipped: 1,
    });
    expect(await markShipped(deps, { id: "admin-2" }, { shipments: [shipment.id], orders: [] }, "X")).toEqual({
      shipped: 0,
    });
    const after = await deps.db.selectFrom("mail_outbox").selectAll().where("to", "=", a.email).execute();
    expect(after.length - before.length).toBe(1);
    const row = await deps.db
      .selectFrom("sticker_shipments")
      .selectAll()
      .where("id", "=", shipment.id)
      .executeTakeFirstOrThrow();
    expect(row.shippedBy).toBe("admin-1");
    expect(Number(row.shippedAt)).toBe(deps.clock());
    expect(row.trackingNumber).toBeNull();
  });

  it("refuses an empty selection, unknown ids and odd tracking numbers", async () => {
    await paidItem();
    expect(await errorCode(markShipped(deps, { id: "a" }, { shipments: [], orders: [] }, ""))).toBe("shipments.none");
    expect(await errorCode(markShipped(deps, { id: "a" }, { shipments: ["nope"], orders: [] }, ""))).toBe(
      "shipments.unknown",
    );
    expect(await errorCode(markShipped(deps, { id: "a" }, { shipments: ["x"], orders: [] }, "<b>"))).toBe(
      "tracking.invalid",
    );
  });
});
