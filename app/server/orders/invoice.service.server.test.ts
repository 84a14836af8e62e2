/**
 * Invoice payment for organisations (decisions 027, 028) on an in-memory SQLite through the
 * real migrations: only a verified admin of the organisation may invoice, once its billing
 * email is confirmed; invoices are yearly; an overdue invoice stops the next; at most
 * INVOICE_CREDIT_ITEMS items on credit until the first invoice is paid. One admin is signed
 * up per test file where the rule allows (password hashing is slow).
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
import { getInvoiceOffer, markTestInvoicePaid, startInvoice } from "./invoice.service.server";
import { OrderError } from "./order-error.server";

vi.setConfig({ testTimeout: 30_000 });

const CREDIT = 3;
const START = Date.UTC(2026, 10, 23, 12);
const DAY = 24 * 60 * 60_000;
const ITEM: ProductInput = {
  name: "Desk phone",
  findFee: 0,
  prodType: "mobile",
  contactInfo: "Reception",
  contactVisibility: "public",
  payment: "year",
  intent: "payLater",
};

let deps: ServiceTestDeps;
let admin: TestOwner;
beforeAll(async () => {
  deps = await createServiceDeps({ INVOICE_CREDIT_ITEMS: String(CREDIT) }, START);
  admin = await signUpOwner(deps, { prefix: "invoice-admin" });
});
afterAll(async () => {
  await deps?.close();
});

async function items(org: string, n: number, owner = admin) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await createItem(deps, owner.id, { ...ITEM, name: `Item ${i}` }, "en", org));
  return ids;
}

const invoice = (org: string, itemIds: string[], userId = admin.id, period: "year" | "month" = "year") =>
  startInvoice(deps, { userId, itemIds: itemIds, organisationId: org, period, lang: "en" });

async function code(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OrderError);
  return (err as OrderError).code;
}

describe("invoice service", () => {
  it("an admin with a verified email and a confirmed billing email is invoiced; the items are active at once", async () => {
    const org = await createTestOrganisation(deps, admin);
    const ids = await items(org, 1);
    const { orderId, url } = await invoice(org, ids);
    expect(url).toBe(`/order/${orderId}/invoice`);
    const order = await deps.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    expect(order.status).toBe("invoiced");
    expect(order.method).toBe("invoice");
    const item = await deps.db.selectFrom("products").selectAll().where("id", "=", ids[0]!).executeTakeFirstOrThrow();
    expect(Number(item.paidUntil)).toBeGreaterThan(START);
  });

  it("only an admin may invoice: a member is told so, an outsider learns nothing, a personal order cannot", async () => {
    const org = await createTestOrganisation(deps, admin);
    const ids = await items(org, 1);
    const member = await signUpOwner(deps, { prefix: "invoice-member" });
    await joinOrganisation(deps, org, member, "member");
    expect(await code(invoice(org, ids, member.id))).toBe("invoiceAdminOnly");
    const other = await createTestOrganisation(deps, member);
    expect(await code(invoice(other, ids))).toBe("notFound");
    expect(await code(startInvoice(deps, { userId: admin.id, itemIds: ids, period: "year", lang: "en" }))).toBe(
      "invoiceOrganisationOnly",
    );
    expect(await getInvoiceOffer(deps, member.id, org)).toBeNull();
  });

  it("an admin whose own email is unverified cannot invoice", async () => {
    const unverified = await signUpOwner(deps, { verified: false, prefix: "invoice-unverified" });
    const org = await createTestOrganisation(deps, unverified);
    const ids = await items(org, 1, unverified);
    expect(await code(invoice(org, ids, unverified.id))).toBe("invoiceVerifyEmail");
    expect((await getInvoiceOffer(deps, unverified.id, org))?.blocker).toBe("verifyEmail");
  });

  it("the billing email must be confirmed, for its current address, before the first invoice", async () => {
    const org = await createTestOrganisation(deps, admin, { billingConfirmed: false });
    const ids = await items(org, 1);
    expect(await code(invoice(org, ids))).toBe("invoiceBillingUnconfirmed");
    expect((await getInvoiceOffer(deps, admin.id, org))?.blocker).toBe("billingEmail");
    // Confirmed for an earlier address: not confirmed for the new one.
    await deps.db
      .updateTable("organisations")
      .set({ billingEmailConfirmed: "old-billing@company.example" })
      .where("id", "=", org)
      .execute();
    expect(await code(invoice(org, ids))).toBe("invoiceBillingUnconfirmed");
  });

  it("invoices are yearly only", async () => {
    const org = await createTestOrganisation(deps, admin);
    expect(await code(invoice(org, await items(org, 1), admin.id, "month"))).toBe("invoiceYearlyOnly");
  });

  it("an overdue invoice stops the next until it is paid", async () => {
    const org = await createTestOrganisation(deps, admin);
    const first = await invoice(org, await items(org, 1));
    const order = await deps.db
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", first.orderId)
      .executeTakeFirstOrThrow();
    const later = Number(order.dueAt) + DAY;
    deps.setNow(later);
    try {
      const next = await items(org, 1);
      expect(await code(invoice(org, next))).toBe("invoiceOverdue");
      await markTestInvoicePaid(deps, { userId: admin.id, orderId: first.orderId });
      await expect(invoice(org, next)).resolves.toMatchObject({ url: expect.stringContaining("/invoice") });
    } finally {
      deps.setNow(START);
    }
  });

  it(`at most ${CREDIT} items are on credit until the first invoice is paid`, async () => {
    const org = await createTestOrganisation(deps, admin);
    await invoice(org, await items(org, CREDIT - 1));
    const refused = await invoice(org, await items(org, 2)).then(
      () => null,
      (e: unknown) => e as OrderError,
    );
    expect(refused?.code).toBe("invoiceCreditLimit");
    expect(refused?.params).toMatchObject({ max: CREDIT });
  });
});
