/**
 * A withdrawal deadline that falls on a Saturday, Sunday, Swedish public holiday,
 * midsommarafton, julafton or nyårsafton moves to the end of the next working day (lagen
 * (1930:173) om beräkning av lagstadgad tid, decision 057): the preview, the withdrawal
 * itself, the receipt mail and the delete page's list of open withdrawals all follow it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import "~/i18n/resources.server";
import { formatDate } from "~/lib/domain/dates";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { signUpOwner } from "../../../tests/support/service-fixtures";
import { createItem } from "../items/items.service.server";
import { completeTestPayment, createOrder } from "./checkout.service.server";
import { getWithdrawalPreview, listOpenWithdrawals, withdrawOrder } from "./withdrawal.service.server";

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

/** Swedish wall-clock time (CET, winter) as a UTC instant. */
const winter = (y: number, m: number, d: number, h = 12, min = 0, s = 0, ms = 0) =>
  Date.UTC(y, m - 1, d, h - 1, min, s, ms);
/** Swedish wall-clock time (CEST, summer) as a UTC instant. */
const summer = (y: number, m: number, d: number, h = 12, min = 0, s = 0, ms = 0) =>
  Date.UTC(y, m - 1, d, h - 2, min, s, ms);

let deps: ServiceTestDeps | null = null;
afterEach(async () => {
  await deps?.close();
  deps = null;
});

async function paidOn(paidAt: number, language: "en" | "sv" = "sv") {
  deps = await createServiceDeps({}, paidAt);
  const u = await signUpOwner(deps, { language, prefix: "deadline" });
  const item = await createItem(deps, u.id, ITEM, language);
  const o = await createOrder(deps, {
    userId: u.id,
    itemIds: [item],
    period: "month",
    lang: language,
    immediateStart: true,
  });
  await completeTestPayment(deps, { userId: u.id, orderId: o.id });
  return { d: deps, u, o };
}

/** The deadline's last millisecond is open, the next one is not. */
async function expectLastMoment(d: ServiceTestDeps, input: { userId: string; orderId: string }, last: number) {
  expect((await getWithdrawalPreview(d, input)).deadline).toBe(last);
  d.setNow(last);
  await expect(getWithdrawalPreview(d, input)).resolves.toBeTruthy();
  d.setNow(last + 1);
  await expect(getWithdrawalPreview(d, input)).rejects.toMatchObject({ code: "withdrawalExpired" });
}

describe("the 14th day of withdrawal on a day off moves to the next working day", () => {
  it("on a weekday it stays: paid Monday 23 November 2026, open to the end of Monday 7 December", async () => {
    const { d, u, o } = await paidOn(winter(2026, 11, 23));
    await expectLastMoment(d, { userId: u.id, orderId: o.id }, winter(2026, 12, 7, 23, 59, 59, 999));
  });

  it("julafton, juldagen, annandag jul and a weekend: paid 10 December 2026, open to the end of Monday 28 December, and withdrawn on the 27th", async () => {
    const { d, u, o } = await paidOn(winter(2026, 12, 10, 9));
    const input = { userId: u.id, orderId: o.id };
    // The receipt mail names the moved deadline.
    const mail = await d.db
      .selectFrom("mail_outbox")
      .select("text")
      .where("to", "=", u.email)
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain(formatDate(winter(2026, 12, 28), "sv"));
    expect(mail.text).not.toContain(formatDate(winter(2026, 12, 24), "sv"));
    // Sunday 27 December: past the unmoved 14 days, still open; the delete page lists it.
    d.setNow(winter(2026, 12, 27, 20));
    expect((await listOpenWithdrawals(d, u.id)).map((w) => w.orderId)).toEqual([o.id]);
    await expectLastMoment(d, input, winter(2026, 12, 28, 23, 59, 59, 999));
    d.setNow(winter(2026, 12, 27, 20));
    await expect(withdrawOrder(d, input)).resolves.toMatchObject({ currency: "SEK" });
  });

  it("långfredagen to annandag påsk: paid 20 March 2026, open to the end of Tuesday 7 April (summer time)", async () => {
    const { d, u, o } = await paidOn(winter(2026, 3, 20));
    await expectLastMoment(d, { userId: u.id, orderId: o.id }, summer(2026, 4, 7, 23, 59, 59, 999));
  });

  it("midsommarafton and midsommardagen: paid 5 June 2026, open to the end of Monday 22 June", async () => {
    const { d, u, o } = await paidOn(summer(2026, 6, 5));
    await expectLastMoment(d, { userId: u.id, orderId: o.id }, summer(2026, 6, 22, 23, 59, 59, 999));
  });

  it("nyårsafton and nyårsdagen: paid 17 December 2026, open to the end of Monday 4 January 2027", async () => {
    // 31 December 2026 is a Thursday (nyårsafton), 1 January a Friday (nyårsdagen), then a weekend.
    const { d, u, o } = await paidOn(winter(2026, 12, 17));
    await expectLastMoment(d, { userId: u.id, orderId: o.id }, winter(2027, 1, 4, 23, 59, 59, 999));
  });
});
