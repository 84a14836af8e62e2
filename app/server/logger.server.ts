import pino from "pino";
import { parseLogLevel } from "./config.server";

export const logger = pino(
  {
    level: parseLogLevel(process.env),
    base: { service: "hittad" },
    redact: { paths: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'], remove: true },
  },
  // Buffered, asynchronous writes to stdout (decision 021): a synchronous write per line
  // was a quarter of the CPU of a finder page served from the cache. Lines are written
  // in batches of 4 KB, and at least every 100 ms. pino flushes what is left
  // synchronously on exit and after `fatal`; a `kill -9` can lose the last 100 ms of
  // log lines, never a request or a scan.
  pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 }),
);

const SECRET_PARAMS = /^(token|code|state|id_token|access_token|callbackURL)$/i;

/**
 * A request URL fit for the logs: one-time secrets (password-reset and verification
 * tokens, OAuth codes) are replaced, everything else is kept for debugging.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  const path = (q === -1 ? url : url.slice(0, q))
    .replace(/(\/reset-password\/)[^/]+/, "$1[redacted]")
    // The finder's private conversation link (issue #14) is a bearer secret.
    .replace(/^(\/m\/)[^/]+/, "$1[redacted]");
  if (q === -1) return path;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_PARAMS.test(key)) params.set(key, "[redacted]");
  return `${path}?${params.toString()}`;
}
