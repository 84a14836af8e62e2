/**
 * Reading our PDFs in tests with Debian's poppler-utils (installed by .ci/run): the text
 * (pdftotext), the fonts (pdffonts) and the pages as images (pdftoppm) for decoding the
 * QR codes of a sticker sheet with jsQR, label by label, as a phone camera would.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import jsQR from "jsqr";
import { PNG } from "pngjs";

function withFile<T>(pdf: Buffer, fn: (file: string, dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-pdf-"));
  try {
    const file = path.join(dir, "doc.pdf");
    fs.writeFileSync(file, pdf);
    return fn(file, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function pdfToText(pdf: Buffer): string {
  return withFile(pdf, (file) => execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }));
}

/** pdffonts' table rows: name, type, embedded. */
export function pdfFonts(pdf: Buffer): Array<{ name: string; embedded: boolean }> {
  const out = withFile(pdf, (file) => execFileSync("pdffonts", [file], { encoding: "utf8" }));
  return out
    .split("\n")
    .slice(2)
    .filter(Boolean)
    .map((line) => {
      const cols = line.trim().split(/\s+/);
      // name type [type…] encoding emb sub uni object ID
      const emb = cols[cols.length - 5];
      return { name: cols[0]!, embedded: emb === "yes" };
    });
}

export function pdfPageCount(pdf: Buffer): number {
  const info = withFile(pdf, (file) => execFileSync("pdfinfo", [file], { encoding: "utf8" }));
  return Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
}

/** Each page as a decoded PNG at `dpi`. */
export function pdfPages(pdf: Buffer, dpi = 200): PNG[] {
  return withFile(pdf, (file, dir) => {
    execFileSync("pdftoppm", ["-r", String(dpi), "-png", file, path.join(dir, "page")]);
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".png"))
      .sort()
      .map((f) => PNG.sync.read(fs.readFileSync(path.join(dir, f))));
  });
}

/** Decodes the QR code inside a rectangle given in PDF points from the page's top-left. */
export function decodeQrIn(
  page: PNG,
  dpi: number,
  rect: { x: number; y: number; width: number; height: number },
): string | null {
  const k = dpi / 72;
  const x0 = Math.max(0, Math.floor(rect.x * k));
  const y0 = Math.max(0, Math.floor(rect.y * k));
  const w = Math.min(page.width - x0, Math.ceil(rect.width * k));
  const h = Math.min(page.height - y0, Math.ceil(rect.height * k));
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    const from = ((y0 + y) * page.width + x0) * 4;
    out.set(page.data.subarray(from, from + w * 4), y * w * 4);
  }
  return jsQR(out, w, h)?.data ?? null;
}
