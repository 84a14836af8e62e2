/**
 * Periodic jobs in the server process: started by start() and stopped by shutdown()
 * (server/app.ts). Every instance schedules them; the lock in runHousekeeping lets one
 * run at a time, and the deletes are idempotent anyway. The billing jobs (decision 016:
 * lapses, renewal reminders, abandoned checkouts) run in the same beat under their own
 * lock, and claim each order with a conditional update. The relay's digest mails
 * (decision 029) have a beat of their own, every minute; each digest is claimed with a conditional
 * update, so several instances send it once.
 */
import type { DatabaseHandle } from "../db/db.server";
import { runBillingJobs } from "../orders/billing.service.server";
import { sweepOrphanPhotos } from "../photos/photos.service.server";
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { measureJob } from "../metrics/metrics.server";
import { sendDueDigests } from "../relay/digest.service.server";
import { runHousekeeping } from "./jobs.service.server";

/** First run shortly after start (not during it: JOBS_FIRST_RUN_MS, a minute), then hourly. */
export const INTERVAL_MS = 60 * 60_000;
/** The relay digests that came due: a quarter hour after a burst's last digest, within a minute. */
export const DIGEST_JOB_MS = 60_000;

export interface Jobs {
  stop(): Promise<void>;
}

/** `deps` are the runtime's (runtime.server.ts' depsOfRuntime) on the system clock. */
export function startJobs(database: DatabaseHandle, deps: Deps): Jobs {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const failed = (job: string) => (err: unknown) => {
    // Database trouble: try again next hour.
    logger.warn({ job, err: err instanceof Error ? err.message : String(err) }, `${job} failed`);
  };
  const run = () => {
    running = measureJob("housekeeping", () => runHousekeeping(deps, database.dialect))
      .then((deleted) => {
        if (deleted) logger.info({ job: "housekeeping", deleted }, "housekeeping done");
      })
      .catch(failed("housekeeping"))
      // Photo bytes no photo uses (an upload cut short, decision 035).
      .then(() => sweepOrphanPhotos(deps))
      .then((swept) => {
        if (swept) logger.info({ job: "photos", swept }, "unused photo bytes deleted");
      })
      .catch(failed("photo sweep"))
      .then(() => measureJob("billing", () => runBillingJobs(deps, database.dialect)))
      .then((done) => {
        if (done && done.lapsed + done.reminders + done.abandoned > 0)
          logger.info({ job: "billing", ...done }, "billing jobs done");
      })
      .catch(failed("billing jobs"))
      .finally(() => {
        running = undefined;
        if (!stopped) schedule(INTERVAL_MS);
      });
  };
  const schedule = (ms: number) => {
    timer = setTimeout(run, ms);
    timer.unref();
  };
  schedule(deps.config.jobsFirstRunMs);

  let digests: Promise<void> | undefined;
  const digestTimer = setInterval(() => {
    if (digests) return; // a slow database: skip a beat
    digests = measureJob("relay-digests", () => sendDueDigests(deps))
      .then((sent) => {
        if (sent > 0) logger.info({ job: "relay-digests", sent }, "relay digests sent");
      })
      .catch(failed("relay digests"))
      .finally(() => {
        digests = undefined;
      });
  }, DIGEST_JOB_MS);
  digestTimer.unref();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      clearInterval(digestTimer);
      await running;
      await digests;
    },
  };
}
