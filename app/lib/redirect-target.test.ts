import { describe, expect, it } from "vitest";
import { safeRedirectTarget } from "./redirect-target";

describe("safe redirect targets", () => {
  it("keeps same-site paths", () => {
    expect(safeRedirectTarget("/support#help")).toBe("/support#help");
    expect(safeRedirectTarget("/product/abc?x=1")).toBe("/product/abc?x=1");
  });
  it("refuses other sites and odd values", () => {
    for (const v of [
      "https://evil.test/",
      "//evil.test",
      "/\\evil.test",
      "javascript:alert(1)",
      "",
      5,
      null,
      "/a\r\nSet-Cookie: x",
    ]) {
      expect(safeRedirectTarget(v)).toBe("/");
    }
  });
});
