import { describe, expect, it } from "vitest";
import { calibratedSlowdown, judge } from "./lighthouse-calibration";
import { median } from "./stats";

describe("calibratedSlowdown (npm run lighthouse, decision 045)", () => {
  it("keeps the bars' 4× on any host of Lighthouse's high-end desktop class or faster, never slowing a fast host less", () => {
    expect(calibratedSlowdown(1500)).toBe(4);
    expect(calibratedSlowdown(2890)).toBe(4);
    expect(calibratedSlowdown(10_000)).toBe(4);
  });

  it("lowers the slowdown in proportion on a slower host, so it emulates the same phone rather than a slower one", () => {
    expect(calibratedSlowdown(1125)).toBe(3);
    expect(calibratedSlowdown(1041)).toBe(2.78);
    expect(calibratedSlowdown(750)).toBe(2);
  });

  it("falls back to 4× when Lighthouse reports no usable index", () => {
    expect(calibratedSlowdown(Number.NaN)).toBe(4);
    expect(calibratedSlowdown(0)).toBe(4);
  });
});

describe("judge (npm run lighthouse's medians)", () => {
  const run = (performance: number, tbt: number) => ({ performance, tbt, cls: 0 });

  it("passes a page whose median meets every bar, whatever one run did", () => {
    const runs = [run(99, 40), run(97, 90), run(93, 320), run(98, 60), run(100, 20)];
    expect(judge(runs, { performance: 95 }, { tbt: 150, cls: 0 })).toEqual({
      scores: { performance: 98, tbt: 60, cls: 0 },
      failed: [],
    });
  });

  it("fails a page whose median is past a floor or a ceiling, naming each", () => {
    const runs = [run(94, 160), run(96, 170), run(93, 90), run(97, 200), run(90, 40)];
    expect(judge(runs, { performance: 95 }, { tbt: 150 }).failed).toEqual([
      "median performance 94 < 95",
      "median tbt 160 > 150",
    ]);
  });

  it("takes the mean of the two middle runs of an even count, so ten runs are judged on the middle of all ten", () => {
    expect(median([10, 200, 140, 160, 30, 170, 20, 150, 145, 155])).toBe(147.5);
    expect(judge([run(96, 140), run(94, 170)], { performance: 95 }, { tbt: 150 }).failed).toEqual([
      "median tbt 155 > 150",
    ]);
  });
});
