/**
 * Start-up and shutdown of the server's background work (workers, jobs, the scan log,
 * metrics, the finder-page refresh) and its start-up warnings. server.js calls them
 * through server/app.ts.
 */
import { lastBackupWith } from "../app/server/backup/backups.repository.server";
import { startScheduledBackups, type ScheduledBackups } from "../app/server/backup/schedule.server";
import { startJobs, type Jobs } from "../app/server/jobs/jobs.server";
import { logger } from "../app/server/logger.server";
import { startMailWorker, type MailWorker } from "../app/server/mail/mail.server";
import { outboxQueueStats } from "../app/server/outbox/outbox-worker.server";
import { enableMetrics, scanLogFlushDuration } from "../app/server/metrics/metrics.server";
import { closeRuntime, depsOfRuntime, getRuntime } from "../app/server/runtime.server";
import { startItemPageRefresh } from "../app/server/items/item-page-cache.server";
import { scanLog } from "../app/server/scans/scan-log.server";
import { writeScanEvents } from "../app/server/scans/scans.service.server";
import { systemClock } from "../app/server/service-deps.server";
import { routeTree } from "../app/server/http/metrics.http.server";
import { smsBudgetToday } from "../app/server/sms/sms-guard.server";

let mailWorker: MailWorker | undefined;
let jobs: Jobs | undefined;
let backups: ScheduledBackups | undefined;
let stopItemPageRefresh: (() => void) | undefined;
let routes: ReturnType<typeof routeTree> | undefined;
/** The route tree the request metrics label answers with (set only with METRICS_TOKEN). */
export const metricsRoutes = () => routes;
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore the virtual module exists only inside the Vite build
export const serverBuild = () => import("virtual:react-router/server-build");

/** Run migrations and build the runtime before the first request is accepted. */
export async function start() {
  const rt = await getRuntime();
  const deps = depsOfRuntime(rt);
  // Mail, SMS, push notices and webhooks: one outbox, one worker, a lane per channel (decisions 033, 040, 049).
  // Their senders were made from the configuration at start-up (runtime.server.ts, decision 039).
  mailWorker = startMailWorker(deps);
  jobs = startJobs(rt.database, { ...deps, clock: systemClock });
  // BACKUP_EVERY: the instance holding the backup lock makes them (decision 048).
  backups = startScheduledBackups({ ...deps, clock: systemClock }, rt.database.dialect);
  // The scan log's buffer is written at least every second (decision 014).
  scanLog.start(async (events) => {
    const end = scanLogFlushDuration.startTimer();
    await writeScanEvents({ ...deps, clock: systemClock }, events).then(
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
      queues: () => outboxQueueStats(rt.database.db, Date.now()),
      pool: rt.database.poolStats,
      scanLogPending: () => scanLog.size,
      pageCacheEntries: () => rt.pageCache.size,
      pageCacheBytes: () => rt.pageCache.storedBytes(),
      lastGoodBackup: () => lastBackupWith(rt.database.db, "ok"),
      smsBudget: () => smsBudgetToday(rt.database.db, rt.config, Date.now()),
    });
  }
  // The cached finder pages in demand are checked against the database in the background.
  stopItemPageRefresh = startItemPageRefresh(rt.database.db, rt.pageCache);
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
  stopItemPageRefresh?.();
  stopItemPageRefresh = undefined;
  backups?.stop();
  await jobs?.stop();
  await mailWorker?.stop();
  await closeRuntime();
}
