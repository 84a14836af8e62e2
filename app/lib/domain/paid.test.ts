import { describe, expect, it } from "vitest";
import { isItemPaid } from "./paid";

describe("isItemPaid: payed and the paid period not ended", () => {
  const now = Date.UTC(2026, 10, 23);
  it("an item never paid is not paid, whatever its end", () => {
    expect(isItemPaid({ payed: false, paidUntil: null }, now)).toBe(false);
    expect(isItemPaid({ payed: false, paidUntil: now + 1 }, now)).toBe(false);
  });
  it("a paid item is paid until its end, and without an end for ever", () => {
    expect(isItemPaid({ payed: true, paidUntil: null }, now)).toBe(true);
    expect(isItemPaid({ payed: true, paidUntil: now + 1 }, now)).toBe(true);
  });
  it("a paid period ends at paidUntil exactly", () => {
    expect(isItemPaid({ payed: true, paidUntil: now }, now)).toBe(false);
    expect(isItemPaid({ payed: true, paidUntil: now - 1 }, now)).toBe(false);
  });
});
