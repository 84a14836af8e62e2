import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password";

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
});
