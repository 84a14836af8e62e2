/**
 * The HTTP application: everything between the socket (server.js) and React Router, in
 * the order a request meets it. Built by Vite as the SSR bundle's entry so it can import
 * the app's TypeScript modules. The pieces live in app/server/http/.
 */
import { createRequestHandler } from "@react-router/express";
import { toNodeHandler } from "better-auth/node";
import * as cookie from "cookie";
import express from "express";
import { pinoHttp } from "pino-http";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { LANG_COOKIE, pickLanguage } from "../app/i18n/config";
import { CONSENT_COOKIE } from "../app/lib/domain/consent";
import { requestContext } from "../app/server/context";
import { bodyLimit, wasBodyTooLarge } from "../app/server/http/body-limit.server";
import { isDraining } from "../app/server/http/draining.server";
import { photoUploadIntake, photoUploadOf } from "../app/server/photos/photo-upload.server";
import { serveCachedItemPage, storeItemPage } from "../app/server/item-page-cache.http.server";
import { metricsEndpoint, requestMetrics } from "../app/server/http/metrics.http.server";
import { requestIdOf } from "../app/server/http/request-id.server";
import { isCrossSiteWrite } from "../app/server/http/same-origin.server";
import {
  cspNonce,
  noStoreWhenSignedIn,
  securityHeaders,
  strictTransportSecurity,
} from "../app/server/security-headers.server";
import { logger, redactUrl } from "../app/server/logger.server";
import { getRuntime } from "../app/server/runtime.server";
import { drainUnreadBody, refuseNulInUrl } from "../app/server/http/request-hygiene.server";
import { registerFinderPageRenderer } from "./finder-page-renderer";
import { metricsRoutes, serverBuild } from "./lifecycle";

export { logger, serveCachedItemPage };
export { startDraining } from "../app/server/http/draining.server";
export { shutdown, start } from "./lifecycle";

export const app = express.Router();

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

// HSTS on every answer of an https deployment, probes and refusals included.
app.use(strictTransportSecurity);

app.use(refuseNulInUrl);

// Counts and times every answer below (only with METRICS_TOKEN; decision 037).
app.use(requestMetrics(metricsRoutes));

const metricsToken = async () => (await getRuntime()).config.metrics.token;
app.get("/metrics", metricsEndpoint(metricsToken));
/** The metrics alone, for the optional METRICS_PORT listener (server.js). */
export const metricsApp = express.Router().get("/metrics", metricsEndpoint(metricsToken));

app.get("/healthz", (_req, res) => {
  res.type("text/plain").send("ok");
});

app.get("/readyz", async (_req, res) => {
  if (isDraining()) {
    res.status(503).type("text/plain").send("draining");
    return;
  }
  try {
    const rt = await getRuntime();
    await rt.database.ping();
    res.type("text/plain").send("ready");
  } catch (err) {
    logger.warn({ err }, "readiness check failed");
    res.status(503).type("text/plain").send("database unavailable");
  }
});

app.use(cspNonce);
app.use(securityHeaders);
app.use(noStoreWhenSignedIn);

// Before anything reads a body: over the limit is a 413, never memory (body-limit.server.ts).
app.use(bodyLimit);

app.use(drainUnreadBody);

app.use(storeItemPage);

// CSRF: refuse state-changing requests that a browser says come from another site.
app.use(async (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD") return next();
  const { config } = await getRuntime();
  const facts = {
    method: req.method,
    path: req.path,
    origin: req.headers.origin,
    fetchSite: req.get("sec-fetch-site"),
  };
  if (isCrossSiteWrite(facts, config.baseUrl.origin)) {
    res.status(403).type("text/plain").send("Cross-origin request refused");
    return;
  }
  next();
});

// The photo forms' bodies: admitted, counted and streamed to disk, never into memory.
app.use(photoUploadIntake);

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

/**
 * React Router's handler. Given a function, React Router imports the build and derives
 * its route tables (createStaticHandler over every route) on every request: about 4 ms of
 * CPU per rendered page on this machine (decision 045, the finder page's misses). In
 * production the build is the one it started with, so it is handed over once; `npm run
 * dev` keeps the function, which picks up edited routes.
 */
const createHandler = (build: Parameters<typeof createRequestHandler>[0]["build"]) =>
  createRequestHandler({
    build,
    getLoadContext,
  });
let resolvedHandler: Promise<ReturnType<typeof createHandler>> | undefined;
// Finder pages that miss the cache, from templates React Router renders (decision 045).
if (!import.meta.env.DEV) registerFinderPageRenderer(serverBuild);
const handlerOf = () =>
  import.meta.env.DEV
    ? Promise.resolve(createHandler(serverBuild))
    : (resolvedHandler ??= serverBuild().then(
        (build: ServerBuild) => createHandler(build),
        (err: unknown) => {
          // A failed import is not kept: the next request tries again.
          resolvedHandler = undefined;
          throw err;
        },
      ));

function getLoadContext(req: express.Request, res: express.Response) {
  const cookies = cookie.parse(req.headers.cookie ?? "");
  const context = new RouterContextProvider();
  context.set(requestContext, {
    requestId: String(req.id),
    nonce: res.locals.nonce as string,
    lang: pickLanguage(cookies[LANG_COOKIE], req.headers["accept-language"]),
    consent: cookies[CONSENT_COOKIE] !== undefined,
    ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
    bodyTooLarge: wasBodyTooLarge(req),
    photoUpload: photoUploadOf(req),
  });
  return context;
}

app.use(async (req, res, next) => {
  try {
    await getRuntime();
  } catch (err) {
    // Database unreachable at start or later: a clear 503 instead of a crash.
    logger.error({ err }, "runtime unavailable");
    res.status(503).type("text/plain").send("Hittad is temporarily unavailable. Please try again in a minute.");
    return;
  }
  return (await handlerOf())(req, res, next);
});
