import { describe, expect, it } from "vitest";
import { formatPhone, maskEmail, maskPhone, normalizePhone } from "./phone";

describe("mobile numbers are read as typed and kept in E.164", () => {
  it("accepts Swedish national and international formats", () => {
    for (const typed of [
      "070-123 45 67",
      "0701234567",
      "070 123 45 67",
      "+46 70 123 45 67",
      "+46 (0)70 123 45 67",
      "+46701234567",
      "0046 70-123 45 67",
    ]) {
      expect(normalizePhone(typed), typed).toBe("+46701234567");
    }
  });

  it("accepts other countries' numbers in international form", () => {
    expect(normalizePhone("+358 40 123 4567")).toBe("+358401234567");
    expect(normalizePhone("0047 912 34 567")).toBe("+4791234567");
  });

  it("reads a Nordic number with its national 0 as the same number, so one stop covers every spelling", () => {
    for (const typed of ["+358 (0)40 123 4567", "00358 040 123 4567", "+358040 1234567"]) {
      expect(normalizePhone(typed), typed).toBe("+358401234567");
    }
    expect(normalizePhone("+47 (0)912 34 567")).toBe("+4791234567");
    expect(normalizePhone("+45 0 20 12 34 56")).toBe("+4520123456");
  });

  it("refuses what is not a mobile number", () => {
    for (const bad of [
      "",
      "abc",
      "123",
      "08-123 456 78",
      "+46 8 123 456 78",
      "070-123 45 6",
      "+0701234567",
      "0".repeat(41),
    ]) {
      expect(normalizePhone(bad), bad).toBeNull();
    }
  });

  it("masks numbers and addresses in delivery records", () => {
    expect(maskPhone("+46701234567")).toBe("+46 70…");
    expect(maskEmail("anna@example.se")).toBe("a…@example.se");
    expect(formatPhone("+46701234567")).toBe("+46 70 123 45 67");
  });
});
