import http from "node:http";
import type { AddressInfo } from "node:net";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import {
  cpuReport,
  afterGcReport,
  lagReport,
  latencyPerMinute,
  memoryFlat,
  memoryReport,
  parseMetrics,
  quantile,
  slopePerMinute,
  worstSeconds,
} from "./soak-measure";
import { openLoop, type TrafficContext } from "./soak-traffic";

describe("bench:soak's memory report (decision 048)", () => {
  it("gives the slope after warm-up from the second half alone, so a cache filling early does not read as a leak", () => {
    const t0 = 1_000_000;
    // 200 MB rising 10 MB a minute for 10 minutes, then flat at 300 MB for 10 minutes.
    const points: Array<[number, number]> = Array.from({ length: 21 }, (_, m) => [
      t0 + m * 60_000,
      200 + 10 * Math.min(m, 10),
    ]);
    const report = memoryReport(new Map([["a", points]]), t0 + 10 * 60_000);
    expect(report.a!.slopeWholeMbPerMin).toBeGreaterThan(4);
    expect(report.a!.slopeAfterWarmUpMbPerMin).toBe(0);
    expect(report.a).toMatchObject({ startMb: 200, warmStartMb: 300, endMb: 300 });
  });

  it("judges memory flat by the second-half RSS slope of the instances that ran throughout, and fails one that rose", () => {
    const t0 = 1_000_000;
    const line = (perMinute: number): Array<[number, number]> =>
      Array.from({ length: 21 }, (_, m) => [t0 + m * 60_000, 300 + perMinute * m]);
    const report = memoryReport(
      new Map([
        ["steady", line(0.5)],
        ["leaking", line(3)],
        ["replacement", line(14)],
      ]),
      t0 + 10 * 60_000,
    );
    expect(memoryFlat(report, ["steady"], 1).ok).toBe(true);
    expect(memoryFlat(report, ["steady", "leaking"], 1)).toMatchObject({
      ok: false,
      rssSlopeAfterWarmUpMbPerMin: { steady: 0.5, leaking: 3 },
    });
    // The replacement of the killed instance is not named: its filling cache is no leak.
    expect(memoryFlat(report, ["steady"], 1).rssSlopeAfterWarmUpMbPerMin).not.toHaveProperty("replacement");
    // An instance with no second half shows nothing, so it cannot pass.
    expect(memoryFlat(report, ["steady", "gone"], 1).ok).toBe(false);
    expect(memoryFlat(report, [], 1).ok).toBe(false);
  });

  it("reads the heap after GC from each minute's lowest reading, so the sawtooth between collections is no slope", () => {
    const t0 = 0;
    // Every 5 s for 10 minutes: the heap climbs 40 MB between collections back to 100 MB.
    const points: Array<[number, number]> = Array.from({ length: 120 }, (_, k) => [
      t0 + k * 5000,
      100 + (k % 12) * 3.3,
    ]);
    expect(afterGcReport(new Map([["a", points]]), t0).a).toEqual({
      afterGcStartMb: 100,
      afterGcEndMb: 100,
      afterGcSlopeAfterWarmUpMbPerMin: 0,
    });
    // The same sawtooth on a floor that rises 2 MB a minute is a leak.
    const leaking = points.map(([t, v]): [number, number] => [t, v + (t / 60_000) * 2]);
    expect(afterGcReport(new Map([["a", leaking]]), t0).a!.afterGcSlopeAfterWarmUpMbPerMin).toBeCloseTo(2, 0);
  });

  it("reads a steady rise as its rate per minute", () => {
    const points: Array<[number, number]> = Array.from({ length: 10 }, (_, i) => [i * 30_000, 100 + i * 1.5]);
    expect(slopePerMinute(points)).toBeCloseTo(3, 6);
  });

  it("takes the quantile from the sorted list without interpolation", () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([quantile(sorted, 0.5), quantile(sorted, 0.99)]).toEqual([51, 100]);
  });
});

describe("bench:soak's readings of each instance's /metrics (decision 048)", () => {
  it("reads the heap, external and ArrayBuffer memory and the page cache's bytes in MB and the event-loop delay in ms, not a labelled or longer-named line", () => {
    const text = [
      "# HELP hittad_nodejs_heap_size_used_bytes Process heap size used from Node.js in bytes.",
      "hittad_nodejs_heap_size_used_bytes 62914560",
      "hittad_nodejs_heap_size_used_bytes_other 1",
      "hittad_nodejs_heap_size_total_bytes 104857600",
      "hittad_nodejs_external_memory_bytes 1.048576e+08",
      "hittad_nodejs_array_buffers_bytes 52428800",
      "hittad_finder_page_cache_bytes 20971520",
      'hittad_nodejs_eventloop_lag_p99_seconds{instance="x"} 9',
      "hittad_nodejs_eventloop_lag_p99_seconds 0.0253",
      "hittad_nodejs_eventloop_lag_max_seconds 0.5",
    ].join("\n");
    expect(parseMetrics(text)).toEqual({
      heap: 60,
      heapTotal: 100,
      external: 100,
      arrayBuffers: 50,
      pageCacheBytes: 20,
      lagP99: 25.3,
      lagMax: 500,
    });
    expect(parseMetrics("hittad_nodejs_heap_size_used_bytes_other 1")).toEqual({});
  });

  it("gives each minute's event-loop delay as the worst of its 5-second p99s, so one stalled scrape interval shows in its minute", () => {
    const p99: Array<[number, number]> = Array.from({ length: 24 }, (_, k) => [k * 5000, k === 15 ? 400 : 12]);
    const max: Array<[number, number]> = p99.map(([t, v]) => [t, v * 2]);
    expect(lagReport(new Map([["a", p99]]), new Map([["a", max]]), 0)).toEqual({
      a: { p99PerMinuteMs: [12, 400], maxMs: 800 },
    });
  });
});

describe("bench:soak's finder latency in time (decision 048)", () => {
  it("gives each minute its own p99, so a tail from one bad minute is not spread over the run", () => {
    const samples = [
      ...Array.from({ length: 100 }, (_, k) => ({ at: k * 500, ms: 5 })),
      ...Array.from({ length: 100 }, (_, k) => ({ at: 60_000 + k * 500, ms: k < 5 ? 900 : 6 })),
    ];
    expect(latencyPerMinute(samples, 0)).toEqual([
      { minute: 0, count: 100, p50: 5, p99: 5, max: 5 },
      { minute: 1, count: 100, p50: 6, p99: 900, max: 900 },
    ]);
  });

  it("names the slowest seconds with their place in the sampler's cycle, slowest first", () => {
    const t0 = 1_000_000;
    const samples = [
      ...Array.from({ length: 200 }, (_, k) => ({ at: t0 + k * 100, ms: 5 })),
      { at: t0 + 7_200, ms: 300 },
      { at: t0 + 12_050, ms: 800 },
      { at: t0 + 12_500, ms: 60 },
    ];
    const worst = worstSeconds(samples, t0, 2, 5000, 50);
    expect(worst).toEqual([
      { second: 12, at: new Date(t0 + 12_000).toISOString(), msAfterSample: 2000, requests: 12, overBar: 2, max: 800 },
      { second: 7, at: new Date(t0 + 7_000).toISOString(), msAfterSample: 2000, requests: 11, overBar: 1, max: 300 },
    ]);
  });
});

describe("bench:soak's CPU report (decision 048)", () => {
  it("splits the soak's cores by process, each averaged over the points it was alive in", () => {
    const at = (k: number) => k * 5000;
    const points = [1, 2, 3, 4].map((k) => ({
      at: at(k),
      machine: 0.5,
      load1: 1,
      soakCores: 1,
      byProcess: { "instance-1": 0.2, soak: 0.5, postgres: 0.1, ...(k > 2 ? { "instance-2": 0.4 } : {}) },
    }));
    expect(cpuReport(points, 0, at(4), 2).soakCoresByProcess).toEqual({
      "instance-1": 0.2,
      soak: 0.5,
      postgres: 0.1,
      "instance-2": 0.4,
    });
  });
});

describe("bench:soak's open loop (decision 048)", () => {
  it("times a request from when it was meant to start, so a stall of the sender counts for every request it held back", async () => {
    const server = http.createServer((_, res) => res.end("ok"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const ctx: TrafficContext = {
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      owners: [{ email: "a@example.test", password: "x", cookie: "" }],
      items: ["AAAAAAAAAA"],
      // Never asked: the stub server answers 200, not the 302 of a saved item.
      lookup: null as unknown as pg.Pool,
      samples: [],
      acked: { messages: [], items: [], orders: [] },
    };
    let running = true;
    const loop = openLoop(ctx, 100, () => running);
    await new Promise((r) => setTimeout(r, 200));
    // The sender's own process stalls for 300 ms: nothing can be sent meanwhile.
    const stallFrom = Date.now();
    while (Date.now() - stallFrom < 300) {
      // busy
    }
    const stallTo = Date.now();
    await new Promise((r) => setTimeout(r, 200));
    running = false;
    await loop;
    server.close();
    const held = ctx.samples.filter((s) => s.at >= stallFrom && s.at < stallTo - 100);
    expect(held.length).toBeGreaterThan(10);
    for (const s of held) expect(s.ms).toBeGreaterThanOrEqual(stallTo - s.at - 5);
    // And the rate is kept: about 100 a second over the 0.7 s, the held-back ones included.
    expect(ctx.samples.length).toBeGreaterThan(55);
  });
});
