/**
 * Item photos in, WebP variants out (decision 035).
 *
 * - Checked by content, never by name or declared type: the first bytes must be JPEG, PNG
 *   or WebP. An iPhone's HEIC (ISO BMFF `ftyp` with a HEIF brand) gets its own message.
 * - Refused before decoding: over 15 MB, over 40 megapixels (read from the header, so a
 *   20,000 × 20,000 PNG of a few kilobytes is refused without allocating its 1.6 GB), more
 *   than one frame (animated WebP/PNG). libvips' `limitInputPixels` guards the decode too.
 * - Decoded once, EXIF orientation applied, scaled to 1280 px wide, and every variant encoded
 *   from those pixels. Nothing of the file's metadata survives: sharp writes none unless
 *   asked (`keepMetadata`/`withMetadata`, never called here), and colours are converted to
 *   sRGB, so no ICC profile is needed either.
 * - On sharp's (libuv) thread pool, never the event loop, and at most PROCESSING_SLOTS
 *   photos at once per instance; each with one libvips thread (two cores, decision 024).
 */
import fs from "node:fs";
import sharp, { type Metadata, type OutputInfo } from "sharp";

// A shared libvips operation cache would keep decoded pixels of past uploads in memory.
sharp.cache(false);
sharp.concurrency(1);

export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
export const PHOTO_MAX_PIXELS = 40_000_000;
/** 160: dashboard thumbnail; 320 and 640: the finder page's srcset; 1280: the owner. */
export const VARIANT_WIDTHS = [160, 320, 640, 1280] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];
const QUALITY: Record<VariantWidth, number> = { 160: 55, 320: 62, 640: 60, 1280: 72 };
/** The largest variant is at most this tall (a panorama on its side stays reasonable). */
const MAX_HEIGHT = 2560;
export const PROCESSING_SLOTS = 2;

export type PhotoProblem = "empty" | "tooLarge" | "unsupportedType" | "heic" | "tooManyPixels" | "animated" | "damaged";

export class PhotoInputError extends Error {
  override name = "PhotoInputError";
  constructor(readonly problem: PhotoProblem) {
    super(problem);
  }
}

export type SniffedType = "jpeg" | "png" | "webp" | "heic" | null;

const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]);

/** The image type by its first bytes. */
export function sniffType(b: Uint8Array): SniffedType {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v)) return "png";
  const ascii = (from: number, to: number) => Buffer.from(b.subarray(from, to)).toString("latin1");
  if (b.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (b.length >= 12 && ascii(4, 8) === "ftyp" && HEIF_BRANDS.has(ascii(8, 12))) return "heic";
  return null;
}

export interface PhotoVariant {
  width: number;
  height: number;
  /** The nominal width it stands for (160/320/640/1280); `width` is smaller for a small photo. */
  nominal: VariantWidth;
  bytes: Buffer;
}

export interface ProcessedPhoto {
  variants: PhotoVariant[];
}

/**
 * A photo in memory, or in a file as the upload intake left it (decision 050): libvips
 * then reads it from disk as it decodes, and no copy of the file is held in memory.
 */
export type PhotoSource = Uint8Array | { path: string; size: number };

/** Enough of the start of the file to tell its type. */
async function headOf(input: PhotoSource): Promise<Uint8Array> {
  if (input instanceof Uint8Array) return input;
  const head = new Uint8Array(16);
  const file = await fs.promises.open(input.path, "r");
  try {
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** What sharp reads: the bytes, or the file by its path. */
const sharpInput = (input: PhotoSource) => (input instanceof Uint8Array ? input : input.path);

/** Checks that need no decoding: size, type, header dimensions, frames. */
export async function checkPhoto(input: PhotoSource): Promise<void> {
  const size = input instanceof Uint8Array ? input.length : input.size;
  if (size === 0) throw new PhotoInputError("empty");
  if (size > PHOTO_MAX_BYTES) throw new PhotoInputError("tooLarge");
  const type = sniffType(await headOf(input));
  if (type === "heic") throw new PhotoInputError("heic");
  if (type === null) throw new PhotoInputError("unsupportedType");
  let meta: Metadata;
  try {
    // Reads the header only.
    meta = await sharp(sharpInput(input), { limitInputPixels: false }).metadata();
  } catch {
    throw new PhotoInputError("damaged");
  }
  if (meta.format !== type) throw new PhotoInputError("damaged");
  if (!meta.width || !meta.height) throw new PhotoInputError("damaged");
  if (meta.width * meta.height > PHOTO_MAX_PIXELS) throw new PhotoInputError("tooManyPixels");
  if ((meta.pages ?? 1) > 1) throw new PhotoInputError("animated");
}

let running = 0;
const waiting: Array<() => void> = [];

/** Runs `work` when one of the PROCESSING_SLOTS is free. */
export async function inProcessingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PROCESSING_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Photos being processed right now (for tests of the bound). */
export function processingNow(): number {
  return running;
}

/** Checks the file, then decodes it and encodes the variants (PhotoInputError when refused). */
export async function processPhoto(input: PhotoSource): Promise<ProcessedPhoto> {
  await checkPhoto(input);
  return inProcessingSlot(async () => {
    let pixels: { data: Buffer; info: OutputInfo };
    try {
      pixels = await sharp(sharpInput(input), { limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error", pages: 1 })
        .rotate() // EXIF orientation applied, the tag itself dropped
        .resize({ width: 1280, height: MAX_HEIGHT, fit: "inside", withoutEnlargement: true })
        .toColourspace("srgb")
        .raw()
        .toBuffer({ resolveWithObject: true });
    } catch {
      // A truncated or corrupt file (failOn: "error"), or pixels beyond the limit after all.
      throw new PhotoInputError("damaged");
    }
    const { data, info } = pixels;
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const variants: PhotoVariant[] = [];
    for (const nominal of VARIANT_WIDTHS) {
      const { data: bytes, info: out } = await sharp(data, raw)
        .resize({ width: Math.min(nominal, info.width) })
        .webp({ quality: QUALITY[nominal], effort: 4, smartSubsample: true })
        .toBuffer({ resolveWithObject: true });
      variants.push({ width: out.width, height: out.height, nominal, bytes });
    }
    return { variants };
  });
}
