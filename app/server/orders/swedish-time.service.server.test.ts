/**
 * Every date a person reads is the Swedish calendar day (decision 052): a purchase at 00:57
 * in Stockholm (23:57 UTC the day before) is dated that Swedish day on the receipt (page
 * data, PDF and mail), its paid-until and the dashboard, and the 14 days of withdrawal are
 * counted in Swedish days from it. Stored times stay UTC instants.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "~/i18n/resources.server";
import { formatDate } from "~/lib/domain/dates";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { signUpOwner } from "../../../tests/support/service-fixtures";
import { pdfToText } from "../../../tests/support/pdf";
import { createItem } from "../items/items.service.server";
import { getBillingOverview, getReceipt, getReceiptPdf } from "./billing.service.server";
import { completeTestPayment, createOrder } from "./checkout.service.server";
import { getWithdrawalPreview } from "./withdrawal.service.server";

vi.setConfig({ testTimeout: 30_000 });

const ITEM: ProductInput = {
  name: "Keys",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  contactVisibility: "public",
  payment: "month",
  intent: "payLater",
};

/** 28 November 2026, 00:57 in Stockholm (winter time, UTC+1). */
const PAID = Date.UTC(2026, 10, 27, 23, 57);
let deps: ServiceTestDeps;

beforeEach(async () => {
  deps = await createServiceDeps({}, PAID);
});
afterEach(async () => {
  await deps.close();
});

async function paidAtNight(language: "en" | "sv") {
  const u = await signUpOwner(deps, { language, prefix: "swedish-time" });
  const item = await createItem(deps, u.id, ITEM, language);
  const o = await createOrder(deps, {
    userId: u.id,
    itemIds: [item],
    period: "month",
    lang: language,
    immediateStart: true,
  });
  await completeTestPayment(deps, { userId: u.id, orderId: o.id });
  return { u, o };
}

describe("a purchase at 00:57 Swedish time is dated the Swedish day", () => {
  it("on the receipt, its PDF, paid-until and the dashboard (sv)", async () => {
    const { u, o } = await paidAtNight("sv");
    const receipt = await getReceipt(deps, { userId: u.id, orderId: o.id, number: null });
    expect(receipt.paidAt).toBe(PAID);
    expect(formatDate(receipt.paidAt, "sv")).toBe("28 november 2026");
    expect(formatDate(receipt.periodEnd, "sv")).toBe("28 december 2026");
    const { pdf } = await getReceiptPdf(deps, { userId: u.id, orderId: o.id, number: null, lang: "sv" });
    const text = pdfToText(pdf);
    expect(text).toContain("28 november 2026");
    expect(text).toContain("28 december 2026");
    expect(text).not.toContain("27 november 2026");
    const overview = await getBillingOverview(deps, u.id);
    expect(formatDate(overview.orders[0]!.paidUntil!, "sv")).toBe("28 december 2026");
  });

  it("in the receipt mail: paid until and the withdrawal deadline, 14 Swedish days on (en)", async () => {
    const { u } = await paidAtNight("en");
    const mails = await deps.db.selectFrom("mail_outbox").selectAll().where("to", "=", u.email).execute();
    const text = mails.map((m) => m.text).join("\n");
    expect(text).toContain("28 December 2026");
    // The 14th day, 12 December, is a Saturday: the deadline is Monday 14 December (decision 057).
    expect(text).toContain("14 December 2026");
    expect(text).not.toContain("27 December 2026");
    expect(text).not.toContain("13 December 2026");
  });

  it("the withdrawal stays open to the end of the 14th Swedish day, and not a moment after", async () => {
    const { u, o } = await paidAtNight("sv");
    // The 14th day, 12 December, is a Saturday: the right lasts to the end of Monday 14
    // December (decision 057), 23:59:59.999 in Stockholm, 22:59:59.999 UTC.
    const lastMoment = Date.UTC(2026, 11, 14, 22, 59, 59, 999);
    const preview = await getWithdrawalPreview(deps, { userId: u.id, orderId: o.id });
    expect(preview.deadline).toBe(lastMoment);
    expect(formatDate(preview.deadline, "sv")).toBe("14 december 2026");
    deps.setNow(lastMoment);
    await expect(getWithdrawalPreview(deps, { userId: u.id, orderId: o.id })).resolves.toBeTruthy();
    deps.setNow(lastMoment + 1);
    await expect(getWithdrawalPreview(deps, { userId: u.id, orderId: o.id })).rejects.toMatchObject({
      code: "withdrawalExpired",
    });
  });
});
