import { describe, expect, it } from "vitest";
import { localReturnPath, safeRedirectTarget } from "./redirect-target";

describe("safe redirect targets", () => {
  it("keeps same-site paths", () => {
    expect(safeRedirectTarget("/support#help")).toBe("/support#help");
    expect(safeRedirectTarget("/product/abc?x=1")).toBe("/product/abc?x=1");
    expect(safeRedirectTarget("/product/abc?q=a%20b")).toBe("/product/abc?q=a%20b");
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
  it("refuses control characters (a raw byte in Location was a 500)", () => {
    for (const v of ["/\u000b", "/\u007f", "/a\u0000b", "/\u0085", "/\ud800"]) expect(safeRedirectTarget(v)).toBe("/");
  });
  it("percent-encodes what may not stand in a Location header: non-ASCII, U+2028, emoji, spaces", () => {
    expect(safeRedirectTarget("/å")).toBe("/%C3%A5");
    expect(safeRedirectTarget("/\u2028")).toBe("/%E2%80%A8");
    expect(safeRedirectTarget('/😀?x="<y>"')).toBe("/%F0%9F%98%80?x=%22%3Cy%3E%22");
    expect(safeRedirectTarget("/a b\\c%zz")).toBe("/a%20b%5Cc%25zz");
  });
  it("every answer is a valid header value and a same-site path", () => {
    for (let cp = 0; cp < 0x3000; cp += 7) {
      const target = safeRedirectTarget(`/x${String.fromCharCode(cp)}y`);
      expect(target).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/);
      expect(new URL(target, "https://hittad.se").origin).toBe("https://hittad.se");
    }
  });
});

describe("localReturnPath (the invite to come back to after verifying)", () => {
  it("keeps a local path and refuses anything off-site, the home page and the auth pages", () => {
    expect(localReturnPath("/invite/abc_DEF-123")).toBe("/invite/abc_DEF-123");
    for (const bad of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "/",
      "",
      "/login?x=1",
      "/user/verify-email?token=t",
      null,
      42,
    ]) {
      expect(localReturnPath(bad), String(bad)).toBeNull();
    }
  });
});
