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
import { RouterContextProvider } from "react-router";
import { LANG_COOKIE, pickLanguage } from "../app/i18n/config";
import { CONSENT_COOKIE } from "../app/lib/consent";
import { requestContext } from "../app/server/context";
import { bodyLimit, wasBodyTooLarge } from "../app/server/http/body-limit.server";
import { serveCachedItemPage, storeItemPage } from "../app/server/http/item-page-cache.http.server";
import { metricsEndpoint, requestMetrics, routeTree } from "../app/server/http/metrics.http.server";
import { requestIdOf } from "../app/server/http/request-id.server";
import { isCrossSiteWrite } from "../app/server/http/same-origin.server";
import {
  cspNonce,
  noStoreWhenSignedIn,
  securityHeaders,
  strictTransportSecurity,
} from "../app/server/http/security-headers.server";
import { startJobs, type Jobs } from "../app/server/jobs/jobs.server";
import { logger, redactUrl } from "../app/server/logger.server";
import { mailQueueStats, startMailWorker, type MailWorker } from "../app/server/mail/mail.server";
import { createPushSender } from "../app/server/push/push-channel.server";
import { enableMetrics, scanLogFlushDuration } from "../app/server/metrics/metrics.server";
import { closeRuntime, getRuntime } from "../app/server/runtime.server";
import { startItemPageRefresh, stopItemPageRefresh } from "../app/server/items/item-page-cache.server";
import { scanLog } from "../app/server/scans/scan-log.server";
import { writeScanEvents } from "../app/server/scans/scans.service.server";
import { systemClock } from "../app/server/service-deps.server";

export { logger, serveCachedItemPage };

let mailWorker: MailWorker | undefined;
let jobs: Jobs | undefined;
let routes: ReturnType<typeof routeTree> | undefined;
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore the virtual module exists only inside the Vite build
const serverBuild = () => import("virtual:react-router/server-build");

/** Run migrations and build the runtime before the first request is accepted. */
export async function start() {
  const rt = await getRuntime();
  // Mail, SMS and push notices: one outbox, one worker (decisions 033 and 040).
  mailWorker = startMailWorker(rt.database.db, rt.config, {
    push: createPushSender({ db: rt.database.db, config: rt.config, clock: rt.clock }),
  });
  jobs = startJobs(rt.database, rt.config);
  // The scan log's buffer is written at least every second (issue #14, decision 014).
  scanLog.start(async (events) => {
    const end = scanLogFlushDuration.startTimer();
    await writeScanEvents(
      { db: rt.database.db, config: rt.config, clock: systemClock, writer: rt.database.writer },
      events,
    ).then(
      () => end({ result: "ok" }),
      (err: unknown) => {
        end({ result: "failed" });
        throw err;
      },
    );
  });
  if (rt.config.metrics.token) {
    routes = routeTree((await serverBuild()).routes);
    enableMetrics({
      queues: async () => [await mailQueueStats(rt.database.db, Date.now())],
      pool: rt.database.poolStats,
      scanLogPending: () => scanLog.size,
    });
  }
  // The cached finder pages in demand are checked against the database in the background.
  startItemPageRefresh(rt.database.db);
  if (!rt.config.smtpUrl) {
    logger.warn({ dir: rt.config.mailOutboxDir }, "SMTP_URL is not set: mail is written to the outbox folder");
  }
  if (rt.config.authSecretGenerated) {
    logger.warn(
      "AUTH_SECRET is not set: using a generated secret kept in the data folder (fine for one SQLite server)",
    );
  }
  if (rt.config.company.example) {
    logger.warn(
      "COMPANY_NAME, COMPANY_ORG_NR, COMPANY_ADDRESS or COMPANY_EMAIL is not set: pages show example seller details",
    );
  }
  if (rt.config.payments === "test") {
    logger.warn("PAYMENTS=test: the test checkout is active, no real payments are taken");
  }
  return rt;
}

export async function shutdown() {
  // First, while the database is still open: the scans of the last second are written.
  await scanLog.stop();
  stopItemPageRefresh();
  await jobs?.stop();
  await mailWorker?.stop();
  await closeRuntime();
}

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

// Counts and times every answer below (only with METRICS_TOKEN; decision 037).
app.use(requestMetrics(() => routes));

const metricsToken = async () => (await getRuntime()).config.metrics.token;
app.get("/metrics", metricsEndpoint(metricsToken));
/** The metrics alone, for the optional METRICS_PORT listener (server.js). */
export const metricsApp = express.Router().get("/metrics", metricsEndpoint(metricsToken));

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

app.use(cspNonce);
app.use(securityHeaders);
app.use(noStoreWhenSignedIn);

// Before anything reads a body: over the limit is a 413, never memory (body-limit.server.ts).
app.use(bodyLimit);

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
  build: serverBuild,
  getLoadContext(req, res) {
    const cookies = cookie.parse(req.headers.cookie ?? "");
    const context = new RouterContextProvider();
    context.set(requestContext, {
      requestId: String(req.id),
      nonce: res.locals.nonce as string,
      lang: pickLanguage(cookies[LANG_COOKIE], req.headers["accept-language"]),
      consent: cookies[CONSENT_COOKIE] !== undefined,
      ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
      bodyTooLarge: wasBodyTooLarge(req),
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
