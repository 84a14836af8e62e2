import { describe, expect, it } from "vitest";
import { fitSms, gsmLength, isGsm, toGsmWherePossible } from "./sms-text";

const url = "https://hittad.se/messages/3f1c2b9e-8a4d-4e1f-9b2a-6c7d8e9f0a1b";
const build = (item: string, quote: string) => `Hittad: new message about ${item}: "${quote}" ${url}`;

describe("an SMS is one part", () => {
  it("counts å, ä and ö as GSM-7 and the extension characters as two", () => {
    expect(isGsm("Hittad: din väska är hittad, öppna länken")).toBe(true);
    expect(gsmLength("€[]")).toBe(6);
    expect(isGsm("привет")).toBe(false);
  });

  it("replaces typographic quotes and dashes with plain ones to keep 160 characters", () => {
    expect(toGsmWherePossible("“Hej” – it’s here…")).toBe('"Hej" - it\'s here...');
  });

  it("keeps a short message whole", () => {
    const sms = fitSms(build, "Phone", "I found it at the station");
    expect(sms.text).toBe(`Hittad: new message about Phone: "I found it at the station" ${url}`);
    expect(sms.encoding).toBe("gsm7");
  });

  it("quotes the finder only as far as it fits, and keeps the link whole", () => {
    const sms = fitSms(build, "Phone", "Hej! Jag hittade din telefon på bussen. ".repeat(10));
    expect(sms.encoding).toBe("gsm7");
    expect(gsmLength(sms.text)).toBeLessThanOrEqual(160);
    expect(sms.text.endsWith(`..." ${url}`)).toBe(true);
    expect(sms.text).toContain("Jag hittade din telefon");
  });

  it("falls back to 70 UCS-2 characters when the text must carry other characters", () => {
    const sms = fitSms((item, q) => `${item}: "${q}" ${url.slice(0, 20)}`, "Телефон", "Нашел ваш телефон ".repeat(5));
    expect(sms.encoding).toBe("ucs2");
    expect(sms.text.length).toBeLessThanOrEqual(70);
    expect(sms.text).toContain("Телефон");
  });

  it("shortens the item's name when even the link hardly fits", () => {
    const sms = fitSms(build, "x".repeat(200), "hello");
    expect(gsmLength(sms.text)).toBeLessThanOrEqual(160);
    expect(sms.text).toContain(url);
  });
});
