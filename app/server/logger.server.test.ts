import { describe, expect, it } from "vitest";
import { redactUrl } from "./logger.server";
import { SECRET_URLS } from "./secret-urls.server";

describe("request URLs in the logs", () => {
  it("keep ordinary paths and queries", () => {
    expect(redactUrl("/support")).toBe("/support");
    expect(redactUrl("/language/sv?redirectTo=%2Fterms")).toBe("/language/sv?redirectTo=%2Fterms");
  });
  it("never contain password-reset tokens or OAuth codes", () => {
    expect(redactUrl("/api/auth/reset-password/abc123?callbackURL=%2Fx")).toBe(
      "/api/auth/reset-password/[redacted]?callbackURL=%5Bredacted%5D",
    );
    expect(redactUrl("/api/auth/callback/google?code=secret&state=s2")).toBe(
      "/api/auth/callback/google?code=%5Bredacted%5D&state=%5Bredacted%5D",
    );
    expect(redactUrl("/api/auth/verify-email?token=t0k")).not.toContain("t0k");
  });
  it("never contain the secret of any URL in SECRET_URLS (issue #29), path or query, page or .data", () => {
    for (const { route, query } of SECRET_URLS) {
      const path = route.replace(/:(token|secret)\w*/, "s3cret").replace(/:\w+/, "google");
      for (const url of [path, `${path}.data`, ...(query ?? []).map((q) => `${path}?${q}=s3cret&lang=sv`)]) {
        const logged = redactUrl(url);
        expect(logged, url).not.toContain("s3cret");
        expect(logged).toMatch(route.includes(":provider") ? /^\/api\/auth\/callback\/google/ : /./);
      }
    }
    expect(redactUrl("/invite/abc_DEF-123")).toBe("/invite/[redacted]");
    expect(redactUrl("/m/abc.data?_routes=x")).toBe("/m/[redacted].data?_routes=x");
    expect(redactUrl("/product/abc")).toBe("/product/abc");
  });
});
