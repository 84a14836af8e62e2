/**
 * What an operator watches (decision 037): Prometheus metrics in one
 * registry of this process. Nothing is measured until `enableMetrics()` runs (start-up,
 * only with METRICS_TOKEN set), so a server without metrics pays one boolean check per
 * request. This module imports no feature: what it reads from the database (queue
 * depths, pool use) is handed to it as sources by the start-up code.
 */
import client from "prom-client";
import { systemClock } from "../clock.server";

export const registry = new client.Registry();

let enabled = false;

export function metricsEnabled(): boolean {
  return enabled;
}

/** A durable queue's state at scrape time: one per lane of the outbox (mail, sms, push; decision 049). */
export interface QueueStats {
  queue: string;
  /** Waiting or being sent. */
  depth: number;
  /** Given up after the last attempt. */
  failed: number;
  /** Age of the oldest waiting entry in seconds (0 when empty). */
  oldestAgeSeconds: number;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface MetricSources {
  queues(): Promise<QueueStats[]>;
  /** PostgreSQL's connection pool; undefined on SQLite (one connection, no pool). */
  pool?(): PoolStats;
  scanLogPending(): number;
  /** The finder-page cache: pages stored, and their bytes (bounded by entries, not bytes). */
  pageCacheEntries?(): number;
  pageCacheBytes?(): number;
  /** The newest good backup (decision 048): when its snapshot was taken, and its size. */
  lastGoodBackup?(): Promise<{ startedAt: number; sizeBytes: number | null } | null>;
  /** SMS counted today against SMS_DAILY_BUDGET, and the budget (decision 046). */
  smsBudget?(): Promise<{ used: number; limit: number }>;
}

let sources: MetricSources | undefined;

/** Turns measuring on and names where the scrape-time gauges read from. */
export function enableMetrics(from: MetricSources): void {
  sources = from;
  if (enabled) return;
  enabled = true;
  client.collectDefaultMetrics({ register: registry, prefix: "hittad_" });
}

/** For tests: back to the state of a fresh process. */
export function resetMetrics(): void {
  registry.resetMetrics();
}

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new client.Counter({
  name: "hittad_http_requests_total",
  help: "HTTP requests answered, by React Router route id, method and status.",
  labelNames: ["route", "method", "status"] as const,
  registers: [registry],
});

export const httpRequestDuration = new client.Histogram({
  name: "hittad_http_request_duration_seconds",
  help: "Time from request to the last byte of the answer, by route id, method and status.",
  labelNames: ["route", "method", "status"] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const finderPageCache = new client.Counter({
  name: "hittad_finder_page_cache_total",
  help: "Anonymous finder pages answered from the page cache (hit), made from their template and stored (template), or rendered and stored (miss).",
  labelNames: ["result"] as const,
  registers: [registry],
});

export const scanLogFlushDuration = new client.Histogram({
  name: "hittad_scan_log_flush_duration_seconds",
  help: "Time to write one batch of the scan log to the database.",
  labelNames: ["result"] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

new client.Gauge({
  name: "hittad_finder_page_cache_entries",
  help: "Finder pages held in this instance's page cache.",
  registers: [registry],
  collect() {
    this.set(sources?.pageCacheEntries?.() ?? 0);
  },
});

new client.Gauge({
  name: "hittad_finder_page_cache_bytes",
  help: "Compressed bytes of the finder pages held in this instance's page cache.",
  registers: [registry],
  collect() {
    this.set(sources?.pageCacheBytes?.() ?? 0);
  },
});

new client.Gauge({
  name: "hittad_scan_log_pending",
  help: "Scans in memory waiting for the next flush.",
  registers: [registry],
  collect() {
    this.set(sources?.scanLogPending() ?? 0);
  },
});

/**
 * Node's ArrayBuffers (every Buffer among them: the page cache's compressed pages), which
 * prom-client's defaults leave inside hittad_nodejs_external_memory_bytes (decision 048).
 */
new client.Gauge({
  name: "hittad_nodejs_array_buffers_bytes",
  help: "Memory of Node.js ArrayBuffers and Buffers in bytes (part of the external memory).",
  registers: [registry],
  collect() {
    if (enabled) this.set(process.memoryUsage().arrayBuffers);
  },
});

/**
 * The queues as read for this scrape: prom-client collects the gauges concurrently, so the
 * three queue gauges share one database read, made afresh by each scrape (metricsText).
 */
let queueRead: Promise<QueueStats[] | undefined> | undefined;
function readQueues(): Promise<QueueStats[] | undefined> {
  // Database trouble: the gauges keep their last values and the scrape still answers.
  queueRead ??= sources ? sources.queues().catch(() => undefined) : Promise.resolve(undefined);
  return queueRead;
}

function queueGauge(name: string, help: string, value: (s: QueueStats) => number) {
  return new client.Gauge({
    name,
    help,
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      for (const s of (await readQueues()) ?? []) this.set({ queue: s.queue }, value(s));
    },
  });
}
queueGauge("hittad_queue_depth", "Entries of a durable queue waiting or being sent.", (s) => s.depth);
queueGauge("hittad_queue_failed", "Entries of a durable queue given up after their last attempt.", (s) => s.failed);
queueGauge(
  "hittad_queue_oldest_age_seconds",
  "Age of the oldest entry still waiting in a durable queue.",
  (s) => s.oldestAgeSeconds,
);

/** The day's SMS budget as read for this scrape: the two gauges share one database read. */
let budgetRead: Promise<{ used: number; limit: number } | undefined> | undefined;
function readBudget() {
  budgetRead ??= sources?.smsBudget ? sources.smsBudget().catch(() => undefined) : Promise.resolve(undefined);
  return budgetRead;
}
function budgetGauge(name: string, help: string, value: (b: { used: number; limit: number }) => number) {
  return new client.Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const budget = await readBudget();
      if (budget) this.set(value(budget));
    },
  });
}
budgetGauge(
  "hittad_sms_budget_used",
  "SMS counted today (UTC) against SMS_DAILY_BUDGET, all accounts together.",
  (b) => b.used,
);
budgetGauge(
  "hittad_sms_budget_limit",
  "SMS_DAILY_BUDGET: SMS all accounts together may send in a UTC day.",
  (b) => b.limit,
);

new client.Gauge({
  name: "hittad_db_pool_connections",
  help: "PostgreSQL pool connections by state (total, idle, waiting requests).",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const pool = sources?.pool?.();
    if (!pool) return;
    this.set({ state: "total" }, pool.total);
    this.set({ state: "idle" }, pool.idle);
    this.set({ state: "waiting" }, pool.waiting);
  },
});

/** The last good backup as read for this scrape (one read shared by its two gauges). */
let backupRead: Promise<{ startedAt: number; sizeBytes: number | null } | null | undefined> | undefined;
function readLastBackup() {
  backupRead ??= sources?.lastGoodBackup ? sources.lastGoodBackup().catch(() => undefined) : Promise.resolve(undefined);
  return backupRead;
}

new client.Gauge({
  name: "hittad_backup_last_good_age_seconds",
  help: "Age of the newest good backup's snapshot; +Inf when there is none.",
  registers: [registry],
  async collect() {
    const b = await readLastBackup();
    if (b !== undefined) this.set(b ? Math.max(0, (systemClock() - b.startedAt) / 1000) : Infinity);
  },
});

new client.Gauge({
  name: "hittad_backup_last_good_size_bytes",
  help: "Size on disk of the newest good backup; 0 when there is none.",
  registers: [registry],
  async collect() {
    const b = await readLastBackup();
    if (b !== undefined) this.set(b?.sizeBytes ?? 0);
  },
});

export const jobRuns = new client.Counter({
  name: "hittad_job_runs_total",
  help: "Periodic job runs by job and result (ok, failed).",
  labelNames: ["job", "result"] as const,
  registers: [registry],
});

export const jobDuration = new client.Histogram({
  name: "hittad_job_duration_seconds",
  help: "Duration of periodic job runs.",
  labelNames: ["job"] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [registry],
});

/** Runs a periodic job and records its run and duration (when metrics are on). */
export async function measureJob<T>(job: string, run: () => Promise<T>): Promise<T> {
  if (!enabled) return run();
  const end = jobDuration.startTimer({ job });
  try {
    const result = await run();
    jobRuns.inc({ job, result: "ok" });
    return result;
  } catch (err) {
    jobRuns.inc({ job, result: "failed" });
    throw err;
  } finally {
    end();
  }
}

/** Records one answered request. */
export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  const labels = { route, method, status: String(status) };
  httpRequests.inc(labels);
  httpRequestDuration.observe(labels, seconds);
}

export function metricsText(): Promise<string> {
  queueRead = undefined;
  backupRead = undefined;
  budgetRead = undefined;
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
