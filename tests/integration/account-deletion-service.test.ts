/**
 * Deleting an account loses nothing by surprise (decision 051), on SQLite and
 * (DATABASE_URL=postgres://…) PostgreSQL: a purchase still inside its 14 days is offered
 * for withdrawal with the refund it would give, and deleting without it needs the refund
 * given up; an organisation the person alone administers waits for another admin, or, with
 * no other member, goes only knowingly with its items and stickers listed; when a member
 * deletes their account the organisation's admins are told; a paid order's stickers not
 * posted yet leave the staff's "to ship" queue with a note.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import type { ProductInput } from "../../app/lib/forms/product-form";
import { formatStickerCode } from "../../app/lib/domain/sticker-code";
import { deletionRefusal, getDeletionPreview } from "../../app/server/account/deletion.service.server";
import { eraseUserData } from "../../app/server/account/privacy.service.server";
import { markShipped, shipmentQueue } from "../../app/server/fulfil/fulfil.service.server";
import { createItem } from "../../app/server/items/items.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { withdrawOrder } from "../../app/server/orders/withdrawal.service.server";
import { createTestDatabase, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { createServiceDeps, type ServiceTestDeps } from "../support/service-db";
import { createTestOrganisation, joinOrganisation, signUpOwner, type TestOwner } from "../support/service-fixtures";

const DAY = 24 * 60 * 60_000;
const START = Date.UTC(2026, 10, 23, 12);
const ITEM: ProductInput = {
  name: "Grey laptop",
  findFee: 100,
  prodType: "laptop",
  contactInfo: "Call 070-123",
  contactVisibility: "private",
  payment: "year",
  intent: "payLater",
};
const TICKS = { forfeitRefunds: true, deleteOrganisations: true };
const NO_TICKS = { forfeitRefunds: false, deleteOrganisations: false };

let tdb: TestDatabase;
let deps: ServiceTestDeps;

beforeAll(async () => {
  tdb = await createTestDatabase("accountdeletion");
  deps = await createServiceDeps({ ...testEnv(tdb), RATE_LIMIT_DISABLED: "1" }, START);
}, 60_000);
afterAll(async () => {
  await deps?.close();
  await tdb?.drop();
});

async function pay(owner: TestOwner, itemIds: string[], organisationId: string | null = null) {
  const order = await createOrder(deps, {
    userId: owner.id,
    itemIds,
    period: "year",
    lang: "sv",
    immediateStart: true,
    organisationId,
  });
  await completeTestPayment(deps, { userId: owner.id, orderId: order.id });
  return order.id;
}

const subject = (u: TestOwner) => ({ id: u.id, email: u.email.toLowerCase(), emailVerified: u.emailVerified });

describe(`deleting an account within 14 days of paying on ${usingPostgres() ? "PostgreSQL" : "SQLite"}`, () => {
  it("offers the withdrawal with its refund, pro rata by the days used, and refuses to delete without giving it up", async () => {
    deps.setNow(START);
    const owner = await signUpOwner(deps);
    const orderId = await pay(owner, [await createItem(deps, owner.id, ITEM, "sv")]);
    const total = Number(
      (await deps.db.selectFrom("orders").select("totalAmount").where("id", "=", orderId).executeTakeFirstOrThrow())
        .totalAmount,
    );
    let preview = await getDeletionPreview(deps, owner.id);
    expect(preview.withdrawals).toMatchObject([
      { orderId, refund: total, paid: total, receiptNumber: expect.any(Number) },
    ]);
    expect(deletionRefusal(preview, NO_TICKS)).toEqual({ code: "refundsNotForfeited" });
    expect(deletionRefusal(preview, { ...NO_TICKS, forfeitRefunds: true })).toBeNull();

    // Three days used: the refund is what withdrawing would give back then.
    deps.setNow(START + 3 * DAY + 60_000);
    preview = await getDeletionPreview(deps, owner.id);
    expect(preview.withdrawals[0]!.refund).toBe(total - Math.floor((total * 3) / 365));

    // After the 14 days nothing is offered and nothing needs giving up.
    deps.setNow(START + 15 * DAY);
    preview = await getDeletionPreview(deps, owner.id);
    expect(preview.withdrawals).toEqual([]);
    expect(deletionRefusal(preview, NO_TICKS)).toBeNull();
  });

  it("a withdrawn order and an organisation's order offer no withdrawal", async () => {
    deps.setNow(START);
    const owner = await signUpOwner(deps);
    const withdrawn = await pay(owner, [await createItem(deps, owner.id, ITEM, "sv")]);
    await withdrawOrder(deps, { userId: owner.id, orderId: withdrawn });
    const org = await createTestOrganisation(deps, owner);
    await joinOrganisation(deps, org, await signUpOwner(deps), "admin");
    await pay(owner, [await createItem(deps, owner.id, ITEM, "sv", org)], org);
    const preview = await getDeletionPreview(deps, owner.id);
    expect(preview.withdrawals).toEqual([]);
  });
});

describe(`deleting the account of an organisation's only admin on ${usingPostgres() ? "PostgreSQL" : "SQLite"}`, () => {
  it("with other members the deletion waits for another admin, whatever is ticked", async () => {
    const admin = await signUpOwner(deps);
    const org = await createTestOrganisation(deps, admin);
    await joinOrganisation(deps, org, await signUpOwner(deps), "member");
    const preview = await getDeletionPreview(deps, admin.id);
    expect(preview.organisations).toMatchObject([{ id: org, fate: "handOver", items: [] }]);
    expect(deletionRefusal(preview, TICKS)?.code).toBe("lastOrganisationAdmin");
  });

  it("with no other member it is deleted only knowingly, its items and sticker codes listed", async () => {
    deps.setNow(START);
    const admin = await signUpOwner(deps);
    const org = await createTestOrganisation(deps, admin);
    const paid = await createItem(deps, admin.id, { ...ITEM, name: "Prepaid bag" }, "sv", org);
    await deps.db
      .updateTable("products")
      .set({ payed: 1, paidUntil: START + 300 * DAY })
      .where("id", "=", paid)
      .execute();
    await createItem(deps, admin.id, { ...ITEM, name: "Umbrella" }, "sv", org);
    const code = (await deps.db.selectFrom("products").select("code").where("id", "=", paid).executeTakeFirstOrThrow())
      .code;
    const preview = await getDeletionPreview(deps, admin.id);
    expect(preview.organisations).toHaveLength(1);
    expect(preview.organisations[0]).toMatchObject({ id: org, fate: "deleted", itemCount: 2 });
    expect(preview.organisations[0]!.items).toEqual([
      { id: paid, name: "Prepaid bag", code: formatStickerCode(code), active: true },
      expect.objectContaining({ name: "Umbrella", active: false }),
    ]);
    expect(deletionRefusal(preview, NO_TICKS)).toEqual({ code: "organisationsNotConfirmed" });
    expect(deletionRefusal(preview, { ...NO_TICKS, deleteOrganisations: true })).toBeNull();
  });

  it("a member's deletion tells the organisation's verified admins, in their language, naming who inherits", async () => {
    const admin = await signUpOwner(deps, { language: "sv", name: "Astrid Admin" });
    const unverified = await signUpOwner(deps, { verified: false, name: "Ulla Unverified" });
    const member = await signUpOwner(deps, { name: "Mats Member" });
    const org = await createTestOrganisation(deps, admin);
    await joinOrganisation(deps, org, unverified, "admin");
    await joinOrganisation(deps, org, member, "member");
    const item = await createItem(deps, member.id, ITEM, "sv", org);
    await eraseUserData(deps, subject(member));
    const mails = await deps.db
      .selectFrom("mail_outbox")
      .select(["to", "subject", "text"])
      .where("subject", "like", "%raderat sitt konto%")
      .where("to", "in", [admin.email, unverified.email])
      .execute();
    expect(mails.map((m) => m.to)).toEqual([admin.email]);
    expect(mails[0]!.text).toContain("Mats Member");
    // The member's item passed to an admin (decision 022's heir), and the mail says to whom.
    const row = await deps.db.selectFrom("products").select("owner").where("id", "=", item).executeTakeFirstOrThrow();
    const heir = [admin, unverified].find((a) => a.id === row.owner)!;
    expect(heir).toBeDefined();
    expect(mails[0]!.text).toContain(`nu registrerade på ${heir.name}`);
  });
});

describe(`a deleted account's stickers leave the staff queue on ${usingPostgres() ? "PostgreSQL" : "SQLite"}`, () => {
  it("a paid order not posted yet moves from 'to ship' to 'not to post' with a note, and cannot be marked shipped", async () => {
    deps.setNow(START);
    const owner = await signUpOwner(deps);
    const orderId = await pay(owner, [await createItem(deps, owner.id, ITEM, "sv")]);
    const queued = await shipmentQueue(deps, "pending");
    const shipment = queued.shipments.find((s) => s.orderId === orderId)!;
    expect(shipment).toBeDefined();

    deps.setNow(START + DAY);
    await eraseUserData(deps, subject(owner));
    const pending = await shipmentQueue(deps, "pending");
    expect(pending.shipments.map((s) => s.orderId)).not.toContain(orderId);
    const dropped = await shipmentQueue(deps, "dropped");
    expect(dropped.shipments.find((s) => s.orderId === orderId)).toMatchObject({
      status: "dropped",
      droppedAt: START + DAY,
      note: "accountDeleted",
      // The person is gone from the record: no address to post to.
      address: expect.objectContaining({ address: "", city: "", zip: "" }),
    });
    expect(dropped.counts.dropped).toBeGreaterThanOrEqual(1);
    expect(pending.counts.pending).toBe(queued.counts.pending - 1);

    // Staff selecting it anyway (an old tab) post nothing.
    const { shipped } = await markShipped(deps, { id: "staff" }, { shipments: [shipment.id], orders: [] }, "");
    expect(shipped).toBe(0);
    const row = await deps.db
      .selectFrom("sticker_shipments")
      .select("status")
      .where("id", "=", shipment.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("dropped");
  });

  it("stickers already posted stay under 'shipped'", async () => {
    deps.setNow(START);
    const owner = await signUpOwner(deps);
    const orderId = await pay(owner, [await createItem(deps, owner.id, ITEM, "sv")]);
    const shipment = (await shipmentQueue(deps, "pending")).shipments.find((s) => s.orderId === orderId)!;
    await markShipped(deps, { id: "staff" }, { shipments: [shipment.id], orders: [] }, "");
    await eraseUserData(deps, subject(owner));
    const shipped = await shipmentQueue(deps, "shipped");
    expect(shipped.shipments.find((s) => s.orderId === orderId)).toMatchObject({ status: "shipped", note: null });
  });
});
