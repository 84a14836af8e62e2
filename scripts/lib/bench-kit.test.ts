import { describe, expect, it } from "vitest";
import { pairedShare, type Slice } from "./bench-kit";

const slice = (requests: number, seconds = 2): Slice => ({
  requests,
  seconds,
  p50: 1,
  p99: 2,
  errors: 0,
  non2xx: 0,
  bytes: 0,
  serverCpu: 0,
  dbCpu: 0,
  clientCpu: 0,
});

describe("pairedShare (bench:scale's finder share, decision 042 point 19)", () => {
  it("takes each rotation's share against the bare slice beside it, so a host that slows down for a rotation leaves the share alone", () => {
    // The host runs at half speed in the second rotation: both slices halve.
    const bare = [slice(20_000), slice(10_000), slice(20_000)];
    const app = [slice(10_000), slice(5_000), slice(10_000)];
    expect(pairedShare(app, bare)).toBeCloseTo(0.5);
  });

  it("is the median of the rotations' shares: one spoiled rotation does not move it", () => {
    const bare = [slice(20_000), slice(20_000), slice(20_000), slice(20_000), slice(20_000)];
    const app = [slice(12_000), slice(11_000), slice(2_000), slice(11_600), slice(11_400)];
    expect(pairedShare(app, bare)).toBeCloseTo(0.57);
  });

  it("averages the middle two of an even number of rotations, and counts each slice's own length", () => {
    const bare = [slice(20_000), slice(20_000), slice(20_000), slice(30_000, 3)];
    const app = [slice(10_000), slice(12_000), slice(14_000), slice(9_000, 3)];
    // Shares 0.5, 0.6, 0.7, 0.3: the middle two are 0.5 and 0.6.
    expect(pairedShare(app, bare)).toBeCloseTo(0.55);
  });
});
