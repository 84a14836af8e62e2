import http from "node:http";
import type { AddressInfo } from "node:net";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { heapReport, memoryReport, quantile, slopePerMinute } from "./soak-measure";
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

  it("reads the heap after GC from each minute's lowest reading, so the sawtooth between collections is no slope", () => {
    const t0 = 0;
    // Every 5 s for 10 minutes: the heap climbs 40 MB between collections back to 100 MB.
    const points: Array<[number, number]> = Array.from({ length: 120 }, (_, k) => [
      t0 + k * 5000,
      100 + (k % 12) * 3.3,
    ]);
    expect(heapReport(new Map([["a", points]]), t0).a).toEqual({
      afterGcStartMb: 100,
      afterGcEndMb: 100,
      afterGcSlopeAfterWarmUpMbPerMin: 0,
    });
    // The same sawtooth on a floor that rises 2 MB a minute is a leak.
    const leaking = points.map(([t, v]): [number, number] => [t, v + (t / 60_000) * 2]);
    expect(heapReport(new Map([["a", leaking]]), t0).a!.afterGcSlopeAfterWarmUpMbPerMin).toBeCloseTo(2, 0);
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
