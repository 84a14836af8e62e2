// Node entry: sockets, static files, compression and graceful shutdown. Everything
// else lives in server/app.ts (built by Vite). `--dev` serves through Vite instead.
import compression from "compression";
import express from "express";
import fs from "node:fs";
import http from "node:http";
import process from "node:process";

const DEV = process.argv.includes("--dev");
// `npm run dev` runs Node with --conditions=development so that Node-loaded packages
// (@react-router/express) and Vite's SSR modules share one copy of react-router;
// with two copies its RouterContextProvider instanceof check fails on every request.
if (DEV) process.env.NODE_ENV ??= "development";
// `npm start` (scripts/start.mjs) loads ./.env itself; tests run server.js without it.
if (DEV && fs.existsSync(".env")) process.loadEnvFile(".env");

const web = express();
web.disable("x-powered-by");

let appModule;
if (DEV) {
  web.use(compression());
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  web.use(viteDevServer.middlewares);
  appModule = await viteDevServer.ssrLoadModule("./server/app.ts");
  web.use((req, res, next) =>
    viteDevServer
      .ssrLoadModule("./server/app.ts")
      .then((m) => m.app(req, res, next))
      .catch(next),
  );
} else {
  appModule = await import("./build/server/index.js");
  web.use(compression());
  web.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
  // Only the files the build has (favicon, robots.txt…): no disk lookup for every page.
  const publicFiles = new Set(listFiles("build/client").filter((f) => !f.startsWith("/assets/")));
  const publicStatic = express.static("build/client", { maxAge: "1h", index: false, setHeaders: installableHeaders });
  web.use((req, res, next) => (publicFiles.has(req.path) ? publicStatic(req, res, next) : next()));
  web.use(appModule.app);
}

/**
 * The service worker and the manifest (issue #33, decision 034): the worker may control the
 * whole site and is checked for a new version on every visit; the manifest's type is
 * explicit (older mime tables lack .webmanifest).
 */
function installableHeaders(res, file) {
  if (file.endsWith("/sw.js")) {
    res.setHeader("Content-Type", "text/javascript; charset=utf-8");
    res.setHeader("Service-Worker-Allowed", "/");
    res.setHeader("Cache-Control", "no-cache");
  } else if (file.endsWith(".webmanifest")) {
    res.setHeader("Content-Type", "application/manifest+json; charset=utf-8");
  }
}

function listFiles(dir, prefix = "") {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(`${dir}/${e.name}`, `${prefix}/${e.name}`) : [`${prefix}/${e.name}`]));
}

let config;
try {
  ({ config } = await appModule.start());
} catch (err) {
  appModule.logger.fatal({ err: String(err?.message ?? err) }, "start-up failed");
  console.error(String(err?.message ?? err));
  process.exit(1);
}
// Every setting comes from app/server/config.server.ts (validated there), none from process.env here.
web.set("trust proxy", config.trustProxy ? 1 : false);

// Anonymous finder pages come from the app's cache, already compressed, before Express
// (docs/decisions/009-performance.md); everything else goes through Express.
const serveCached = DEV ? null : appModule.serveCachedItemPage;
const server = http.createServer((req, res) => {
  // Draining: every answer closes its connection, so a keep-alive client reconnects
  // through the load balancer to an instance that stays.
  if (stopping) res.setHeader("Connection", "close");
  const served = serveCached ? serveCached(req, res) : false;
  if (served === true) return;
  if (served === false) return web(req, res);
  served.then(
    (done) => done || web(req, res),
    () => web(req, res),
  );
});
server.listen(config.port, config.host, () => {
  appModule.logger.info({ port: server.address().port, host: config.host }, "Hittad is listening");
  // The log is JSON for machines; a newcomer's terminal ends with one line to click. Logs are
  // written in batches, so print it once they are out.
  appModule.logger.flush(() => console.log(`Hittad is running at ${config.baseUrl.origin}`));
});
server.keepAliveTimeout = 65_000;

// METRICS_PORT: /metrics alone on a port of its own (same bearer token), for a scraper on
// an internal network; the public port keeps answering /metrics too.
const metricsServer = !DEV && config.metrics.port ? http.createServer(express().use(appModule.metricsApp)) : undefined;
metricsServer?.listen(config.metrics.port, config.host);

let stopping = false;
/**
 * SIGTERM drains (decision 048): /readyz answers 503 at once and every answer closes its
 * connection; for SHUTDOWN_DELAY_MS requests are still served while the load balancer
 * takes this instance out; then the listener closes, in-flight requests finish, and the
 * background work stops (the last second's scans are written). 10 s after that it exits anyway.
 */
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  const delay = config.operations.shutdownDelayMs;
  appModule.logger.info({ signal, drainMs: delay }, "shutting down");
  appModule.startDraining();
  const force = setTimeout(() => process.exit(1), delay + 10_000);
  force.unref();
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  // Stop accepting, let in-flight requests finish, close idle keep-alive sockets.
  metricsServer?.close();
  server.close(async () => {
    await appModule.shutdown();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
