import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** The request's id: a sane incoming X-Request-Id (from a proxy) or a new one; echoed back. */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const id = newRequestId(req);
  res.setHeader("X-Request-Id", id);
  return id;
}

/**
 * The same id without setting the header, for a response whose headers are all passed to
 * writeHead at once (a cached finder page): Node then skips merging them one by one.
 */
export function newRequestId(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
}
