import { describe, expect, it } from "vitest";
import { contactParts } from "./contact-links";

const links = (text: string) => contactParts(text).filter((p) => p.kind !== "text");

describe("contact info links on the finder page (issue #19)", () => {
  it("turns phone numbers into tel: links, international and Swedish styles", () => {
    expect(links("Call 070-123 45 67 please")).toEqual([
      { kind: "phone", text: "070-123 45 67", href: "tel:0701234567" },
    ]);
    expect(links("+46 70 123 45 67")).toEqual([{ kind: "phone", text: "+46 70 123 45 67", href: "tel:+46701234567" }]);
    expect(links("0046 (0)8-123 456")).toEqual([{ kind: "phone", text: "0046 (0)8-123 456", href: "tel:+468123456" }]);
    expect(links("Ring 08-123 456 78 eller")).toEqual([
      { kind: "phone", text: "08-123 456 78", href: "tel:0812345678" },
    ]);
  });

  it("turns email addresses into mailto: links", () => {
    expect(links("Mail anna.lind+hittad@example.se.")).toEqual([
      { kind: "email", text: "anna.lind+hittad@example.se", href: "mailto:anna.lind+hittad@example.se" },
    ]);
  });

  it("keeps everything else as text, and the text round-trips exactly", () => {
    const text = "Call 070-123 45 67\nor mail a@example.test\n<script>alert(1)</script> Reward 500 kr";
    expect(
      contactParts(text)
        .map((p) => p.text)
        .join(""),
    ).toBe(text);
    expect(links(text).map((p) => p.kind)).toEqual(["phone", "email"]);
  });

  it("does not link short numbers, dates, amounts or digits inside words", () => {
    expect(links("Call 070-123")).toEqual([]);
    expect(links("Lost on 2026-11-24 or 24.11.2026")).toEqual([]);
    expect(links("Reward 100 000 kr")).toEqual([]);
    expect(links("serial ABC1234567890")).toEqual([]);
    expect(links("1234567890123456789")).toEqual([]);
  });

  it("never builds an href from anything but digits, '+' or an address", () => {
    for (const p of links('javascript:alert(1) "+46 70 123 45 67" x@y.se')) {
      expect(p.href).toMatch(/^(tel:\+?\d+|mailto:[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+)$/);
    }
  });
});
