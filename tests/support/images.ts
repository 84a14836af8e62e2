/**
 * Test images for item photos (decision 035), made here rather than committed: a phone-like
 * photo carrying GPS coordinates and an orientation tag, and the bad inputs of the issue.
 */
import sharp from "sharp";
import { crc32, deflateSync } from "node:zlib";

/** A detailed 3000 × 2000 JPEG (noise, shapes, gradients) with EXIF GPS and orientation 6. */
export async function phonePhotoWithGps(): Promise<Buffer> {
  const width = 3000;
  const height = 2000;
  const noise = await sharp({
    create: {
      width: width / 4,
      height: height / 4,
      channels: 3,
      background: "#000",
      noise: { type: "gaussian", mean: 128, sigma: 60 },
    },
  })
    .resize(width, height, { kernel: "cubic" })
    .raw()
    .toBuffer();
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d3557" stop-opacity="0.8"/><stop offset="1" stop-color="#e9c46a" stop-opacity="0.6"/></linearGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#g)"/>` +
      `<rect x="900" y="500" width="1200" height="1000" rx="80" fill="#111" opacity="0.85"/>` +
      `<circle cx="1500" cy="1000" r="300" fill="#e63946" opacity="0.7"/></svg>`,
  );
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .composite([{ input: svg }])
    .jpeg({ quality: 88 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "Hittad Test Phone", Model: "GPS 1" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "59/1 19/1 4600/100",
        GPSLongitudeRef: "E",
        GPSLongitude: "18/1 4/1 1200/100",
      },
    })
    .toBuffer();
}

/**
 * Whether a TIFF/EXIF block has a GPS IFD pointer (tag 0x8825) in IFD0. Enough to tell
 * that a file carries GPS coordinates, without an EXIF library.
 */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const start = exif.indexOf("MM\0*") >= 0 ? exif.indexOf("MM\0*") : exif.indexOf("II*\0");
  if (start < 0) return false;
  const le = exif[start] === 0x49;
  const u16 = (o: number) => (le ? exif.readUInt16LE(start + o) : exif.readUInt16BE(start + o));
  const u32 = (o: number) => (le ? exif.readUInt32LE(start + o) : exif.readUInt32BE(start + o));
  const ifd0 = u32(4);
  const n = u16(ifd0);
  for (let i = 0; i < n; i++) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A 1-bit grayscale PNG of `size` × `size` white pixels: 20,000² compresses to ~50 KB. */
export function decompressionBombPng(size = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // grayscale
  const rowBytes = 1 + Math.ceil(size / 8);
  const raw = Buffer.alloc(rowBytes * size, 0xff);
  for (let y = 0; y < size; y++) raw[y * rowBytes] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A three-frame animated WebP. */
export async function animatedWebp(): Promise<Buffer> {
  const frame = (colour: string) =>
    sharp({ create: { width: 64, height: 64, channels: 3, background: colour } })
      .png()
      .toBuffer();
  const frames = await Promise.all(["#f00", "#0f0", "#00f"].map(frame));
  return sharp(frames, { join: { animated: true } })
    .webp({ loop: 0, delay: [200, 200, 200] })
    .toBuffer();
}

/** A PDF, whatever the file is called. */
export function pdfBytes(): Buffer {
  return Buffer.from(
    "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
  );
}

/** What an iPhone's HEIC starts with (ISO BMFF `ftyp` box, brand heic). */
export function heicBytes(): Buffer {
  const b = Buffer.alloc(4096);
  b.writeUInt32BE(24, 0);
  b.write("ftypheic", 4, "latin1");
  b.write("mif1heic", 16, "latin1");
  return b;
}

/** Just over the 15 MB limit, starting like a JPEG. */
export function sixteenMegabytes(): Buffer {
  const b = Buffer.alloc(16 * 1024 * 1024, 0x20);
  b[0] = 0xff;
  b[1] = 0xd8;
  b[2] = 0xff;
  return b;
}

/** RIFF chunk ids of a WebP file: VP8/VP8L/VP8X/ALPH are the image; EXIF, XMP and ICCP would be metadata. */
export function webpChunks(b: Buffer): string[] {
  const out: string[] = [];
  for (let o = 12; o + 8 <= b.length;) {
    const id = b.toString("latin1", o, o + 4);
    const len = b.readUInt32LE(o + 4);
    out.push(id);
    o += 8 + len + (len % 2);
  }
  return out;
}

/** The chunks of a WebP file that are not image data (metadata): must be none. */
export function webpMetadataChunks(b: Buffer): string[] {
  return webpChunks(b).filter((c) => !["VP8 ", "VP8L", "VP8X", "ALPH"].includes(c));
}
