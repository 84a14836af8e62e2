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
