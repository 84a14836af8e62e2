/**
 * Withdrawal records (decision 051), on SQLite and (DATABASE_URL=postgres://…) PostgreSQL:
 * each refund gets a credit note (kreditfaktura) numbered from its own series, naming the
 * receipt it corrects, with the VAT of what went back; the withdraw page shows the
 * withdrawn state on a later visit; the mail names the order by its receipt number and says
 * "everything you paid" when everything went back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import type { ProductInput } from "../../app/lib/forms/product-form";
import { createItem } from "../../app/server/items/items.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { getCreditNotePdf } from "../../app/server/orders/credit-note.service.server";
import { findCreditNoteOfOrder, vatOfRefund } from "../../app/server/orders/credit-notes.server";
import { getWithdrawalPage, withdrawOrder } from "../../app/server/orders/withdrawal.service.server";
import { createTestDatabase, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { pdfToText } from "../support/pdf";
import { createServiceDeps, type ServiceTestDeps } from "../support/service-db";
import { signUpOwner, type TestOwner } from "../support/service-fixtures";

const DAY = 24 * 60 * 60_000;
const START = Date.UTC(2026, 10, 23, 12);
const ITEM: ProductInput = {
  name: "Blue bike",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  contactVisibility: "private",
  payment: "year",
  intent: "payLater",
};

let tdb: TestDatabase;
let deps: ServiceTestDeps;

beforeAll(async () => {
  tdb = await createTestDatabase("creditnote");
  deps = await createServiceDeps({ ...testEnv(tdb), RATE_LIMIT_DISABLED: "1" }, START);
}, 60_000);
afterAll(async () => {
  await deps?.close();
  await tdb?.drop();
});

async function paid(owner: TestOwner, lang: "en" | "sv" = "en", immediateStart = true) {
  const item = await createItem(deps, owner.id, ITEM, lang);
  const order = await createOrder(deps, { userId: owner.id, itemIds: [item], period: "year", lang, immediateStart });
  await completeTestPayment(deps, { userId: owner.id, orderId: order.id });
  const receipt = await deps.db
    .selectFrom("receipts")
    .selectAll()
    .where("orderId", "=", order.id)
    .executeTakeFirstOrThrow();
  return { orderId: order.id, receipt: { ...receipt, number: Number(receipt.number) } };
}

const lastMail = async (to: string) =>
  (
    await deps.db
      .selectFrom("mail_outbox")
      .select(["subject", "text"])
      .where("to", "=", to)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .execute()
  ).find((m) => m.subject.includes("withdrawn") || m.subject.includes("ångrat"))!;

describe(`credit notes and the withdrawn state on ${usingPostgres() ? "PostgreSQL" : "SQLite"}`, () => {
  it("a pro rata refund gets a credit note of its own series, naming the receipt, with the refund's share of VAT", async () => {
    deps.setNow(START);
    const owner = await signUpOwner(deps);
    const { orderId, receipt } = await paid(owner);
    deps.setNow(START + 3 * DAY + 60_000);
    const { refund } = await withdrawOrder(deps, { userId: owner.id, orderId });
    const total = Number(receipt.totalAmount);
    expect(refund).toBeLessThan(total);
    const note = (await findCreditNoteOfOrder(deps.db, orderId))!;
    expect(note).toMatchObject({
      receiptNumber: receipt.number,
      totalAmount: refund,
      vatAmount: vatOfRefund(refund, { totalAmount: total, vatAmount: Number(receipt.vatAmount) }),
      items: [{ name: "Blue bike" }],
    });

    // The next one follows in the same series, whatever the receipts' numbers did meanwhile.
    deps.setNow(START);
    const other = await signUpOwner(deps);
    const second = await paid(other);
    await withdrawOrder(deps, { userId: other.id, orderId: second.orderId });
    expect((await findCreditNoteOfOrder(deps.db, second.orderId))!.number).toBe(note.number + 1);

    // The document: its number, the receipt it corrects, the credited amount.
    const { pdf, filename } = await getCreditNotePdf(deps, { userId: owner.id, orderId, lang: "en" });
    expect(filename).toBe(`hittad-credit-note-${note.number}.pdf`);
    const text = pdfToText(pdf);
    expect(text).toContain(`Credit note no. ${note.number}`);
    expect(text).toContain("Corrects receipt no.");
    expect(text).toContain(String(receipt.number));
    expect(text).toContain("Refund on withdrawal");
    // Another user cannot read it.
    await expect(getCreditNotePdf(deps, { userId: other.id, orderId, lang: "en" })).rejects.toMatchObject({
      code: "notFound",
    });
  });

  it("a full refund credits all the VAT; the mail says 'everything you paid' and names the receipt, not the order id", async () => {
    deps.setNow(START);
    const owner = await signUpOwner(deps, { language: "sv" });
    const { orderId, receipt } = await paid(owner, "sv", false);
    await withdrawOrder(deps, { userId: owner.id, orderId });
    const note = (await findCreditNoteOfOrder(deps.db, orderId))!;
    expect(note.totalAmount).toBe(Number(receipt.totalAmount));
    expect(note.vatAmount).toBe(Number(receipt.vatAmount));
    const mail = await lastMail(owner.email);
    expect(mail.text).toContain(`kvitto nr ${receipt.number}`);
    expect(mail.text).toContain("Återbetalning: allt du betalade,");
    expect(mail.text).not.toMatch(/av de .* du betalade/);
    expect(mail.text).toContain(`Kreditfaktura nr ${note.number}`);
    expect(mail.text.replace(/https?:\/\/\S+/g, "")).not.toContain(orderId);
  });

  it("the withdraw page on a later visit shows what happened, not a refusal", async () => {
    deps.setNow(START);
    const owner = await signUpOwner(deps);
    const { orderId, receipt } = await paid(owner);
    const before = await getWithdrawalPage(deps, { userId: owner.id, orderId });
    expect(before.kind).toBe("open");
    const { refund } = await withdrawOrder(deps, { userId: owner.id, orderId });
    const page = await getWithdrawalPage(deps, { userId: owner.id, orderId });
    expect(page).toMatchObject({
      kind: "withdrawn",
      withdrawn: {
        orderId,
        refund,
        receiptNumber: receipt.number,
        creditNoteNumber: (await findCreditNoteOfOrder(deps.db, orderId))!.number,
        items: [{ name: "Blue bike" }],
      },
    });
    // Still the payer's alone.
    const other = await signUpOwner(deps);
    await expect(getWithdrawalPage(deps, { userId: other.id, orderId })).rejects.toMatchObject({ code: "notFound" });
  });
});
