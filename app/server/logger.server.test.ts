import { describe, expect, it } from "vitest";
import { redactUrl } from "./logger.server";

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
});
