/**
 * The HTTP side of the finder-page cache (app/server/items/item-page-cache.server.ts;
 * docs/decisions/009-performance.md): answering a hit before Express, and keeping the
 * rendered page of a cacheable miss.
 */
import * as cookie from "cookie";
import type express from "express";
import type { IncomingMessage, ServerResponse } from "node:http";
import { LANG_COOKIE, pickLanguage, type Lang } from "~/i18n/config";
import { CONSENT_COOKIE } from "~/lib/domain/consent";
import {
  cookiesAllowCache,
  itemIdOfPath,
  itemPageVersion,
  ItemPageCache,
  type CachedPage,
  type ItemPageVersion,
  toStorablePage,
  VERSION_CHECK_MS,
} from "./items/item-page-cache.server";
import { plainLogger, redactUrl } from "./logger.server";
import { scanLog } from "./scans/scan-log.server";
import { recordItemPageVisit } from "./scans/scans.service.server";
import { startedRuntime } from "./runtime.server";
import { newRequestId } from "./http/request-id.server";
import { finderPageCache, metricsEnabled, observeRequest } from "./metrics/metrics.server";
import { systemClock } from "./clock.server";
import { finderPageMiss, noteFinderPageHeaders } from "./finder-page.http.server";

/** Set on a finder-page request whose rendered page may be stored. */
interface CacheCandidate {
  itemId: string;
  key: string;
  version: ItemPageVersion;
  /** The runtime's cache the page goes into. */
  cache: ItemPageCache;
}
const candidates = new WeakMap<IncomingMessage, CacheCandidate>();

/**
 * The anonymous finder page from the cache (app/server/items/item-page-cache.server.ts).
 * server.js calls this before Express: a hit is answered here with stored, compressed
 * bytes (true); anything else returns false and goes through the whole app, where a
 * cacheable miss is stored by `storeItemPage` below (server/app.ts mounts it).
 */
export function serveCachedItemPage(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> {
  const url = req.url ?? "/";
  if ((req.method !== "GET" && req.method !== "HEAD") || url.includes("?")) return false;
  const itemId = itemIdOfPath(url);
  if (!itemId || !cookiesAllowCache(req.headers.cookie)) return false;
  // Before start-up has finished the app answers (server.js starts listening after it).
  const rt = startedRuntime();
  if (!rt) return false;
  const cache = rt.pageCache;
  const started = performance.now();
  const cookies = req.headers.cookie ? cookie.parse(req.headers.cookie) : {};
  const lang = languageOf(cookies[LANG_COOKIE], req.headers["accept-language"]);
  const consent = cookies[CONSENT_COOKIE] !== undefined;
  const key = cache.key(url, lang, consent);
  const now = systemClock();
  const page = cache.get(key, now);
  // The common case answers synchronously: no promise, no database.
  if (page && now - page.checkedAt <= VERSION_CHECK_MS)
    return sendCachedPage(cache, req, res, page, url, started, lang);
  return (async () => {
    // Not stored: made from its template, the version from the same read of the item (finder-page.http.server.ts).
    const made =
      page || req.method !== "GET" ? null : await finderPageMiss(rt, req, { itemId, key, lang, consent, cache });
    if (made) return sendCachedPage(cache, req, res, made, url, started, lang, true);
    let version: ItemPageVersion | null;
    try {
      version = await itemPageVersion(rt.database.db, itemId, now);
    } catch {
      return false; // database trouble: the app answers (503 page)
    }
    if (version === null) return false; // the 404 page
    if (!page || page.version !== version.version) {
      if (page) cache.delete(key);
      // A changed item: made from its template as above, else rendered and stored below.
      const remade =
        page && req.method === "GET" ? await finderPageMiss(rt, req, { itemId, key, lang, consent, cache }) : null;
      if (remade) return sendCachedPage(cache, req, res, remade, url, started, lang, true);
      candidates.set(req, { itemId, key, version, cache });
      return false;
    }
    page.checkedAt = now;
    return sendCachedPage(cache, req, res, page, url, started, lang);
  })();
}

function sendCachedPage(
  cache: ItemPageCache,
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  url: string,
  started: number,
  lang: Lang,
  /** A miss filled in from its template (finder-page.http.server.ts): its scan is recorded there. */
  miss = false,
) {
  cache.markServed(page.itemId);
  const requestId = newRequestId(req);
  const { body, encoding } = ItemPageCache.body(page, req.headers["accept-encoding"], miss);
  // Every header in one array, none set before: writeHead's fast path.
  const headers = [
    ...page.headers,
    "X-Request-Id",
    requestId,
    "Vary",
    "Accept-Encoding",
    "Content-Length",
    String(body.length),
  ];
  if (encoding) headers.push("Content-Encoding", encoding);
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
  if (metricsEnabled()) {
    finderPageCache.inc({ result: miss ? "template" : "hit" });
    const route = url.startsWith("/product/") ? "routes/item" : "routes/item-short";
    observeRequest(route, req.method ?? "GET", 200, (performance.now() - started) / 1000);
  }
  // A page served from here is a view by an anonymous visitor (never the signed-in owner):
  // a scan for the log (decision 014), in memory, written within a second.
  if (req.method === "GET" && !miss) {
    recordItemPageVisit(scanLog, {
      itemId: page.itemId,
      paid: page.paid,
      isOwner: false,
      lang,
      userAgent: req.headers["user-agent"],
      at: systemClock(),
    });
  }
  // The same line pino-http writes for rendered pages (its fields are listed here: no
  // headers, so the plain logger's missing redaction has nothing to remove).
  plainLogger.info(
    {
      req: { id: requestId, method: req.method, url: redactUrl(url) },
      res: { statusCode: 200 },
      responseTime: Math.round(performance.now() - started),
      cache: miss ? "miss" : "hit",
    },
    "request completed",
  );
  return true;
}

/** pickLanguage, remembered per (cookie, Accept-Language): browsers send a few distinct headers. */
const languages = new Map<string, Lang>();
function languageOf(cookieValue: string | undefined, acceptLanguage: string | undefined): Lang {
  const k = `${cookieValue ?? ""}|${acceptLanguage ?? ""}`;
  let lang = languages.get(k);
  if (!lang) {
    lang = pickLanguage(cookieValue, acceptLanguage);
    if (languages.size >= 1000) languages.clear();
    languages.set(k, lang);
  }
  return lang;
}

/** Headers of a rendered page that belong to one response only. */
const PER_RESPONSE_HEADERS = new Set([
  "x-request-id",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "vary",
  "content-security-policy",
  "date",
  "connection",
  "keep-alive",
]);

/**
 * Keeps the rendered finder page of a cache candidate (see serveCachedItemPage) and
 * answers with the stored page: the bytes a hit gets, compressed once. The page is held
 * until it is complete (a finder page is all shell, decision 045); an answer that cannot
 * be stored goes out as it came, through the compression middleware. Before, the miss
 * was compressed by the middleware and again (twice) for the cache.
 */
export function storeItemPage(req: express.Request, res: express.Response, next: express.NextFunction) {
  const candidate = candidates.get(req);
  if (!candidate) return next();
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => express.Response;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array),
    );
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    const callback = rest.find((a) => typeof a === "function") as (() => void) | undefined;
    if (callback) process.nextTick(callback);
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    const callback = [chunk, ...rest].find((a) => typeof a === "function");
    const page = storable(req, res, candidate, Buffer.concat(chunks));
    if (!page) {
      for (const c of chunks) write(c);
      return callback ? end(callback) : end();
    }
    const { body, encoding } = ItemPageCache.body(page, req.headers["accept-encoding"]);
    for (let i = 0; i < page.headers.length; i += 2) res.setHeader(page.headers[i]!, page.headers[i + 1]!);
    // Set before the compression middleware sees the headers: it leaves an encoded body alone.
    res.setHeader("Vary", "Accept-Encoding");
    if (encoding) res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", String(body.length));
    return callback ? end(body, callback) : end(body);
  }) as typeof res.end;
  next();
}

/** The cache entry made of a candidate's complete answer, or null when it may not be stored. */
function storable(req: express.Request, res: express.Response, candidate: CacheCandidate, raw: Buffer) {
  const type = String(res.getHeader("content-type") ?? "");
  const csp = res.getHeader("content-security-policy");
  if (req.method !== "GET" || res.statusCode !== 200 || !type.startsWith("text/html") || res.getHeader("set-cookie"))
    return null;
  if (!csp) return null;
  const html = raw.toString("utf8");
  // Only the lean page (decision 020) is kept. A finder page that needs the framework,
  // such as a flooded item's page with its captcha (decision 029), carries React Router's
  // hydration data for this one response and is rendered afresh each time.
  if (html.includes("window.__reactRouterContext")) return null;
  const stored = toStorablePage(html, String(csp), res.locals.nonce as string);
  const headers = ["Content-Security-Policy", stored.csp];
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || PER_RESPONSE_HEADERS.has(name)) continue;
    headers.push(name, Array.isArray(value) ? value.join(", ") : String(value));
  }
  noteFinderPageHeaders(headers);
  const page = candidate.cache.set(candidate.key, candidate.itemId, candidate.version, headers, stored.html);
  if (metricsEnabled()) finderPageCache.inc({ result: "miss" });
  return page;
}
