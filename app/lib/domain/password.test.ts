import { describe, expect, it } from "vitest";
import en from "~/locales/en/auth.json";
import sv from "~/locales/sv/auth.json";
import { PASSWORD_MAX, PASSWORD_MIN, passwordProblem } from "./password";

describe("password rules", () => {
  it("refuses passwords shorter than 8 characters", () => {
    expect(passwordProblem("Ab1!xyz")).toBe("tooShort");
    expect(passwordProblem("Ab1!xyzq")).toBeNull();
  });
  it("refuses passwords longer than 128 characters", () => {
    expect(passwordProblem("x".repeat(129))).toBe("tooLong");
  });
  it("refuses common passwords whatever their case", () => {
    expect(passwordProblem("Password123")).toBe("common");
    expect(passwordProblem("12345678")).toBe("common");
    expect(passwordProblem("Lösenord1")).toBe("common");
  });
  it("the messages in both languages state the bounds the server enforces (one source: PASSWORD_MIN/MAX)", () => {
    for (const l of [en, sv]) {
      expect(l.password.requirements).toContain(String(PASSWORD_MIN));
      expect(l.password.tooShort).toContain(String(PASSWORD_MIN));
      expect(l.password.tooLong).toContain(String(PASSWORD_MAX));
    }
  });
});
