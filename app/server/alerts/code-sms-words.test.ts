/**
 * A code SMS tells its reader not to share the code (decision 058): codes are what a
 * caller pretending to be Hittad asks for. In both languages, and still one SMS (160
 * GSM-7 characters) with a never link of a realistic length.
 */
import { describe, expect, it } from "vitest";
import "~/i18n/resources.server";
import { getT } from "~/i18n/i18n";

const never = "https://hittad.example.se/t/n/AbCdEfGhIjKl";

describe("a code SMS says not to share the code", () => {
  it.each([
    ["en", "alerts.sms.code", "do not share it"],
    ["en", "trusted.sms.code", "do not share it"],
    ["sv", "alerts.sms.code", "dela den inte"],
    ["sv", "trusted.sms.code", "dela den inte"],
  ] as const)("%s %s", (lang, key, words) => {
    const text = getT(lang)(key, { code: "123456", never });
    expect(text).toContain(words);
    expect(text.length).toBeLessThanOrEqual(160);
  });
});
