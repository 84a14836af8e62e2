import { describe, expect, it } from "vitest";
import { calibratedSlowdown } from "./lighthouse-calibration";

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
