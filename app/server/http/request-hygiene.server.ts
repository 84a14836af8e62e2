/**
 * Two Express middlewares that keep odd requests from harming the next ones (server/app.ts
 * mounts them).
 */
import type { NextFunction, Request, Response } from "express";
import { DISCARD_GRACE_BYTES, DISCARD_GRACE_MS } from "./body-limit.server";

/**
 * A NUL character in the path or query is never meaningful here, and PostgreSQL refuses
 * it in text parameters (SQLite does not), so such a URL failed with a 500 on one database
 * only (e.g. /admin/messages/x%00y): refused up front for every route alike.
 */
export function refuseNulInUrl(req: Request, res: Response, next: NextFunction) {
  if (/%00/.test(req.url)) {
    res.status(400).type("text/plain").send("Bad request");
    return;
  }
  next();
}

/**
 * A request body that the route never read (a POST answered with a redirect or a 4xx
 * before its form was parsed) must still be pulled off the wire. React Router's adapter
 * attaches a 'data' listener at once and pauses the stream when its buffer fills, so Node
 * does not drain it by itself, and the next request on that keep-alive connection hung
 * forever (found by tests/integration/bad-input.test.ts). This is what Node's own
 * IncomingMessage._dump() does for bodies nobody listened to. As after a 413 (body-limit),
 * only so much is read and dropped: a photo upload refused unread (decision 050) does not
 * cost the server the rest of its 45 MB; past the grace the connection is closed.
 */
export function drainUnreadBody(req: Request, res: Response, next: NextFunction) {
  res.on("finish", () => {
    if (req.complete) return;
    req.removeAllListeners("data");
    let dropped = 0;
    const close = () => req.socket.destroy();
    req.on("data", (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > DISCARD_GRACE_BYTES) close();
    });
    const timer = setTimeout(close, DISCARD_GRACE_MS);
    timer.unref();
    req.once("end", () => clearTimeout(timer));
    req.socket.once("close", () => clearTimeout(timer));
    req.resume();
  });
  next();
}
