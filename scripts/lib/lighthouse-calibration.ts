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

/** The median; of an even count, the mean of the two middle values. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Each figure's median over the runs, and what misses: a floor (`budget`: performance and the
 * other categories) or a ceiling (`ceiling`: total blocking time, layout shift).
 */
export function judge(
  runs: ReadonlyArray<Record<string, number>>,
  budget: Partial<Record<string, number>>,
  ceiling: Partial<Record<string, number>> = {},
): { scores: Record<string, number>; failed: string[] } {
  const scores = Object.fromEntries(Object.keys(runs[0] ?? {}).map((k) => [k, median(runs.map((r) => r[k] ?? 0))]));
  const failed = [
    ...Object.entries(budget)
      .filter(([k, min]) => (scores[k] ?? 0) < min!)
      .map(([k, min]) => `median ${k} ${scores[k]} < ${min}`),
    ...Object.entries(ceiling)
      .filter(([k, max]) => (scores[k] ?? Infinity) > max!)
      .map(([k, max]) => `median ${k} ${scores[k]} > ${max}`),
  ];
  return { scores, failed };
}
