import { describe, expect, it } from "vitest";
import { nationalSmsNumber } from "./sms-number";

describe("Hittad's SMS number as printed (decision 055)", () => {
  it("a Swedish number in national form, others in E.164", () => {
    expect(nationalSmsNumber("+46766861000")).toBe("0766-86 10 00");
    expect(nationalSmsNumber("+4791234567")).toBe("+4791234567");
  });
});
