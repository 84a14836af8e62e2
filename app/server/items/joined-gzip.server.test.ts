import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gzipAround, gzipPart } from "./joined-gzip.server";

describe("a page's gzip made around a part compressed once", () => {
  const css = Array.from(
    { length: 900 },
    (_, i) => `.rule-${i}{margin:${i % 7}px;color:#${(i * 2654435761) % 16777216}}`,
  );
  const shared = `<title>Hittad</title><style>${css.join("")}</style></head><body>`;

  it("decodes to the whole page, whatever comes before and after (nothing, ASCII, multi-byte text)", () => {
    const part = gzipPart(shared);
    for (const before of ["", `<!DOCTYPE html><html><head><link rel="preload" imageSrcSet="/a/ö.webp 313w">`])
      for (const after of ["<main><h1>Paraply</h1></main></body></html>", "<p>Öresund “kaffe” 🐟</p>".repeat(300), ""])
        expect(gunzipSync(gzipAround(before, part, after)).toString("utf8")).toBe(before + shared + after);
  });

  it("compresses what follows against the shared part: within 2 % of compressing the whole page at once", () => {
    const after = `<main>${css.slice(0, 200).join("<br>")}</main></body></html>`;
    const joined = gzipAround("<!DOCTYPE html>", gzipPart(shared), after).length;
    const whole = gzipSync(`<!DOCTYPE html>${shared}${after}`, { level: 6 }).length;
    expect(joined).toBeLessThan(whole * 1.02);
  });
});
