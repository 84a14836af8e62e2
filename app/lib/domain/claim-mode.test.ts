import { describe, expect, it } from "vitest";
import { confirmationLines, parseConfirmationLines } from "./claim-mode";

describe("a batch file's confirmation lines", () => {
  it("read back exactly the stickers the preview listed, and nothing from lines of another shape", () => {
    const stickers = [
      { id: "A1b2C3d4E5", code: "K7M29QXHR" },
      { id: "Z9y8X7w6V5", code: "ABC123DEF" },
    ];
    expect(parseConfirmationLines(confirmationLines(stickers))).toEqual(stickers);
    expect(parseConfirmationLines("A1b2C3d4E5 K7M29QXHR\r\n\njunk\na b c\n")).toEqual([stickers[0]]);
  });
});
