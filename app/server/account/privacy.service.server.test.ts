/**
 * Export and erasure of a user's data (decision 007, 017) on an in-memory SQLite through the
 * real migrations: the export holds the user's own records only and no secrets; erasure
 * deletes the personal records but keeps the bookkeeping (orders, receipts) with the person
 * stripped from it; records kept by address only are the account's only once it proved the
 * address; the last admin of an organisation with members is not erased. Two sign-ups.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import {
  createTestOrganisation,
  joinOrganisation,
  signUpOwner,
  type TestOwner,
} from "../../../tests/support/service-fixtures";
import { createItem } from "../items/items.service.server";
import { completeTestPayment, createOrder } from "../orders/checkout.service.server";
import { eraseUserData, exportUserData, PrivacyError } from "./privacy.service.server";

vi.setConfig({ testTimeout: 30_000 });

const ITEM: ProductInput = {
  name: "Blue backpack",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  contactVisibility: "public",
  payment: "year",
  intent: "payLater",
};

let deps: ServiceTestDeps;
let anna: TestOwner;
let bo: TestOwner;
beforeAll(async () => {
  deps = await createServiceDeps();
  anna = await signUpOwner(deps, { prefix: "privacy-anna" });
  bo = await signUpOwner(deps, { prefix: "privacy-bo", name: "Bo Berg" });
});
afterAll(async () => {
  await deps?.close();
});

const subject = (u: TestOwner, emailVerified = true) => ({ id: u.id, email: u.email, emailVerified });
const exported = async (u: TestOwner, emailVerified = true) =>
  JSON.parse((await exportUserData(deps, subject(u, emailVerified), { consentCookie: false })).json) as Record<
    string,
    unknown
  >;

async function contactMessage(email: string, userId: string | null) {
  await deps.db
    .insertInto("contact_messages")
    .values({
      id: crypto.randomUUID(),
      name: "Sender",
      email,
      message: `Hello from ${email}`,
      lang: "en",
      createdAt: deps.clock(),
      readAt: null,
      handledAt: null,
      handledBy: null,
      userId,
    })
    .execute();
}

describe("privacy service", () => {
  it("the export holds the user's own personal records only, and no secrets", async () => {
    const mine = await createItem(deps, anna.id, { ...ITEM, name: "Anna's backpack" }, "en");
    const theirs = await createItem(deps, bo.id, { ...ITEM, name: "Bo's backpack" }, "en");
    const data = await exported(anna);
    const ids = (data.items as { id: string }[]).map((i) => i.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    expect(data.profile).toMatchObject({ email: anna.email });
    const json = JSON.stringify(data);
    expect(json).not.toContain(bo.email);
    expect(json).not.toContain("Bo's backpack");
    const hash = await deps.db
      .selectFrom("account")
      .select("password")
      .where("userId", "=", anna.id)
      .executeTakeFirst();
    expect(hash?.password).toBeTruthy();
    expect(json).not.toContain(hash!.password!);
  });

  it("records kept by address only are the account's only once it proved the address", async () => {
    await contactMessage(anna.email, null);
    const unproven = (await exported(anna, false)).supportMessages as unknown[];
    expect(unproven).toHaveLength(0);
    const proven = (await exported(anna, true)).supportMessages as { email: string }[];
    expect(proven.map((m) => m.email)).toEqual([anna.email]);
  });

  it("the last admin of an organisation with members is not erased", async () => {
    const org = await createTestOrganisation(deps, bo);
    await joinOrganisation(deps, org, anna, "member");
    const err = await eraseUserData(deps, subject(bo)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrivacyError);
    expect((err as PrivacyError).code).toBe("lastOrganisationAdmin");
    expect(await deps.db.selectFrom("products").select("id").where("owner", "=", bo.id).execute()).not.toHaveLength(0);
    await deps.db.deleteFrom("organisation_members").where("organisationId", "=", org).execute();
    await deps.db.deleteFrom("organisations").where("id", "=", org).execute();
  });

  it("erasure deletes personal records but keeps orders and receipts with the person stripped", async () => {
    const id = await createItem(deps, anna.id, { ...ITEM, name: "Paid backpack" }, "en");
    const order = await createOrder(deps, { userId: anna.id, itemIds: [id], period: "year", lang: "en" });
    await completeTestPayment(deps, { userId: anna.id, orderId: order.id });
    await contactMessage(anna.email, anna.id);
    const before = await deps.db
      .selectFrom("orders")
      .select("adress")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(before.adress).toContain(anna.email);

    await eraseUserData(deps, subject(anna));

    expect(await deps.db.selectFrom("products").select("id").where("owner", "=", anna.id).execute()).toHaveLength(0);
    expect(
      await deps.db.selectFrom("contact_messages").select("id").where("email", "=", anna.email).execute(),
    ).toHaveLength(0);
    const kept = await deps.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(kept.userId).not.toBe(anna.id);
    expect(kept.adress).toBe("{}");
    expect(Number(kept.totalAmount)).toBe(order.totalAmount);
    const receipts = await deps.db.selectFrom("receipts").selectAll().where("orderId", "=", order.id).execute();
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.userId).not.toBe(anna.id);
    expect(JSON.stringify(receipts[0])).not.toContain("Anna");
    // Bo's records are untouched.
    expect(await deps.db.selectFrom("products").select("id").where("owner", "=", bo.id).execute()).not.toHaveLength(0);
  });
});
