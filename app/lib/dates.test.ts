import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, stockholmOffsetMs } from "./dates";

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

describe("formatDateTime (staff pages, Swedish time written out by hand)", () => {
  it("writes date and time in Swedish winter time (UTC+1)", () => {
    const ms = Date.parse("2026-11-23T12:30:00Z");
    expect(formatDateTime(ms, "en")).toBe("23 November 2026, 13:30");
    expect(formatDateTime(ms, "sv")).toBe("23 november 2026 kl. 13:30");
  });
  it("writes summer time (UTC+2) and crosses midnight into the next day", () => {
    expect(formatDateTime(Date.parse("2026-07-01T22:05:00Z"), "en")).toBe("2 July 2026, 00:05");
  });
  it("switches at 01:00 UTC on the last Sunday of March and of October", () => {
    // 2026: 29 March and 25 October.
    expect(stockholmOffsetMs(Date.parse("2026-03-29T00:59:59Z"))).toBe(3_600_000);
    expect(stockholmOffsetMs(Date.parse("2026-03-29T01:00:00Z"))).toBe(7_200_000);
    expect(stockholmOffsetMs(Date.parse("2026-10-25T00:59:59Z"))).toBe(7_200_000);
    expect(stockholmOffsetMs(Date.parse("2026-10-25T01:00:00Z"))).toBe(3_600_000);
    expect(formatDateTime(Date.parse("2026-10-25T00:30:00Z"), "sv")).toBe("25 oktober 2026 kl. 02:30");
    expect(formatDateTime(Date.parse("2026-10-25T01:30:00Z"), "sv")).toBe("25 oktober 2026 kl. 02:30");
  });
  it("agrees with the ICU time zone database for every hour of a year", () => {
    const icu = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Stockholm", hour: "2-digit", hourCycle: "h23" });
    for (let ms = Date.UTC(2027, 0, 1); ms < Date.UTC(2028, 0, 1); ms += 3_600_000) {
      expect(pad2(new Date(ms + stockholmOffsetMs(ms)).getUTCHours())).toBe(icu.format(ms));
    }
  });
  it("refuses what is not a date", () => {
    expect(() => formatDateTime(Number.NaN, "en")).toThrow(RangeError);
  });
});

const pad2 = (n: number) => String(n).padStart(2, "0");
