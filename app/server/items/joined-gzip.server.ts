/**
 * Gzip of a page whose beginning is the same for many pages (decision 045, point 6): the
 * finder page's first 33 KB, its inline stylesheet most of it, are compressed once per
 * template, and each page's own rest is compressed alone and joined to them. DEFLATE
 * allows it: the beginning ends on a byte boundary without a final block (a sync flush),
 * and the rest is compressed with the beginning's last 32 KB as its dictionary, which is
 * exactly what the decoder has in its window when it gets there, so the rest compresses
 * as well as if the whole page had been compressed at once. The gzip trailer's CRC-32 is
 * the beginning's continued over the rest. Brotli has no such join without a dictionary
 * that Node's zlib does not take.
 */
import { constants, crc32, deflateRawSync } from "node:zlib";

export interface GzipStart {
  /** The gzip header and the beginning's DEFLATE blocks, sync-flushed. */
  head: Buffer;
  crc: number;
  length: number;
  /** The beginning's last 32 KB: the rest's dictionary. */
  dictionary: Buffer;
}

/** gzip's header as zlib writes it at level 6: no name, no time, OS Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
const WINDOW = 32 * 1024;

/** The beginning compressed once (level 9: it is done once per template). */
export function gzipStart(beginning: string): GzipStart {
  const raw = Buffer.from(beginning, "utf8");
  const blocks = deflateRawSync(raw, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  return {
    head: Buffer.concat([GZIP_HEADER, blocks]),
    crc: crc32(raw),
    length: raw.length,
    dictionary: raw.subarray(Math.max(0, raw.length - WINDOW)),
  };
}

/** The gzip of beginning + rest. */
export function gzipJoined(start: GzipStart, rest: string): Buffer {
  const raw = Buffer.from(rest, "utf8");
  const blocks = deflateRawSync(raw, { level: 6, dictionary: start.dictionary });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(raw, start.crc) >>> 0, 0);
  trailer.writeUInt32LE((start.length + raw.length) % 2 ** 32, 4);
  return Buffer.concat([start.head, blocks, trailer]);
}
