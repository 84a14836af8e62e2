/**
 * The HTTP application: everything between the socket (server.js) and React Router.
 * Built by Vite as the SSR bundle's entry so it can import the app's TypeScript modules.
 */
import { createRequestHandler } from "@react-router/express";
import { toNodeHandler } from "better-auth/node";
import * as cookie from "cookie";
import express from "express";
import helmet from "helmet";
import { randomBytes, randomUUID } from "node:crypto";
import { pinoHttp } from "pino-http";
import { RouterContextProvider } from "react-router";
import { LANG_COOKIE, pickLanguage, type Lang } from "../app/i18n/config";
import { CONSENT_COOKIE } from "../app/lib/consent";
import { requestContext } from "../app/server/context";
import { logger, redactUrl } from "../app/server/logger.server";
import { startMailWorker, type MailWorker } from "../app/server/mail/mail.server";
import { socialFormActionOrigins } from "../app/server/auth/auth.server";
import { getConfig } from "../app/server/config.server";
import { checkoutFormActionOrigins } from "../app/server/orders/payments.server";
import { closeRuntime, getRuntime } from "../app/server/runtime.server";
import {
  cookiesAllowCache,
  itemIdOfPath,
  itemPageCache,
  itemPageVersion,
  ItemPageCache,
  type CachedPage,
  type ItemPageVersion,
  toStorablePage,
  VERSION_CHECK_MS,
} from "../app/server/items/item-page-cache.server";
import type { IncomingMessage, ServerResponse } from "node:http";

export { logger };

let mailWorker: MailWorker | undefined;

/** Run migrations and build the runtime before the first request is accepted. */
export async function start() {
  const rt = await getRuntime();
  mailWorker = startMailWorker(rt.database.db, rt.config);
  if (!rt.config.smtpUrl) {
    logger.warn({ dir: rt.config.mailOutboxDir }, "SMTP_URL is not set: mail is written to the outbox folder");
  }
  if (rt.config.authSecretGenerated) {
    logger.warn(
      "AUTH_SECRET is not set: using a generated secret kept in the data folder (fine for one SQLite server)",
    );
  }
  if (rt.config.payments === "test") {
    logger.warn("PAYMENTS=test: the test checkout is active, no real payments are taken");
  }
  return rt;
}

export async function shutdown() {
  await mailWorker?.stop();
  await closeRuntime();
}

export const app = express.Router();

/** Set on a finder-page request whose rendered page may be stored. */
interface CacheCandidate {
  itemId: string;
  key: string;
  version: ItemPageVersion;
}
const candidates = new WeakMap<IncomingMessage, CacheCandidate>();

/**
 * The anonymous finder page from the cache (app/server/items/item-page-cache.server.ts).
 * server.js calls this before Express: a hit is answered here with stored, compressed
 * bytes (true); anything else returns false and goes through the whole app, where a
 * cacheable miss is stored by `storeItemPage` below.
 */
export function serveCachedItemPage(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> {
  const url = req.url ?? "/";
  if ((req.method !== "GET" && req.method !== "HEAD") || url.includes("?")) return false;
  const itemId = itemIdOfPath(url);
  if (!itemId || !cookiesAllowCache(req.headers.cookie)) return false;
  const started = performance.now();
  const cookies = req.headers.cookie ? cookie.parse(req.headers.cookie) : {};
  const lang = languageOf(cookies[LANG_COOKIE], req.headers["accept-language"]);
  const key = itemPageCache.key(url, lang, cookies[CONSENT_COOKIE] !== undefined);
  const now = Date.now();
  const page = itemPageCache.get(key, now);
  // The common case answers synchronously: no promise, no database.
  if (page && now - page.checkedAt <= VERSION_CHECK_MS) return sendCachedPage(req, res, page, url, started);
  return (async () => {
    let version: ItemPageVersion | null;
    try {
      const { database } = await getRuntime();
      version = await itemPageVersion(database.db, itemId, now);
    } catch {
      return false; // database trouble: the app answers (503 page)
    }
    if (version === null) return false; // the 404 page
    if (!page || page.version !== version.version) {
      if (page) itemPageCache.delete(key);
      candidates.set(req, { itemId, key, version });
      return false;
    }
    page.checkedAt = now;
    return sendCachedPage(req, res, page, url, started);
  })();
}

function sendCachedPage(req: IncomingMessage, res: ServerResponse, page: CachedPage, url: string, started: number) {
  const requestId = requestIdOf(req, res);
  const { body, encoding } = ItemPageCache.body(page, req.headers["accept-encoding"]);
  const headers = [...page.headers, "Vary", "Accept-Encoding", "Content-Length", String(body.length)];
  if (encoding) headers.push("Content-Encoding", encoding);
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
  // The same line pino-http writes for rendered pages.
  logger.info(
    {
      req: { id: requestId, method: req.method, url: redactUrl(url) },
      res: { statusCode: 200 },
      responseTime: Math.round(performance.now() - started),
      cache: "hit",
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

function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", id);
  return id;
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

/** Keeps the rendered finder page of a cache candidate (see cachedItemPages). */
function storeItemPage(req: express.Request, res: express.Response, next: express.NextFunction) {
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
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as typeof res.end;
  res.on("finish", () => {
    const type = String(res.getHeader("content-type") ?? "");
    const csp = res.getHeader("content-security-policy");
    if (res.statusCode !== 200 || !type.startsWith("text/html") || res.getHeader("set-cookie") || !csp) return;
    const stored = toStorablePage(Buffer.concat(chunks).toString("utf8"), String(csp), res.locals.nonce as string);
    const headers = ["Content-Security-Policy", stored.csp];
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (value === undefined || PER_RESPONSE_HEADERS.has(name)) continue;
      headers.push(name, Array.isArray(value) ? value.join(", ") : String(value));
    }
    itemPageCache.set(candidate.key, candidate.itemId, candidate.version, headers, stored.html);
  });
  next();
}

app.use(
  pinoHttp({
    logger,
    genReqId: requestIdOf,
    autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" },
    // One line per request with what an operator needs, and nothing personal: no
    // headers (cookies, user agents), no secrets from URLs (reset tokens, OAuth codes).
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : "info"),
  }),
);

// A request body that the route never read (a POST answered with a redirect or a 4xx
// before its form was parsed) must still be pulled off the wire. React Router's adapter
// attaches a 'data' listener at once and pauses the stream when its buffer fills, so Node
// does not drain it by itself, and the next request on that keep-alive connection hung
// forever (found by tests/integration/bad-input.test.ts). This is what Node's own
// IncomingMessage._dump() does for bodies nobody listened to.
app.use((req, res, next) => {
  res.on("finish", () => {
    if (!req.complete) {
      req.removeAllListeners("data");
      req.resume();
    }
  });
  next();
});

// A NUL character in the path or query is never meaningful here, and PostgreSQL refuses
// it in text parameters (SQLite does not), so such a URL failed with a 500 on one database
// only (e.g. /admin/messages/x%00y): refused up front for every route alike.
app.use((req, res, next) => {
  if (/%00/.test(req.url)) {
    res.status(400).type("text/plain").send("Bad request");
    return;
  }
  next();
});

app.get("/healthz", (_req, res) => {
  res.type("text/plain").send("ok");
});

app.get("/readyz", async (_req, res) => {
  try {
    const rt = await getRuntime();
    await rt.database.ping();
    res.type("text/plain").send("ready");
  } catch (err) {
    logger.warn({ err }, "readiness check failed");
    res.status(503).type("text/plain").send("database unavailable");
  }
});

app.use((_req, res, next) => {
  res.locals.nonce = randomBytes(16).toString("base64");
  next();
});

app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.nonce}'`, "'strict-dynamic'"],
        styleSrc: ["'self'"],
        styleSrcAttr: ["'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "https:"],
        fontSrc: ["'self'"],
        // Dev only (`npm run dev`): Vite's hot-reload websocket. Production builds drop it.
        connectSrc: import.meta.env.DEV ? ["'self'", "ws://localhost:*"] : ["'self'"],
        // The ALTCHA widget solves in a Web Worker from /assets ('strict-dynamic' would
        // otherwise leave workers without an allowed source).
        workerSrc: ["'self'"],
        // reCAPTCHA (CAPTCHA=recaptcha) renders its checkbox in Google's frame.
        frameSrc: [
          () =>
            getConfig().captcha === "recaptcha"
              ? "https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/"
              : "'self'",
        ],
        // Social sign-in forms POST to us and are redirected to the provider; so is the
        // order form to Stripe's hosted checkout (PAYMENTS=stripe).
        formAction: [
          "'self'",
          () =>
            [...socialFormActionOrigins(getConfig()), ...checkoutFormActionOrigins(getConfig())].join(" ") || "'self'",
        ],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: false,
  }),
);

app.use(storeItemPage);

// CSRF: refuse state-changing requests that a browser says come from another site.
app.use(async (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  if (req.path === "/api/stripe/webhook") return next(); // signed by Stripe, not a browser
  const { config } = await getRuntime();
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  const foreignOrigin = origin !== undefined && origin !== config.baseUrl.origin;
  const foreignSite = origin === undefined && site === "cross-site";
  if (foreignOrigin || foreignSite) {
    res.status(403).type("text/plain").send("Cross-origin request refused");
    return;
  }
  next();
});

/**
 * Only the OAuth redirect endpoints of better-auth are public. Sign-in, sign-up, reset
 * and sign-out go through our form actions (app/routes), which apply the rate limits
 * and password rules, so no second, unguarded way in exists.
 */
const PUBLIC_AUTH_PATHS = [/^\/api\/auth\/callback\/[\w-]+$/, /^\/api\/auth\/error$/];

app.all("/api/auth/*splat", async (req, res) => {
  if (!PUBLIC_AUTH_PATHS.some((re) => re.test(req.path))) {
    res.status(404).type("text/plain").send("Not found");
    return;
  }
  const { auth } = await getRuntime();
  return toNodeHandler(auth)(req, res);
});

const handler = createRequestHandler({
  // eslint-disable-next-line @typescript-eslint/ban-ts-comment
  // @ts-ignore the virtual module exists only inside the Vite build
  build: () => import("virtual:react-router/server-build"),
  getLoadContext(req, res) {
    const cookies = cookie.parse(req.headers.cookie ?? "");
    const context = new RouterContextProvider();
    context.set(requestContext, {
      requestId: String(req.id),
      nonce: res.locals.nonce as string,
      lang: pickLanguage(cookies[LANG_COOKIE], req.headers["accept-language"]),
      consent: cookies[CONSENT_COOKIE] !== undefined,
      ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
    });
    return context;
  },
});

app.use(async (req, res, next) => {
  try {
    await getRuntime();
  } catch (err) {
    // Database unreachable at start or later: a clear 503 instead of a crash.
    logger.error({ err }, "runtime unavailable");
    res.status(503).type("text/plain").send("Hittad is temporarily unavailable. Please try again in a minute.");
    return;
  }
  return handler(req, res, next);
});
