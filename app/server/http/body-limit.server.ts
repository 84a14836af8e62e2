/**
 * Request bodies have a ceiling (decision 012, HTTP part): 100 KB for forms and JSON,
 * 1 MB for the Stripe webhook, and about 4 MB for the CSV import's form (decision 023). A body declared larger (Content-Length) is refused before
 * any of it is read; a chunked body is counted as it streams and cut off at the limit.
 * Either way the answer is 413 with a page (or JSON for /api/) in the request's language;
 * the rest of the upload is dropped unread into memory and, past a grace amount, the
 * connection is closed, so nobody's upload ties up memory or the event loop.
 */
import * as cookie from "cookie";
import type express from "express";
import type { IncomingMessage } from "node:http";
import { LANG_COOKIE, pickLanguage } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { BATCH_FILE_MAX_BYTES } from "~/lib/domain/claim-mode";
import { CSV_MAX_BYTES } from "~/lib/domain/item-csv";
import { MAX_PHOTOS_PER_ITEM, PHOTO_MAX_MB } from "~/lib/domain/photos";
import "~/i18n/resources.server";
import { logger, redactUrl } from "../logger.server";

/** Forms and JSON: the longest legitimate form (a 10 000-character reply) is ~30 KB encoded. */
export const FORM_BODY_LIMIT = 100 * 1024;
/** Stripe's event objects are a few KB; their documented ceiling is far below this. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;
/** A browser's push subscription (decision 034) is well under 1 KB. */
export const PUSH_BODY_LIMIT = 8 * 1024;
/**
 * After a 413, this much more of the upload is read and thrown away (no memory kept), so
 * a client still sending a few megabytes finishes and reads the 413 instead of seeing a
 * reset connection; past it, or after the time, the socket is closed.
 */
export const DISCARD_GRACE_BYTES = 16 * 1024 * 1024;
export const DISCARD_GRACE_MS = 5000;

/**
 * The CSV import (decision 023): the file, and on confirmation its text posted back,
 * where a browser writes every line break as CRLF (at most twice the bytes). The import
 * itself refuses a text over CSV_MAX_BYTES.
 */
export const CSV_IMPORT_BODY_LIMIT = 2 * CSV_MAX_BYTES + 64 * 1024;

/** Claim mode (decision 036): a batch file of up to 10,000 stickers, or its confirmation's pairs. */
export const CLAIM_FILE_BODY_LIMIT = BATCH_FILE_MAX_BYTES + 64 * 1024;

/**
 * The forms that carry item photos (decision 035): up to three files of up to 15 MB (without
 * JavaScript nothing is downscaled first) plus the form's fields. A 16 MB file still
 * arrives whole, so the photo check refuses it with its own message and keeps the form.
 */
export const PHOTO_FORM_BODY_LIMIT = MAX_PHOTOS_PER_ITEM * (PHOTO_MAX_MB + 1) * 1024 * 1024 + FORM_BODY_LIMIT;

/** Paths of the forms that take photos (their page and the router's `.data` POST). */
export function isPhotoFormPath(path: string): boolean {
  return /^\/product\/(?:register|edit\/[A-Za-z0-9]+|[A-Za-z0-9]+\/photos)(?:\/|\.data)?$/.test(path);
}

export function bodyLimitOf(path: string): number {
  if (isPhotoFormPath(path)) return PHOTO_FORM_BODY_LIMIT;
  if (path === "/api/stripe/webhook") return WEBHOOK_BODY_LIMIT;
  if (path === "/api/push/subscriptions") return PUSH_BODY_LIMIT;
  // With JavaScript, React Router posts the same form to the route's `.data` URL; the
  // router also serves the page with a trailing slash, so that path gets the same limit.
  if (/^\/dashboard\/import(?:\/|\.data)?$/.test(path)) return CSV_IMPORT_BODY_LIMIT;
  if (/^\/organisations\/[A-Za-z0-9]+\/claim(?:\/|\.data)?$/.test(path)) return CLAIM_FILE_BODY_LIMIT;
  return FORM_BODY_LIMIT;
}

/**
 * A photo form's POST declared over its limit: instead of the bare 413 page, the request
 * goes on as a GET of the same page, whose loader answers 413 with the form and the
 * message (decision 035). The body is read and dropped as for any 413.
 */
export const BODY_TOO_LARGE = Symbol("bodyTooLarge");
export function wasBodyTooLarge(req: IncomingMessage): boolean {
  return (req as IncomingMessage & { [BODY_TOO_LARGE]?: boolean })[BODY_TOO_LARGE] === true;
}

export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

/** The 413 answer: JSON {message} for the API, else a small self-contained page. */
export function tooLargeBody(req: IncomingMessage, path: string, limit: number) {
  const cookies = cookie.parse(req.headers.cookie ?? "");
  const lang = pickLanguage(cookies[LANG_COOKIE], req.headers["accept-language"]);
  const t = getT(lang);
  const kb = Math.round(limit / 1024);
  if (path.startsWith("/api/")) {
    return {
      type: "application/json; charset=utf-8",
      body: JSON.stringify({ message: t("errors.tooLarge.text", { limit: kb }) }),
    };
  }
  const title = t("errors.tooLarge.title");
  const page =
    `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} – Hittad</title></head>` +
    `<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem">` +
    `<h1>${title}</h1><p>${t("errors.tooLarge.text", { limit: kb })}</p>` +
    `<p><a href="/">${t("errors.tooLarge.home")}</a></p></body></html>`;
  return { type: "text/html; charset=utf-8", body: page };
}

/**
 * The route that was reading the body may still answer (its read failed): that answer is
 * dropped, instead of failing with "headers already sent" (which makes Express destroy
 * the socket, so the client would see a reset instead of our 413).
 */
function muteResponse(res: express.Response) {
  res.setHeader = (() => res) as typeof res.setHeader;
  res.appendHeader = (() => res) as typeof res.appendHeader;
  res.writeHead = (() => res) as typeof res.writeHead;
  res.write = (() => true) as typeof res.write;
  res.end = (() => res) as typeof res.end;
}

export function bodyLimit(req: express.Request, res: express.Response, next: express.NextFunction) {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  const limit = bodyLimitOf(req.path);
  const declared = req.headers["content-length"];
  // Chunks that arrived with the headers are already buffered before this runs.
  let received = req.readableLength;
  let tooLarge = false;

  const drain = () => {
    // The reader cancels its stream on the error below, which destroys the request and
    // with it the socket: the client would see a reset, not the 413. Only a socket that
    // is gone may take the request with it.
    const destroy = req.destroy.bind(req);
    req.destroy = ((err?: Error) => (req.socket.destroyed ? destroy(err) : req)) as typeof req.destroy;
    // Stop whoever is reading the body (the route's formData() fails, nothing is saved).
    if (req.listenerCount("error") > 0) req.emit("error", new BodyTooLargeError("request body too large"));
    // Keep reading (and dropping, see req.push below) to the end of the upload.
    req.resume();
    const timer = setTimeout(() => req.socket.destroy(), DISCARD_GRACE_MS);
    timer.unref();
    req.once("end", () => clearTimeout(timer));
    req.socket.once("close", () => clearTimeout(timer));
  };

  const refuse = () => {
    tooLarge = true;
    logger.warn({ method: req.method, url: redactUrl(req.path), limit }, "request body too large");
    if (!res.headersSent) {
      const { type, body } = tooLargeBody(req, req.path, limit);
      // Never `Connection: close`, even when the client asked for it (Node's own default
      // then): Node would end the socket as soon as the answer is out, the client's next
      // chunk would meet a closed socket, and the reset can reach the client before it has
      // read the 413 (EPIPE instead of an answer). Instead the rest of the body is read
      // and dropped (below); a client that wants to close closes after reading the answer,
      // and an idle connection ends with the server's keep-alive timeout.
      res.status(413).set({ "Content-Type": type, "Cache-Control": "no-store", Connection: "keep-alive" }).end(body);
      muteResponse(res);
    }
    drain();
  };

  // Count at the source: Node's HTTP parser hands every body chunk to req.push().
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null) return push(chunk);
    received += (chunk as Buffer).length;
    if (tooLarge) {
      // Read and dropped, so the client can read our 413 before the socket closes.
      if (received > limit + DISCARD_GRACE_BYTES) req.socket.destroy();
      return true;
    }
    if (received > limit) {
      refuse();
      return true;
    }
    return push(chunk, encoding);
  };

  if (declared !== undefined && Number(declared) > limit) {
    // A photo form's page (not the router's .data fetch) is rendered with its message.
    if (req.method === "POST" && isPhotoFormPath(req.path) && !req.path.endsWith(".data")) {
      tooLarge = true;
      logger.warn({ method: req.method, url: redactUrl(req.path), limit }, "request body too large");
      (req as IncomingMessage & { [BODY_TOO_LARGE]?: boolean })[BODY_TOO_LARGE] = true;
      req.method = "GET";
      delete req.headers["content-length"];
      delete req.headers["content-type"];
      drain();
      return next();
    }
    refuse();
    return;
  }
  next();
}
