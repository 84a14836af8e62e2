import { describe, expect, it } from "vitest";
import { formatDate } from "./dates";

describe("formatDate", () => {
  it("writes day, month name and year in UTC, per language", () => {
    const ms = Date.parse("2026-11-23T23:30:00Z");
    expect(formatDate(ms, "en")).toBe("23 November 2026");
    expect(formatDate(ms, "sv")).toBe("23 november 2026");
    expect(formatDate(Date.parse("2027-03-01T00:00:00Z"), "sv")).toBe("1 mars 2027");
  });
  it("refuses what is not a date", () => {
    expect(() => formatDate(Number.NaN, "en")).toThrow(RangeError);
  });
});
