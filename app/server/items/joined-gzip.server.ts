/**
 * Gzip of a page whose largest part is the same for many pages (decision 045, point 6):
 * the finder page's 33 KB around its inline stylesheet is compressed once per template,
 * on its own, and each page's text before and after it is compressed alone and joined
 * to it. DEFLATE allows it: each piece but the last ends on a byte boundary without a
 * final block (a sync flush); the shared part refers to nothing before it; and the text
 * after it is compressed with the 32 KB before it as its dictionary, which is exactly
 * what the decoder has in its window there, so it compresses as well as if the whole
 * page had been compressed at once. The gzip trailer's CRC-32 runs over the three.
 * Brotli has no such join without a dictionary that Node's zlib does not take.
 */
import { constants, crc32, deflateRawSync } from "node:zlib";

export interface GzipPart {
  raw: Buffer;
  /** Its DEFLATE blocks, sync-flushed, referring to nothing before them. */
  blocks: Buffer;
  crc: number;
}

/** gzip's header as zlib writes it: no name, no time, OS Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
const WINDOW = 32 * 1024;
const SYNC = { finishFlush: constants.Z_SYNC_FLUSH };

/** A part the same on many pages, compressed once (level 9: it is done once per template). */
export function gzipPart(text: string): GzipPart {
  const raw = Buffer.from(text, "utf8");
  return { raw, blocks: deflateRawSync(raw, { level: 9, ...SYNC }), crc: crc32(raw) };
}

/** The gzip of before + part + after, with `part` as compressed once. */
export function gzipAround(before: string, part: GzipPart, after: string): Buffer {
  const a = Buffer.from(before, "utf8");
  const b = Buffer.from(after, "utf8");
  const window = part.raw.length >= WINDOW || a.length === 0 ? part.raw : Buffer.concat([a, part.raw]);
  const pieces: Buffer[] = [GZIP_HEADER];
  if (a.length > 0) pieces.push(deflateRawSync(a, { level: 6, ...SYNC }));
  pieces.push(part.blocks, deflateRawSync(b, { level: 6, dictionary: window.subarray(-WINDOW) }));
  const trailer = Buffer.alloc(8);
  const crc = a.length > 0 ? crc32(part.raw, crc32(a)) : part.crc;
  trailer.writeUInt32LE(crc32(b, crc) >>> 0, 0);
  trailer.writeUInt32LE((a.length + part.raw.length + b.length) % 2 ** 32, 4);
  pieces.push(trailer);
  return Buffer.concat(pieces);
}
