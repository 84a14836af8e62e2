import { describe, expect, it } from "vitest";
import { ID_ALPHABET, isItemId, newItemId, randomId, RESERVED_ROUTE_NAMES } from "./ids";

describe("randomId", () => {
  it("has the length the caller asks for, over the 62 alphanumerics only", () => {
    expect(ID_ALPHABET).toHaveLength(62);
    expect(new Set(ID_ALPHABET).size).toBe(62);
    for (const n of [1, 5, 10, 32]) expect(randomId(n)).toMatch(new RegExp(`^[A-Za-z0-9]{${n}}$`));
    expect(newItemId()).toMatch(/^[A-Za-z0-9]{10}$/);
  });

  it("rejects lengths that are not positive integers", () => {
    expect(() => randomId(0)).toThrow(RangeError);
    expect(() => randomId(2.5)).toThrow(RangeError);
  });

  it("uses every character and does not repeat ids", () => {
    const ids = Array.from({ length: 2000 }, () => randomId(10));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.join("")).size).toBe(62);
  });

  it("never returns a top-level route name, in any letter case", () => {
    // A source that first spells "Dashboard" (9 characters), then "Abcdefghi".
    const first = [..."Dashboard"].map((c) => ID_ALPHABET.indexOf(c));
    const second = [..."Abcdefghi"].map((c) => ID_ALPHABET.indexOf(c));
    const queue = [first, second];
    const fill = (bytes: Uint8Array) => {
      const next = queue.shift()!;
      bytes.fill(255); // rejected bytes (≥ 248) pad the rest
      next.forEach((v, i) => (bytes[i] = v));
      return bytes;
    };
    expect(randomId(9, fill)).toBe("Abcdefghi");
    expect(RESERVED_ROUTE_NAMES.has("dashboard")).toBe(true);
  });

  it("discards biased bytes (248-255) instead of folding them onto the alphabet", () => {
    const fill = (bytes: Uint8Array) => {
      bytes.fill(250);
      bytes[1] = 0;
      bytes[3] = 61;
      return bytes;
    };
    expect(randomId(2, fill)).toBe("A9");
  });
});

describe("isItemId", () => {
  it("accepts exactly 10 alphanumerics and nothing else", () => {
    expect(isItemId("Ab3dE6gH9k")).toBe(true);
    expect(isItemId("Ab3dE6gH9")).toBe(false);
    expect(isItemId("Ab3dE6gH9kL")).toBe(false);
    expect(isItemId("Ab3dE6gH9-")).toBe(false);
    expect(isItemId(undefined)).toBe(false);
  });
});
