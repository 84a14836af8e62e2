import { describe, expect, it } from "vitest";
import { clampPage, filterQuery, pagerPages } from "./item-filter";
import { parseItemQuery } from "./item-query";

describe("item filter (issue #18)", () => {
  it("reads the GET form; values that are not a choice are ignored, never an error", () => {
    expect(parseItemQuery(new URLSearchParams("q=+blue+bag+&type=laptop&paid=unpaid&lost=1&page=3"))).toEqual({
      q: "blue bag",
      type: "laptop",
      paid: "unpaid",
      lost: true,
      page: 3,
    });
    expect(parseItemQuery(new URLSearchParams("type=car&paid=maybe&lost=yes&page=-2"))).toEqual({
      q: "",
      type: null,
      paid: null,
      lost: false,
      page: 1,
    });
    expect(parseItemQuery(new URLSearchParams("page=abc")).page).toBe(1);
    expect(parseItemQuery(new URLSearchParams(`q=${"x".repeat(500)}`)).q).toHaveLength(80);
  });

  it("page links keep the filter and leave out what is not set", () => {
    const f = { q: "blue bag", type: null, paid: "unpaid" as const, lost: true };
    expect(filterQuery(f, 2)).toBe("?q=blue+bag&paid=unpaid&lost=1&page=2");
    expect(filterQuery({ q: "", type: null, paid: null, lost: false }, 1)).toBe("");
  });

  it("a page past the end is the last page; the pager stays short", () => {
    expect(clampPage(9999, 5000, 24)).toEqual({ page: 209, pageCount: 209, matching: 5000 });
    expect(clampPage(1, 0, 24)).toEqual({ page: 1, pageCount: 1, matching: 0 });
    expect(pagerPages(100, 209)).toEqual([1, null, 98, 99, 100, 101, 102, null, 209]);
    expect(pagerPages(1, 3)).toEqual([1, 2, 3]);
  });
});
