import { describe, expect, it } from "vitest";
import { firstName } from "./first-name";

describe("firstName: mails greet people by their first name", () => {
  it("takes the first word of the name", () => {
    expect(firstName("Anna Maria Lind", "a@example.test")).toBe("Anna");
    expect(firstName("  Cher  ", "c@example.test")).toBe("Cher");
    expect(firstName("Åsa\tÖberg", "x")).toBe("Åsa");
  });

  it("falls back to the email when there is no name", () => {
    expect(firstName("", "a@example.test")).toBe("a@example.test");
    expect(firstName("   ", "a@example.test")).toBe("a@example.test");
    expect(firstName(null, "a@example.test")).toBe("a@example.test");
  });
});

describe("firstName: nothing but a plain first name reaches someone who did not ask for it (decision 046)", () => {
  it("keeps names of any script, with hyphens and apostrophes", () => {
    expect(firstName("Anna-Karin Ek", "x")).toBe("Anna-Karin");
    expect(firstName("O'Brien", "x")).toBe("O'Brien");
    expect(firstName("Łukasz Ærø", "x")).toBe("Łukasz");
    expect(firstName("Zoë", "x")).toBe("Zoë");
  });

  it("gives the fallback for web addresses, punctuation, digits and over-long words", () => {
    for (const name of [
      "URGENT: your bank account is locked - verify at http://evil.example",
      "http://evil.example",
      "www.evil.example now",
      "evil.example",
      "mail@evil.example",
      "Call0701234567",
      "A".repeat(41),
      "-Anna",
    ]) {
      expect(firstName(name, "fallback"), name).toBe("fallback");
    }
    expect(firstName("A".repeat(40), "x")).toBe("A".repeat(40));
  });
});
