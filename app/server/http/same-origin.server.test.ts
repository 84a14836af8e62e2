import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "./same-origin.server";

const own = "https://hittad.se";
const post = (over: Partial<Parameters<typeof isCrossSiteWrite>[0]> = {}) => ({
  method: "POST",
  path: "/login",
  origin: undefined,
  fetchSite: undefined,
  ...over,
});

describe("a state-changing request from another site is refused (CSRF)", () => {
  it("refuses a POST whose Origin is another site, or http instead of https", () => {
    expect(isCrossSiteWrite(post({ origin: "https://evil.example" }), own)).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "http://hittad.se" }), own)).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "null" }), own)).toBe(true);
    expect(isCrossSiteWrite(post({ method: "DELETE", origin: "https://evil.example" }), own)).toBe(true);
  });
  it("refuses a POST without Origin that the browser marks cross-site", () => {
    expect(isCrossSiteWrite(post({ fetchSite: "cross-site" }), own)).toBe(true);
  });
  it("lets our own pages, same-site requests and non-browser clients through", () => {
    expect(isCrossSiteWrite(post({ origin: own }), own)).toBe(false);
    expect(isCrossSiteWrite(post({ origin: own, fetchSite: "same-origin" }), own)).toBe(false);
    expect(isCrossSiteWrite(post({ fetchSite: "same-site" }), own)).toBe(false);
    expect(isCrossSiteWrite(post(), own)).toBe(false);
  });
  it("lets a form of our own page that hides its address (Origin: null) through, by Sec-Fetch-Site: same-origin only", () => {
    expect(isCrossSiteWrite(post({ path: "/consent", origin: "null", fetchSite: "same-origin" }), own)).toBe(false);
    expect(isCrossSiteWrite(post({ path: "/consent", origin: "null", fetchSite: "cross-site" }), own)).toBe(true);
    expect(isCrossSiteWrite(post({ path: "/consent", origin: "null", fetchSite: "same-site" }), own)).toBe(true);
    expect(isCrossSiteWrite(post({ path: "/consent", origin: "null", fetchSite: "none" }), own)).toBe(true);
    expect(isCrossSiteWrite(post({ path: "/consent", origin: "null" }), own)).toBe(true);
  });
  it("never refuses reads, and lets the signed Stripe webhook through", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(isCrossSiteWrite(post({ method, origin: "https://evil.example" }), own)).toBe(false);
    }
    expect(isCrossSiteWrite(post({ path: "/api/stripe/webhook", fetchSite: "cross-site" }), own)).toBe(false);
  });
});
