import { describe, expect, it } from "vitest";
import { isStopWord, splitMessageCode, splitOwnerRef } from "./message-code.server";

describe("a sticker's code at the start of an SMS (decision 055)", () => {
  it("is read in any spacing, dashes or case", () => {
    for (const m of [
      "K7M 29Q XHR hittade din cykel",
      "k7m-29q-xhr hittade din cykel",
      "K7M29QXHR: hittade din cykel",
    ]) {
      expect(splitMessageCode(m)).toEqual({ code: "K7M29QXHR", rest: "hittade din cykel" });
    }
  });

  it("must end a word and use the code's letters only", () => {
    expect(splitMessageCode("K7M29QXHRS hej")).toBeNull();
    expect(splitMessageCode("Hej jag hittade din cykel")).toBeNull();
    expect(splitMessageCode("K7M 29Q")).toBeNull();
  });

  it("the owner's reference and STOP are read as people text them", () => {
    expect(splitOwnerRef("#4821 Tack!")).toEqual({ ref: "4821", rest: "Tack!" });
    expect(splitOwnerRef("Tack!")).toEqual({ ref: null, rest: "Tack!" });
    expect(isStopWord(" Stopp. ")).toBe(true);
    expect(isStopWord("stop sending me")).toBe(false);
  });
});
