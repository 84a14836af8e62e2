/**
 * Receipts show VAT only from a seller with a VAT number (decision 057): without
 * COMPANY_VAT_NR (the demo, development, tests) or below the VAT threshold, the receipt
 * (PDF and page data), the credit note and the receipt mails print no net amount, no
 * "VAT 25 %" and no VAT sum, and say that no VAT is charged. The buyer's country is printed
 * by its name in the reader's language, never as a code.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import "~/i18n/resources.server";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { signUpOwner } from "../../../tests/support/service-fixtures";
import { pdfToText } from "../../../tests/support/pdf";
import { createItem } from "../items/items.service.server";
import { getReceipt, getReceiptPdf, simulateRenewal } from "./billing.service.server";
import { completeTestPayment, createOrder } from "./checkout.service.server";
import { getCreditNotePdf } from "./credit-note.service.server";
import { withdrawOrder } from "./withdrawal.service.server";

vi.setConfig({ testTimeout: 30_000 });

const ITEM: ProductInput = {
  name: "Blue bike",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  contactVisibility: "public",
  payment: "month",
  intent: "payLater",
};

const START = Date.UTC(2026, 10, 23, 12);
const VAT_NR = "SE559000123401";
let deps: ServiceTestDeps | null = null;
afterEach(async () => {
  await deps?.close();
  deps = null;
});

async function paid(env: Record<string, string>, language: "en" | "sv") {
  deps = await createServiceDeps(env, START);
  const u = await signUpOwner(deps, { language, prefix: "receipt-vat" });
  const item = await createItem(deps, u.id, ITEM, language);
  const o = await createOrder(deps, { userId: u.id, itemIds: [item], period: "month", lang: language });
  await completeTestPayment(deps, { userId: u.id, orderId: o.id });
  const mails = async () =>
    (await deps!.db.selectFrom("mail_outbox").select("text").where("to", "=", u.email).execute())
      .map((m) => m.text)
      .join("\n");
  return { d: deps, u, o, mails };
}

describe("a seller without a VAT number prints no VAT", () => {
  it("the receipt PDF, its page data and the first receipt mail say no VAT is charged (sv)", async () => {
    const { d, u, o, mails } = await paid({}, "sv");
    const receipt = await getReceipt(d, { userId: u.id, orderId: o.id, number: null, lang: "sv" });
    expect(receipt.seller).toMatchObject({ vatNr: null, vatOnReceipts: false });
    const text = pdfToText((await getReceiptPdf(d, { userId: u.id, orderId: o.id, number: null, lang: "sv" })).pdf);
    expect(text).not.toContain("Moms 25 %");
    expect(text).not.toContain("Belopp exklusive moms");
    expect(text).not.toContain("Momsreg.nr");
    expect(text).toContain("Ingen moms debiteras: säljaren är inte registrerad för moms.");
    expect(text).toMatch(/Totalt\s+30 kr/);
    const mail = await mails();
    expect(mail).toContain(`Kvitto nr ${receipt.number}:`);
    expect(mail).not.toMatch(/\(moms /);
  });

  it("the renewal mail and the credit note say so too (en)", async () => {
    const { d, u, o, mails } = await paid({}, "en");
    expect(await simulateRenewal(d, o.id)).toBe("applied");
    const mail = await mails();
    expect(mail).not.toContain("Of which VAT");
    expect(mail).toContain("No VAT charged: the seller is not registered for VAT.");
    await withdrawOrder(d, { userId: u.id, orderId: o.id });
    const note = pdfToText((await getCreditNotePdf(d, { userId: u.id, orderId: o.id, lang: "en" })).pdf);
    expect(note).toContain("Credited in all");
    expect(note).not.toContain("VAT 25 %");
    expect(note).toContain("No VAT charged: the seller is not registered for VAT.");
  });

  it("below the VAT threshold (COMPANY_VAT_EXEMPT=1) a VAT number changes nothing", async () => {
    const { d, u, o } = await paid({ COMPANY_VAT_NR: VAT_NR, COMPANY_VAT_EXEMPT: "1" }, "en");
    const text = pdfToText((await getReceiptPdf(d, { userId: u.id, orderId: o.id, number: null, lang: "en" })).pdf);
    expect(text).not.toContain("VAT 25 %");
    expect(text).toContain("No VAT charged");
  });
});

describe("a seller with a VAT number prints VAT", () => {
  it("the receipt PDF has the net, VAT 25 % and the VAT number; the mails name the VAT (sv)", async () => {
    const { d, u, o, mails } = await paid({ COMPANY_VAT_NR: VAT_NR }, "sv");
    const receipt = await getReceipt(d, { userId: u.id, orderId: o.id, number: null, lang: "sv" });
    const text = pdfToText((await getReceiptPdf(d, { userId: u.id, orderId: o.id, number: null, lang: "sv" })).pdf);
    expect(text).toContain(`Momsreg.nr ${VAT_NR}`);
    expect(text).toContain("Belopp exklusive moms");
    expect(text).toMatch(new RegExp(`Moms 25 %\\s+${receipt.vatAmount / 100} kr`));
    expect(text).not.toContain("Ingen moms debiteras");
    expect(await mails()).toMatch(/\(moms 6 kr\)/);
    expect(await simulateRenewal(d, o.id)).toBe("applied");
    expect(await mails()).toContain("Varav moms (25 %): 6 kr");
  });
});

describe("the buyer's country is a name in the reader's language", () => {
  it("Sverige in Swedish, Sweden in English, never SE", async () => {
    const { d, u, o } = await paid({}, "sv");
    const sv = await getReceipt(d, { userId: u.id, orderId: o.id, number: null, lang: "sv" });
    expect(sv.buyer.lines).toContain("Sverige");
    const en = await getReceipt(d, { userId: u.id, orderId: o.id, number: null, lang: "en" });
    expect(en.buyer.lines).toContain("Sweden");
    expect(en.buyer.lines).not.toContain("SE");
    // The PDF in the owner's saved language.
    const text = pdfToText((await getReceiptPdf(d, { userId: u.id, orderId: o.id, number: null, lang: "en" })).pdf);
    expect(text).toContain("Sverige");
  });
});
