import { crc32, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32Combine, gzipJoined, gzipPart } from "./joined-gzip.server";

describe("a page's gzip joined from parts compressed once and values stored between them", () => {
  const css = Array.from(
    { length: 900 },
    (_, i) => `.rule-${i}{margin:${i % 7}px;color:#${(i * 2654435761) % 16777216}}`,
  );
  const head = `<!DOCTYPE html><html><head><title>Hittad</title><style>${css.join("")}</style></head><body>`;

  it("decodes to the whole page, with its CRC and length, whatever the values (none, empty, multi-byte, over 64 KB)", () => {
    const parts = [head, `<h1 class="x">`, "", `</h1><p>Öresund “kaffe” 🐟</p>`.repeat(200), "</body></html>"];
    const valueSets = [
      ["Paraply", "<b>", "", "S000001234"],
      ["", "", "", ""],
      ["Äppelklocka & 🐟", "x".repeat(70_000), "ö".repeat(40_000), `"'<>`],
    ];
    const compressed = parts.map(gzipPart);
    for (const values of valueSets) {
      const page = parts.map((p, i) => p + (values[i] ?? "")).join("");
      // gunzip checks the trailer's CRC-32 and length.
      expect(gunzipSync(gzipJoined(compressed, values)).toString("utf8")).toBe(page);
    }
  });

  it("combines CRCs as zlib's crc32_combine: the CRC of A then B from A's and B's", () => {
    for (const [a, b] of [
      ["", ""],
      ["", "a"],
      ["a", ""],
      [head, "ö".repeat(33_000)],
      ["Paraply", head],
    ] as const) {
      const part = gzipPart(b);
      expect(crc32Combine(crc32(a), part.crc, part.shift)).toBe(crc32(a + b) >>> 0);
    }
  });

  it("costs at most 15 % more bytes than compressing the whole page at once", () => {
    const parts = [head, `<main>${css.slice(0, 200).join("<br>")}`, "</main></body></html>"];
    const values = ["Paraply 12", "Call +46 70 123 45 67"];
    const joined = gzipJoined(parts.map(gzipPart), values).length;
    const whole = gzipSync(parts[0]! + values[0]! + parts[1]! + values[1]! + parts[2]!, { level: 6 }).length;
    expect(joined).toBeLessThan(whole * 1.15);
  });
});
