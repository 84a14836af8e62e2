// What `npm run bench:soak` reads besides the answers (decision 048): each instance's RSS,
// the machine's CPU and load average, and the CPU of the soak's own processes (its
// instances and this process, which is both the load generator and the balancer), every
// few seconds; and the arithmetic of the report (percentiles, least-squares slopes).
import fs from "node:fs";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { cpuSecondsOf } from "./bench-kit";
import type { Instance } from "./fleet";

/** The machine's busy and total CPU ticks since boot (/proc/stat's first line). */
function machineTicks(): { busy: number; total: number } {
  const fields = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle, iowait
  return { busy: total - idle, total };
}
const ownCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** The machine's busy share over `ms` (0–1 of all its cores): the load before the soak starts. */
export async function machineBusy(ms: number): Promise<number> {
  const a = machineTicks();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineTicks();
  return (b.busy - a.busy) / Math.max(1, b.total - a.total);
}

export interface CpuPoint {
  at: number;
  /** Share of all the machine's cores busy since the last point (0–1), whoever used them. */
  machine: number;
  /** The 1-minute load average. */
  load1: number;
  /**
   * Cores the soak used since the last point: its instances, this process and the
   * PostgreSQL backends serving its database (the same server's other users not included).
   */
  soakCores: number;
  /** The same split by process: each instance by name, this process, PostgreSQL's backends. */
  byProcess: Record<string, number>;
}

/** The /metrics gauges the sampler reads per instance (prom-client's defaults, prefix hittad_). */
export const METRIC_NAMES = {
  heap: "hittad_nodejs_heap_size_used_bytes",
  /** V8's heap as committed (used or not): part of RSS that the used heap after GC is not. */
  heapTotal: "hittad_nodejs_heap_size_total_bytes",
  external: "hittad_nodejs_external_memory_bytes",
  arrayBuffers: "hittad_nodejs_array_buffers_bytes",
  /** The finder-page cache's compressed bytes (the app's own gauge). */
  pageCacheBytes: "hittad_finder_page_cache_bytes",
  lagP99: "hittad_nodejs_eventloop_lag_p99_seconds",
  lagMax: "hittad_nodejs_eventloop_lag_max_seconds",
} as const;
export type MetricName = keyof typeof METRIC_NAMES;

/** The sampled gauges of one /metrics text (unlabelled lines only), in MB or ms. */
export function parseMetrics(text: string): Partial<Record<MetricName, number>> {
  const out: Partial<Record<MetricName, number>> = {};
  for (const [key, name] of Object.entries(METRIC_NAMES) as Array<[MetricName, string]>) {
    const m = new RegExp(`^${name}\\s+([\\d.e+-]+)`, "m").exec(text);
    if (!m) continue;
    const v = Number(m[1]);
    out[key] = key.startsWith("lag") ? v * 1000 : v / 2 ** 20;
  }
  return out;
}

/**
 * Samples every `everyMs`: RSS per instance name, the machine's CPU and the soak's own,
 * each instance's /metrics gauges (METRIC_NAMES) and this process's own event-loop delay
 * (it is the balancer and the load generator: a stall here is a stall of every request).
 * `backends` answers the pids of the PostgreSQL backends of the soak's database (read
 * between samples; a backend first seen after the first sample counts from its start).
 */
export function startSampler(
  instances: () => Instance[],
  backends: () => Promise<number[]>,
  everyMs = 5000,
  metricsToken?: string,
) {
  const rss = new Map<string, Array<[number, number]>>();
  // Per gauge, per instance: [at, value]. V8's used heap, the memory outside it (Buffers,
  // zlib's and brotli's contexts) and the ArrayBuffers within that, in MB; the event
  // loop's delay in ms (p99 and max since the last scrape: prom-client resets its
  // histogram at each). The lowest memory reading of each minute is that minute's after-GC
  // figure, which RSS (pages kept once grown) is not.
  const gauges = new Map<MetricName, Map<string, Array<[number, number]>>>(
    (Object.keys(METRIC_NAMES) as MetricName[]).map((k) => [k, new Map()]),
  );
  const readMetrics = (i: Instance, at: number) =>
    void fetch(`${i.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
      .then((r) => (r.ok ? r.text() : ""))
      .then((text) => {
        for (const [key, v] of Object.entries(parseMetrics(text)) as Array<[MetricName, number]>) {
          const byName = gauges.get(key)!;
          if (!byName.has(i.name)) byName.set(i.name, []);
          byName.get(i.name)!.push([at, v]);
        }
      })
      .catch(() => undefined); // restarting or killed: no reading this time
  const ownDelay = monitorEventLoopDelay({ resolution: 10 });
  ownDelay.enable();
  const ownLag: Array<[number, number, number]> = [];
  const cpu: CpuPoint[] = [];
  // CPU seconds per pid at the last point (a restarted instance is a new pid).
  let lastCpu = new Map<number, number>();
  let lastOwn = ownCpuSeconds();
  let lastTicks = machineTicks();
  let lastAt = Date.now();
  let backendPids: number[] = [];
  let primed = false;
  const readBackends = () =>
    void backends().then(
      (pids) => (backendPids = pids),
      () => undefined, // PostgreSQL restarting: the last list stands
    );
  readBackends();
  const timer = setInterval(() => {
    const now = Date.now();
    const seconds = Math.max(0.001, (now - lastAt) / 1000);
    const nextCpu = new Map<number, number>();
    const byProcess: Record<string, number> = {};
    let used = 0;
    for (const i of instances()) {
      const pid = i.child.pid;
      if (!pid || i.child.exitCode !== null || i.child.signalCode !== null) continue;
      try {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]);
        if (!rss.has(i.name)) rss.set(i.name, []);
        rss.get(i.name)!.push([now, kb / 1024]);
        if (metricsToken) readMetrics(i, now);
      } catch {
        continue; // exited between the check and the read
      }
      const s = cpuSecondsOf(pid);
      nextCpu.set(pid, s);
      if (Number.isFinite(s)) {
        used += s - (lastCpu.get(pid) ?? s);
        byProcess[i.name] = (s - (lastCpu.get(pid) ?? s)) / seconds;
      }
    }
    let pgUsed = 0;
    for (const pid of backendPids) {
      const s = cpuSecondsOf(pid);
      if (!Number.isFinite(s)) continue; // the backend has ended
      nextCpu.set(pid, s);
      pgUsed += s - (lastCpu.get(pid) ?? (primed ? 0 : s));
    }
    used += pgUsed;
    primed = true;
    readBackends();
    const own = ownCpuSeconds();
    used += own - lastOwn;
    byProcess.soak = (own - lastOwn) / seconds;
    byProcess.postgres = pgUsed / seconds;
    const ticks = machineTicks();
    cpu.push({
      at: now,
      machine: (ticks.busy - lastTicks.busy) / Math.max(1, ticks.total - lastTicks.total),
      load1: os.loadavg()[0]!,
      soakCores: used / seconds,
      byProcess,
    });
    ownLag.push([now, ownDelay.percentile(99) / 1e6, ownDelay.max / 1e6]);
    ownDelay.reset();
    lastCpu = nextCpu;
    lastOwn = own;
    lastTicks = ticks;
    lastAt = now;
  }, everyMs);
  return {
    rss,
    gauges,
    heap: gauges.get("heap")!,
    ownLag,
    cpu,
    stop: () => {
      clearInterval(timer);
      ownDelay.disable();
    },
  };
}

/** The q-quantile of ascending `sorted` (NaN when empty). */
export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** Least-squares slope of [ms, MB] points in MB per minute (NaN with fewer than 3 points). */
export function slopePerMinute(points: Array<[number, number]>): number {
  if (points.length < 3) return Number.NaN;
  const mx = points.reduce((s, [t]) => s + t, 0) / points.length;
  const my = points.reduce((s, [, v]) => s + v, 0) / points.length;
  const num = points.reduce((s, [t, v]) => s + (t - mx) * (v - my), 0);
  const den = points.reduce((s, [t]) => s + (t - mx) ** 2, 0);
  return den ? (num / den) * 60_000 : Number.NaN;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Each instance's memory: first and last RSS, the slope over its whole life in the run and
 * over the part after `warmFrom` (the second half: the finder-page cache full by then).
 */
export function memoryReport(rss: Map<string, Array<[number, number]>>, warmFrom: number) {
  return Object.fromEntries(
    [...rss].map(([name, points]) => {
      const warm = points.filter(([t]) => t >= warmFrom);
      return [
        name,
        {
          startMb: Math.round(points[0]?.[1] ?? Number.NaN),
          warmStartMb: Math.round(warm[0]?.[1] ?? Number.NaN),
          endMb: Math.round(points.at(-1)?.[1] ?? Number.NaN),
          slopeWholeMbPerMin: round(slopePerMinute(points)),
          slopeAfterWarmUpMbPerMin: round(slopePerMinute(warm)),
        },
      ];
    }),
  );
}

/**
 * Whether the instances that ran through the whole soak kept their memory flat: each one's
 * RSS slope over the second half (the finder-page cache full by then) at most `barMbPerMin`.
 * The killed instance and its replacement are not judged: one stops early, the other starts
 * with an empty cache, which fills. An instance without a second half fails (nothing shown).
 */
export function memoryFlat(report: ReturnType<typeof memoryReport>, throughout: string[], barMbPerMin: number) {
  const slopes = Object.fromEntries(
    throughout.map((name) => [name, report[name]?.slopeAfterWarmUpMbPerMin ?? Number.NaN]),
  );
  const ok =
    throughout.length > 0 && Object.values(slopes).every((slope) => Number.isFinite(slope) && slope <= barMbPerMin);
  return { ok, barMbPerMin, rssSlopeAfterWarmUpMbPerMin: slopes };
}

/** The lowest reading of each whole minute since the first point (the heap after GC). */
export function minimaPerMinute(points: Array<[number, number]>): Array<[number, number]> {
  const t0 = points[0]?.[0] ?? 0;
  const byMinute = new Map<number, [number, number]>();
  for (const [t, v] of points) {
    const m = Math.floor((t - t0) / 60_000);
    const low = byMinute.get(m);
    if (!low || v < low[1]) byMinute.set(m, [t0 + m * 60_000, v]);
  }
  return [...byMinute.values()];
}

/**
 * Each instance's reading of one memory gauge after GC (the per-minute minima: V8's used or
 * committed heap, external memory, ArrayBuffers): first and last, and the slope over the
 * second half. A leak grows this; a cache that has stopped filling does not.
 */
export function afterGcReport(gauge: Map<string, Array<[number, number]>>, warmFrom: number) {
  return Object.fromEntries(
    [...gauge].map(([name, points]) => {
      const lows = minimaPerMinute(points);
      const warm = lows.filter(([t]) => t >= warmFrom);
      return [
        name,
        {
          afterGcStartMb: Math.round(lows[0]?.[1] ?? Number.NaN),
          afterGcEndMb: Math.round(lows.at(-1)?.[1] ?? Number.NaN),
          afterGcSlopeAfterWarmUpMbPerMin: round(slopePerMinute(warm)),
        },
      ];
    }),
  );
}

/** Each whole minute since `t0` (index = minute) of [at, value] points: their highest value. */
export function maximaPerMinute(points: Array<[number, number]>, t0: number): number[] {
  const out: number[] = [];
  for (const [t, v] of points) {
    const m = Math.floor((t - t0) / 60_000);
    if (m < 0) continue;
    out[m] = Math.max(out[m] ?? Number.NEGATIVE_INFINITY, v);
  }
  return Array.from(out, (v) => (v === undefined ? Number.NaN : round(v, 1)));
}

/**
 * Each instance's event-loop delay: the highest of its p99s (each over the 5 s between
 * two scrapes) in each minute, and the highest single delay of the run, in ms.
 */
export function lagReport(
  p99: Map<string, Array<[number, number]>>,
  max: Map<string, Array<[number, number]>>,
  t0: number,
) {
  return Object.fromEntries(
    [...p99].map(([name, points]) => [
      name,
      {
        p99PerMinuteMs: maximaPerMinute(points, t0),
        maxMs: round(Math.max(...(max.get(name) ?? []).map(([, v]) => v)), 1),
      },
    ]),
  );
}

export interface TimedSample {
  at: number;
  ms: number;
}

/** Per whole minute since `t0`: how many samples, and their p50, p99 and max (ms). */
export function latencyPerMinute(samples: TimedSample[], t0: number) {
  const byMinute: number[][] = [];
  for (const s of samples) {
    const m = Math.floor((s.at - t0) / 60_000);
    if (m >= 0) (byMinute[m] ??= []).push(s.ms);
  }
  return Array.from(byMinute, (xs = [], minute) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return {
      minute,
      count: sorted.length,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      max: sorted.at(-1) ?? Number.NaN,
    };
  });
}

/**
 * The `n` seconds whose slowest request was slowest (requests placed by their intended
 * start), each with its offset from `t0` and its place in the sampler's `everyMs` cycle
 * (ms after the last sample: a tail that always sits just after one points at the sampler).
 */
export function worstSeconds(samples: TimedSample[], t0: number, n = 10, everyMs = 5000, barMs = 50) {
  const bySecond = new Map<number, number[]>();
  for (const s of samples) {
    const sec = Math.floor((s.at - t0) / 1000);
    if (!bySecond.has(sec)) bySecond.set(sec, []);
    bySecond.get(sec)!.push(s.ms);
  }
  return [...bySecond]
    .map(([sec, xs]) => ({
      second: sec,
      at: new Date(t0 + sec * 1000).toISOString(),
      msAfterSample: (sec * 1000) % everyMs,
      requests: xs.length,
      overBar: xs.filter((x) => x > barMs).length,
      max: Math.max(...xs),
    }))
    .sort((a, b) => b.max - a.max || a.second - b.second)
    .slice(0, n);
}

/** Mean and peak of the CPU points from `from` to `to` (the load phase). */
export function cpuReport(points: CpuPoint[], from: number, to: number, cores = os.cpus().length) {
  const xs = points.filter((p) => p.at > from && p.at <= to);
  const mean = (f: (p: CpuPoint) => number) => round(xs.reduce((s, p) => s + f(p), 0) / Math.max(1, xs.length));
  const max = (f: (p: CpuPoint) => number) => round(Math.max(...xs.map(f)));
  return {
    cores,
    machineBusyMean: mean((p) => p.machine),
    machineBusyMax: max((p) => p.machine),
    load1Mean: mean((p) => p.load1),
    load1Max: max((p) => p.load1),
    soakCoresMean: mean((p) => p.soakCores),
    soakCoresMax: max((p) => p.soakCores),
    /** Mean cores per process (instances by name, this process, PostgreSQL's backends). */
    soakCoresByProcess: Object.fromEntries(
      [...new Set(xs.flatMap((p) => Object.keys(p.byProcess ?? {})))].map((k) => {
        const of = xs.filter((p) => p.byProcess?.[k] !== undefined);
        return [k, round(of.reduce((s, p) => s + p.byProcess[k]!, 0) / Math.max(1, of.length))];
      }),
    ),
  };
}
