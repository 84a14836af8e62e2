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
import { LANG_COOKIE, pickLanguage } from "../app/i18n/config";
import { CONSENT_COOKIE } from "../app/lib/consent";
import { requestContext } from "../app/server/context";
import { logger, redactUrl } from "../app/server/logger.server";
import { startMailWorker, type MailWorker } from "../app/server/mail/mail.server";
import { socialFormActionOrigins } from "../app/server/auth/auth.server";
import { getConfig } from "../app/server/config.server";
import { checkoutFormActionOrigins } from "../app/server/orders/payments.server";
import { closeRuntime, getRuntime } from "../app/server/runtime.server";

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

app.use(
  pinoHttp({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers["x-request-id"];
      const id = typeof incoming === "string" && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
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
