/**
 * Decodes QR codes in tests with jsQR: from a PNG screenshot (what a phone camera would
 * see) or from one of our SVG documents (its modules drawn as `M x y h n v1 …` runs).
 */
import jsQR from "jsqr";
import { PNG } from "pngjs";

/** `scale`: draw each pixel as scale × scale first, as a page does the screen PNG's modules. */
export function decodeQrPng(png: Buffer, scale = 1): string | null {
  const img = PNG.sync.read(png);
  const [w, h] = [img.width * scale, img.height * scale];
  const pixels = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const from = (Math.floor(y / scale) * img.width + Math.floor(x / scale)) * 4;
      pixels.set(img.data.subarray(from, from + 4), (y * w + x) * 4);
    }
  return jsQR(pixels, w, h)?.data ?? null;
}

export function decodeQrSvg(svg: string, scale = 8): string | null {
  const box = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const fg = /<path fill="#000000" d="([^"]+)"/.exec(svg);
  if (!box || !fg) return null;
  const n = Number(box[1]);
  const dark = new Set<string>();
  for (const m of fg[1]!.matchAll(/M(\d+)[ ,](\d+)\s*h(\d+)v1H\d+z/g)) {
    const [x, y, w] = [Number(m[1]), Number(m[2]), Number(m[3])];
    for (let i = 0; i < w; i++) dark.add(`${x + i},${y}`);
  }
  const size = n * scale;
  const pixels = new Uint8ClampedArray(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const v = dark.has(`${Math.floor(px / scale)},${Math.floor(py / scale)}`) ? 0 : 255;
      const o = (py * size + px) * 4;
      pixels[o] = pixels[o + 1] = pixels[o + 2] = v;
      pixels[o + 3] = 255;
    }
  }
  return jsQR(pixels, size, size)?.data ?? null;
}
