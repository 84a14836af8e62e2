// How much `npm run lighthouse` slows the CPU down. Lighthouse's 4× is defined for a host of
// at least its "high-end desktop" class (benchmarkIndex 1,500 and up) and makes it feel like
// a mid-tier phone; on a slower host the same 4× emulates a slower phone than the bars mean,
// and Lighthouse's docs say to lower it there (docs/throttling.md, "Calibrating the CPU
// slowdown"). Decision 045, "The signed-in Lighthouse bar in npm test".

/** The bottom of Lighthouse's "high-end desktop" benchmarkIndex bracket, which its 4× is for. */
export const HIGH_END_DESKTOP = 1500;
export const DEFAULT_SLOWDOWN = 4;

/** 4× on a host of Lighthouse's 4× class or faster; proportionally less below it, never more than 4×. */
export function calibratedSlowdown(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= 0) return DEFAULT_SLOWDOWN;
  return Math.min(DEFAULT_SLOWDOWN, Number(((DEFAULT_SLOWDOWN * benchmarkIndex) / HIGH_END_DESKTOP).toFixed(2)));
}
