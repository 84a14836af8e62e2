/**
 * Item photo processing (decision 035): what is served carries no metadata, is
 * upright and small; every bad input of the issue is refused with its own problem, the
 * decompression bomb before any pixel is decoded.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import {
  animatedWebp,
  decompressionBombPng,
  exifHasGps,
  heicBytes,
  pdfBytes,
  phonePhotoWithGps,
  sixteenMegabytes,
  webpMetadataChunks,
} from "../../../tests/support/images";
import { inProcessingSlot, PhotoInputError, processPhoto, processingNow, sniffType } from "./image.server";

async function problemOf(file: Uint8Array) {
  try {
    await processPhoto(file);
    return "accepted";
  } catch (err) {
    if (err instanceof PhotoInputError) return err.problem;
    throw err;
  }
}

// Made and processed once: a phone photo takes a second or two of CPU (CI time, decision 024).
let input: Buffer;
let variants: Awaited<ReturnType<typeof processPhoto>>["variants"];
beforeAll(async () => {
  input = await phonePhotoWithGps();
  ({ variants } = await processPhoto(input));
}, 30_000);

describe("photo processing", () => {
  it("strips every metadata block: the GPS of the phone's photo is in no variant", async () => {
    const inMeta = await sharp(input).metadata();
    expect(exifHasGps(inMeta.exif)).toBe(true); // the test image does carry GPS
    expect(variants.map((v) => v.nominal)).toEqual([160, 320, 640, 1280]);
    for (const v of variants) {
      expect(v.bytes.toString("latin1", 8, 12)).toBe("WEBP");
      expect(webpMetadataChunks(v.bytes)).toEqual([]);
      const meta = await sharp(v.bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(v.bytes.includes("Hittad Test Phone")).toBe(false);
    }
  });

  it("applies the EXIF orientation (a landscape shot held upright comes out portrait)", async () => {
    const large = variants.find((v) => v.nominal === 1280)!;
    // 3000 × 2000 tagged "rotate 90°": 1280 wide and taller than wide.
    expect(large.width).toBe(1280);
    expect(large.height).toBe(1920);
    expect((await sharp(large.bytes).metadata()).orientation).toBeUndefined();
  });

  it("keeps the finder's 320 px variant within 20 KB and the dashboard thumbnail within 10 KB", async () => {
    expect(variants.find((v) => v.nominal === 320)!.bytes.length).toBeLessThanOrEqual(20 * 1024);
    expect(variants.find((v) => v.nominal === 160)!.bytes.length).toBeLessThanOrEqual(10 * 1024);
  });

  it("never enlarges a small photo", async () => {
    const small = await sharp({ create: { width: 200, height: 100, channels: 3, background: "#345" } })
      .png()
      .toBuffer();
    const out = await processPhoto(small);
    expect(out.variants.map((v) => v.width)).toEqual([160, 200, 200, 200]);
  });

  it("reads a photo from the file the upload intake left, as from memory; refuses by the file's content and size alike", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "image-test-"));
    try {
      const onDisk = (name: string, bytes: Uint8Array) => {
        fs.writeFileSync(path.join(dir, name), bytes);
        return { path: path.join(dir, name), size: bytes.length };
      };
      const small = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#345" } })
        .jpeg()
        .toBuffer();
      const fromFile = await processPhoto(onDisk("1", small));
      const fromMemory = await processPhoto(small);
      expect(fromFile.variants.map((v) => [v.width, v.height])).toEqual(
        fromMemory.variants.map((v) => [v.width, v.height]),
      );
      await expect(processPhoto(onDisk("2", pdfBytes()))).rejects.toMatchObject({ problem: "unsupportedType" });
      await expect(processPhoto({ ...onDisk("3", small), size: 15 * 1024 * 1024 + 1 })).rejects.toMatchObject({
        problem: "tooLarge",
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("checks the content, not the name: a PDF is refused as an unsupported type", async () => {
    expect(sniffType(pdfBytes())).toBeNull();
    expect(await problemOf(pdfBytes())).toBe("unsupportedType");
  });

  it("refuses a truncated JPEG as damaged", async () => {
    expect(await problemOf(input.subarray(0, Math.floor(input.length / 2)))).toBe("damaged");
  });

  it("refuses a 20,000 × 20,000 PNG of a few kilobytes before decoding it, memory flat", async () => {
    const bomb = decompressionBombPng();
    expect(bomb.length).toBeLessThan(100 * 1024);
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 5; i++) expect(await problemOf(bomb)).toBe("tooManyPixels");
    // Decoding it once would take 400 MB (1.6 GB as RGBA).
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it("refuses a file over 15 MB, an animated WebP, an empty file and an unconverted HEIC", async () => {
    expect(await problemOf(sixteenMegabytes())).toBe("tooLarge");
    expect(await problemOf(await animatedWebp())).toBe("animated");
    expect(await problemOf(new Uint8Array(0))).toBe("empty");
    expect(await problemOf(heicBytes())).toBe("heic");
  });

  it("runs at most two photos at once per instance", async () => {
    let peak = 0;
    const work = () =>
      inProcessingSlot(async () => {
        peak = Math.max(peak, processingNow());
        await new Promise((r) => setTimeout(r, 20));
      });
    await Promise.all(Array.from({ length: 6 }, work));
    expect(peak).toBe(2);
    expect(processingNow()).toBe(0);
  });
});
