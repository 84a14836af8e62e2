import { describe, expect, it } from "vitest";
import { purgeCss } from "./purge-css";

describe("purgeCss (the finder page's inline stylesheet)", () => {
  const css =
    ":root{--x:1}body{margin:0}.btn{a:1}.btn-primary,.table{b:2}.card .btn{c:3}.table td{d:4}" +
    "@media (min-width:768px){.navbar-expand-md .navbar-nav{e:5}.card{f:6}}@keyframes spin{to{g:7}}";
  const kept = purgeCss(css, new Set(["btn", "btn-primary", "navbar-expand-md", "navbar-nav"]));

  it("keeps element rules, rules whose classes the page uses, at-rules, and used rules inside media queries", () => {
    expect(kept).toBe(
      ":root{--x:1}body{margin:0}.btn{a:1}.btn-primary,.table{b:2}" +
        "@media (min-width:768px){.navbar-expand-md .navbar-nav{e:5}}@keyframes spin{to{g:7}}",
    );
  });

  it("drops a rule with any class the page does not use, and a media query left empty", () => {
    expect(purgeCss(".card{a:1}@media (min-width:1px){.card{b:2}}", new Set(["btn"]))).toBe("");
  });

  it("does not require the classes inside :not(…) or :is(…): `.fade:not(.show)` styles every unused-or-not .fade", () => {
    expect(purgeCss(".fade:not(.show){a:1}.x:is(.fade,.y){b:2}", new Set(["fade"]))).toBe(".fade:not(.show){a:1}");
  });

  it("splits selector lists at top-level commas only", () => {
    expect(purgeCss(":is(.a,.b) .c,.d{a:1}", new Set(["c"]))).toBe(":is(.a,.b) .c,.d{a:1}");
    expect(purgeCss(":is(.a,.b) .c{a:1}", new Set(["a"]))).toBe("");
  });

  it("reads Sass's expanded output: comments dropped, @charset kept", () => {
    expect(
      purgeCss('@charset "UTF-8";\n/* rtl:ignore */\n.btn {\n  a: 1;\n}\n.card {\n  b: 2;\n}\n', new Set(["btn"])),
    ).toBe('@charset "UTF-8";.btn{\n  a: 1;\n}');
  });
});
