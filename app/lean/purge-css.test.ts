import { describe, expect, it } from "vitest";
import { dropUnreadVariables, purgeCss } from "./purge-css";

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

describe("Bootstrap's custom properties nothing reads", () => {
  it("are dropped, also when the only reader was itself dropped; read ones and non-Bootstrap ones stay", () => {
    const css =
      ":root{--bs-blue:#00f;--bs-red:#f00;--bs-link:var(--bs-blue);--bs-gone:var(--bs-red);--altcha-x:1}" +
      ".btn{--bs-btn-pad:1rem;--bs-btn-unused:2px;padding:var(--bs-btn-pad)}a{color:var(--bs-link)}";
    expect(dropUnreadVariables(css, new Set())).toBe(
      ":root{--bs-blue:#00f;--bs-link:var(--bs-blue);--altcha-x:1}.btn{--bs-btn-pad:1rem;padding:var(--bs-btn-pad)}a{color:var(--bs-link)}",
    );
  });

  it("keeps one the code names (a style attribute may set or read it) and drops a rule left empty", () => {
    const css = ".a{--bs-progress:0}.b{--bs-x:1}@media (min-width:1px){.c{--bs-y:2}.d{e:1}}";
    expect(dropUnreadVariables(css, new Set(["--bs-progress"]))).toBe(
      ".a{--bs-progress:0}@media (min-width:1px){.d{e:1}}",
    );
  });

  it("splits declarations at top-level semicolons only: a data URL or a string holding ';' stays whole", () => {
    const css =
      '.s{--bs-img:url("data:image/svg+xml;charset=utf8,%3csvg%3e");--bs-q:";}";background:var(--bs-img);content:var(--bs-q)}' +
      '.t{--bs-unused:url("a;b");color:red}';
    expect(dropUnreadVariables(css, new Set())).toBe(
      '.s{--bs-img:url("data:image/svg+xml;charset=utf8,%3csvg%3e");--bs-q:";}";background:var(--bs-img);content:var(--bs-q)}.t{color:red}',
    );
  });
});
