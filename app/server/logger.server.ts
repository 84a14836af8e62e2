import pino from "pino";
import { parseLogLevel } from "./config.server";
import { redactPath, SECRET_QUERY_PARAMS } from "./secret-urls.server";

// Buffered, asynchronous writes to stdout (decision 021): a synchronous write per line
// was a quarter of the CPU of a finder page served from the cache. Lines are written
// in batches of 4 KB, and at least every 100 ms. pino flushes what is left
// synchronously on exit and after `fatal`; a `kill -9` can lose the last 100 ms of
// log lines, never a request or a scan.
//
// In "buffer" mode: in its default "utf8" mode sonic-boom appends each line to one
// pending string and measures that whole string (Buffer.byteLength) on every line, so
// the cost of a line grew with the batch (6 % of a cached finder page's CPU, decision
// 021). In buffer mode (pinojs/sonic-boom#174) it keeps the lengths; pino writes
// strings, so the line is turned into bytes once here.
const stdout = pino.destination({
  dest: 1,
  sync: false,
  minLength: 4096,
  periodicFlush: 100,
  contentMode: "buffer",
});
const destination: pino.DestinationStream & { flush(cb?: (err?: Error) => unknown): void; flushSync(): void } = {
  write: (line: string) => void (stdout.write as unknown as (data: Buffer) => boolean)(Buffer.from(line, "utf8")),
  flush: (cb) => stdout.flush(cb),
  flushSync: () => stdout.flushSync(),
};

const options = { level: parseLogLevel(process.env), base: { service: "hittad" } };

export const logger = pino(
  {
    ...options,
    redact: { paths: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'], remove: true },
  },
  destination,
);

/**
 * The same lines without the redaction pass, for a line built field by field that holds
 * no headers: the finder page served from the cache (decision 021). Redaction walks
 * every line's object, ~2 % of such a request's CPU. Same destination, so the lines stay
 * in order with the others. Its level is read once at start-up like `logger`'s: a change
 * of `logger.level` at run time would not reach it.
 */
export const plainLogger = pino(options, destination);

/**
 * A request URL fit for the logs: the secrets of every URL in SECRET_URLS (invite,
 * conversation, verification and reset tokens, OAuth codes) are replaced, everything else
 * is kept for debugging. Every log line that names a URL goes through it.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  const path = redactPath(q === -1 ? url : url.slice(0, q));
  if (q === -1) return path;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY_PARAMS.has(key.toLowerCase())) params.set(key, "[redacted]");
  return `${path}?${params.toString()}`;
}
