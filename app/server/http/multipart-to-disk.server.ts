/**
 * A multipart/form-data body read as it streams (decision 050): text fields into memory
 * up to a bound, the files of one field each to its own file in `dir`, cut off past a cap,
 * never whole in memory. Each file is admitted (the upload limit counted) before any of its
 * bytes are read; while that is decided, the parser and with it the socket wait. The
 * caller owns `dir` and removes it, whatever happens here.
 */
import Busboy, { type BusboyFileStream } from "@fastify/busboy";
import fs from "node:fs";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";

export interface ReceivedFile {
  name: string;
  type: string;
  /** Where its bytes are; null when they were dropped (refused, or one file too many). */
  path: string | null;
  /** Bytes kept: at most the cap, so a file over it shows as exactly the cap. */
  size: number;
}

export interface ReceivedForm<R> {
  fields: Array<[string, string]>;
  files: ReceivedFile[];
  /** What admitFile answered for the first file it refused; later files are dropped unasked. */
  refusal: R | null;
}

export interface ReceiveOptions<R> {
  dir: string;
  /** The field whose files are kept; files of any other field are read and dropped. */
  fileField: string;
  /** Bytes kept per file: one more than the largest accepted, so an oversized one is seen as such. */
  fileCap: number;
  /** Files kept; one more is listed without its bytes (the caller says "too many"). */
  maxFiles: number;
  /** The most bytes of all text fields together. */
  fieldBytes: number;
  /** Called as a named file begins, before any of it is read: a refusal, or null to keep it. */
  admitFile(): Promise<R | null>;
}

/** A body that is not the multipart form it says it is, or a text field past its bound. */
export class MultipartError extends Error {
  override name = "MultipartError";
}

export function receiveMultipart<R>(req: IncomingMessage, opts: ReceiveOptions<R>): Promise<ReceivedForm<R>> {
  return new Promise((resolve, reject) => {
    const out: ReceivedForm<R> = { fields: [], files: [], refusal: null };
    const streams = new Set<BusboyFileStream | fs.WriteStream>();
    const pending: Promise<void>[] = [];
    let fieldBytes = 0;
    let settled = false;
    let parser: ReturnType<typeof Busboy>;

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      for (const s of streams) s.destroy();
      // The rest of the body is left to whoever answers (drainUnreadBody, the body limit).
      reject(err instanceof MultipartError ? err : new MultipartError(String(err)));
    };

    try {
      parser = Busboy({
        headers: req.headers as Parameters<typeof Busboy>[0]["headers"],
        limits: { fileSize: opts.fileCap, fieldSize: opts.fieldBytes, parts: 1000, headerPairs: 100 },
      });
    } catch (err) {
      reject(new MultipartError(String(err)));
      return;
    }

    parser.on("field", (name, value, nameTruncated, valueTruncated) => {
      fieldBytes += name.length + value.length;
      if (nameTruncated || valueTruncated || fieldBytes > opts.fieldBytes) fail(new MultipartError("fields too large"));
      else out.fields.push([name, value]);
    });

    parser.on("file", (field, stream, filename, _encoding, type) => {
      // An empty file input sends a nameless part; files of other fields are not ours.
      if (field !== opts.fileField || !filename) return void stream.resume();
      const file: ReceivedFile = { name: filename, type, path: null, size: 0 };
      out.files.push(file);
      if (out.refusal !== null || out.files.length > opts.maxFiles) return void stream.resume();
      const at = path.join(opts.dir, String(out.files.length));
      streams.add(stream);
      pending.push(
        (async () => {
          const refusal = out.refusal ?? (await opts.admitFile());
          if (refusal !== null) {
            out.refusal ??= refusal;
            stream.resume();
            return;
          }
          const sink = fs.createWriteStream(at, { flags: "wx" });
          streams.add(sink);
          await pipeline(stream, sink);
          file.path = at;
          file.size = stream.bytesRead;
        })().catch(fail),
      );
    });

    parser.on("finish", () => {
      void Promise.all(pending).then(() => {
        if (settled) return;
        settled = true;
        resolve(out);
      });
    });
    parser.on("error", fail);
    // The body limit stops an over-long chunked body with an error; a client may go away.
    req.on("error", fail);
    req.on("close", () => {
      if (!req.complete) fail(new MultipartError("request aborted"));
    });
    req.pipe(parser);
  });
}
