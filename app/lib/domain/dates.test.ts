import { describe, expect, it } from "vitest";
import { DAY_MS, formatDate, formatDateTime, stockholmDayStart, stockholmIsoDay, stockholmOffsetMs } from "./dates";

describe("formatDate (the Swedish calendar day, decision 052)", () => {
  it("writes day, month name and year, per language", () => {
    const ms = Date.parse("2026-11-23T12:30:00Z");
    expect(formatDate(ms, "en")).toBe("23 November 2026");
    expect(formatDate(ms, "sv")).toBe("23 november 2026");
    expect(formatDate(Date.parse("2027-03-01T00:00:00Z"), "sv")).toBe("1 mars 2027");
  });
  it("dates a purchase at 00:57 in Stockholm (23:57 UTC the day before) the Swedish day", () => {
    const ms = Date.parse("2026-11-27T23:57:00Z");
    expect(formatDate(ms, "sv")).toBe("28 november 2026");
    expect(stockholmIsoDay(ms)).toBe("2026-11-28");
    // Summer time: 00:30 on 1 July is 22:30 UTC on 30 June.
    expect(formatDate(Date.parse("2026-06-30T22:30:00Z"), "en")).toBe("1 July 2026");
    expect(formatDate(Date.parse("2026-12-31T23:00:00Z"), "en")).toBe("1 January 2027");
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

describe("stockholmDayStart (Swedish days for deadlines)", () => {
  it("is midnight in Stockholm, in winter and in summer", () => {
    expect(stockholmDayStart(Date.parse("2026-11-27T23:57:00Z"))).toBe(Date.parse("2026-11-27T23:00:00Z"));
    expect(stockholmDayStart(Date.parse("2026-07-01T10:00:00Z"))).toBe(Date.parse("2026-06-30T22:00:00Z"));
  });
  it("counts calendar days across a summer-time switch (a day of 23 or 25 hours)", () => {
    // 29 March 2026 has 23 hours in Stockholm; 25 October 2026 has 25.
    const march = stockholmDayStart(Date.parse("2026-03-28T12:00:00Z"), 2);
    expect(march).toBe(Date.parse("2026-03-29T22:00:00Z"));
    const october = stockholmDayStart(Date.parse("2026-10-24T12:00:00Z"), 2);
    expect(october).toBe(Date.parse("2026-10-25T23:00:00Z"));
    expect(october - stockholmDayStart(Date.parse("2026-10-24T12:00:00Z"), 1)).toBe(DAY_MS + 3_600_000);
  });
  it("agrees with the ICU time zone database for every day start of a year", () => {
    const icu = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Stockholm",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    for (let ms = Date.UTC(2027, 0, 1, 12); ms < Date.UTC(2028, 0, 1); ms += DAY_MS) {
      expect(icu.format(stockholmDayStart(ms))).toBe("00:00");
      expect(stockholmIsoDay(stockholmDayStart(ms))).toBe(stockholmIsoDay(ms));
    }
  });
});

const pad2 = (n: number) => String(n).padStart(2, "0");
