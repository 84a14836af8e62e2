// `npm run lighthouse`: Lighthouse (mobile, its default simulated throttling: slow 4G and
// 4× CPU) in Debian's Chromium against `/` and the paid item page of a fresh server, as a
// first-time visitor (no cookies: the consent overlay is part of what a finder sees), and
// signed in against /dashboard, the item form and /order (decision 045). Five runs per
// page (LIGHTHOUSE_RUNS to change; a run Lighthouse itself failed is run again), each
// printed, then the median of each figure; a median past its budget is measured again with
// five more runs and the ten judged; exits 1 when a median is still past its budget
// (decision 020: the finder page 100/100/100, `/` performance ≥ 98 and accessibility 100;
// decision 045: the signed-in pages performance ≥ 95, total blocking time ≤ 150 ms, layout
// shift 0). LIGHTHOUSE_PAGES=signed-in measures only the signed-in pages: `npm test` runs
// it and fails over any budget (decision 045). The CPU slowdown is 4× on a host of
// Lighthouse's own class for 4× and less on a slower one (lib/lighthouse-calibration.ts),
// the host's index the median of uncounted runs'.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import fs from "node:fs";
import path from "node:path";
import { CHROMIUM_ARGS } from "../playwright.config";
import { root } from "./lib/build.mjs";
import { calibratedSlowdown, DEFAULT_SLOWDOWN, HIGH_END_DESKTOP, judge } from "./lib/lighthouse-calibration";
import { startQualityServer } from "./lib/quality-server";
import { median } from "./lib/stats";

type Budget = Record<"performance" | "accessibility" | "best-practices", number>;
/** Upper bounds: total blocking time (ms) and cumulative layout shift. */
type Ceiling = Partial<Record<"tbt" | "cls", number>>;
const RUNS = Number(process.env.LIGHTHOUSE_RUNS || 5);
/** How often a run Lighthouse itself failed (its runtimeError, e.g. NO_NAVSTART: "run Lighthouse again") is run again. */
const RETRIES = 2;

const server = await startQualityServer();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
});
const signedIn = {
  Cookie: `${server.sessionCookie.name}=${server.sessionCookie.value}; ConsentApproved=1`,
};
const SIGNED_IN: Partial<Budget> = { performance: 95 };
const SIGNED_IN_CEILING: Ceiling = { tbt: 150, cls: 0 };
const allPages: Array<{
  name: string;
  url: string;
  budget: Partial<Budget>;
  ceiling?: Ceiling;
  headers?: Record<string, string>;
}> = [
  { name: "/", url: `${server.url}/`, budget: { performance: 98, accessibility: 100 } },
  {
    name: "item page",
    url: `${server.url}/product/${server.itemId}`,
    budget: { performance: 100, accessibility: 100, "best-practices": 100 },
  },
  {
    // Decision 035: the finder page with one photo keeps the same bar.
    name: "item + photo",
    url: `${server.url}/product/${server.photoItemId}`,
    budget: { performance: 100, accessibility: 100, "best-practices": 100 },
  },
  ...[
    ["/dashboard", "/dashboard"],
    ["item form", `/product/edit/${server.itemId}`],
    ["/order", "/order"],
  ].map(([name, path]) => ({
    name: name!,
    url: `${server.url}${path}`,
    budget: SIGNED_IN,
    ceiling: SIGNED_IN_CEILING,
    headers: signedIn,
  })),
];
const pages = process.env.LIGHTHOUSE_PAGES === "signed-in" ? allPages.filter((p) => p.headers) : allPages;
const results: Array<{
  page: string;
  slowdown: number;
  scores: Record<string, number>;
  runs: Array<Record<string, number>>;
  failed: string[];
  audits: string[];
}> = [];
const probes: number[] = [];
try {
  for (const p of pages) {
    const runs: Array<Record<string, number>> = [];
    const audits = new Set<string>();
    // First runs, not counted: they read the host's benchmarkIndex (and warm the server's
    // caches); two before the first page, one before each after. The host's index is the
    // median of all read so far, so one reading taken while something else had the CPU
    // (1,710 once, between readings of 2,500–2,900) moves it little.
    const probeRuns = probes.length ? 1 : 2;
    for (let i = 0; i < probeRuns; i++) {
      const probe = await measure(p.url, p.name, new Set(), p.headers, DEFAULT_SLOWDOWN, true);
      if (Number.isFinite(probe.benchmarkIndex)) probes.push(probe.benchmarkIndex!);
    }
    const hostIndex = probes.length ? Math.round(median(probes)) : Number.NaN;
    const slowdown = calibratedSlowdown(hostIndex);
    console.log(
      `${p.name.padEnd(10)} host benchmarkIndex ${hostIndex} (median of ${probes.join(", ")}): CPU slowdown ${slowdown}×` +
        (slowdown < DEFAULT_SLOWDOWN ? ` (below ${HIGH_END_DESKTOP}, Lighthouse's 4× host class)` : ""),
    );
    const measureRuns = async () => {
      for (let i = 0; i < RUNS; i++) runs.push(await measure(p.url, p.name, audits, p.headers, slowdown));
      return judge(runs, p.budget, p.ceiling);
    };
    let { scores, failed } = await measureRuns();
    // A median past a bar after five runs is measured again with five more, and all ten are
    // judged: single runs' blocking time varies by a factor of ten on the same build, and the
    // middle of ten is a steadier reading than the middle of five (decision 045, "The
    // signed-in Lighthouse bar and npm test").
    if (failed.length) {
      console.log(`${p.name.padEnd(10)} median of ${RUNS} past the bar (${failed.join("; ")}): ${RUNS} runs more`);
      ({ scores, failed } = await measureRuns());
    }
    console.log(
      `${p.name.padEnd(10)} MEDIAN of ${runs.length}: performance ${scores.performance}  accessibility ${scores.accessibility}  best-practices ${scores["best-practices"]}  TBT ${scores.tbt} ms  CLS ${scores.cls}  (CPU ${slowdown}×)`,
    );
    results.push({ page: p.name, slowdown, scores, runs, failed, audits: [...audits] });
  }
} finally {
  chrome.kill();
  await server.stop();
}

async function measure(
  url: string,
  name: string,
  belowFull: Set<string>,
  headers: Record<string, string> | undefined,
  slowdown: number,
  probe = false,
) {
  let lhr;
  for (let attempt = 0; ; attempt++) {
    const run = await lighthouse(url, {
      port: chrome.port,
      ...(headers ? { extraHeaders: headers } : {}),
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices"],
      throttling: { cpuSlowdownMultiplier: slowdown },
    });
    if (!run) throw new Error(`Lighthouse returned nothing for ${url}`);
    lhr = run.lhr;
    // A failed recording is not a measurement of the page: its scores are 0 and its metrics missing.
    if (!lhr.runtimeError || attempt >= RETRIES) break;
    console.log(`${name.padEnd(10)} Lighthouse failed (${lhr.runtimeError.code}); run again`);
  }
  // LIGHTHOUSE_SAVE=<dir> keeps each run's full report, for whoever looks into a score.
  if (process.env.LIGHTHOUSE_SAVE) {
    fs.mkdirSync(process.env.LIGHTHOUSE_SAVE, { recursive: true });
    const file = `${name.replace(/[^a-z0-9]+/gi, "-")}-${Date.now()}.json`;
    fs.writeFileSync(path.join(process.env.LIGHTHOUSE_SAVE, file), JSON.stringify(lhr));
  }
  const scores: Record<string, number> = Object.fromEntries(
    Object.entries(lhr.categories).map(([k, c]) => [k, Math.round((c.score ?? 0) * 100)]),
  );
  scores.benchmarkIndex = Math.round(lhr.environment.benchmarkIndex);
  if (probe) {
    console.log(`${name.padEnd(10)} uncounted run: benchmarkIndex ${scores.benchmarkIndex}`);
    return scores;
  }
  scores.tbt = Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? Infinity);
  scores.cls = Number((lhr.audits["cumulative-layout-shift"]?.numericValue ?? Infinity).toFixed(3));
  // What cost points, for the report and for whoever fixes it.
  const audits = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative")
    .filter((a) => a.scoreDisplayMode !== "notApplicable" && a.scoreDisplayMode !== "manual")
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ""}`);
  const m = (id: string) => lhr.audits[id]?.displayValue ?? "?";
  console.log(
    `${name.padEnd(10)} performance ${scores.performance}  accessibility ${scores.accessibility}  best-practices ${scores["best-practices"]}` +
      `   (FCP ${m("first-contentful-paint")}, LCP ${m("largest-contentful-paint")}, TBT ${m("total-blocking-time")}, CLS ${m("cumulative-layout-shift")}; benchmarkIndex ${scores.benchmarkIndex})`,
  );
  if (audits.length) console.log(`           below full marks: ${audits.join(", ")}`);
  for (const a of audits) belowFull.add(a);
  return scores;
}

const outDir = path.join(root, "bench/results");
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(
  path.join(outDir, "lighthouse-latest.json"),
  JSON.stringify({ date: new Date().toISOString(), results }, null, 2),
);
const failed = results.filter((r) => r.failed.length);
for (const r of failed) console.log(`✖ ${r.page}: ${r.failed.join("; ")}`);
if (!failed.length)
  console.log(
    process.env.LIGHTHOUSE_PAGES === "signed-in"
      ? "✔ medians within budgets (signed in: performance ≥ 95, TBT ≤ 150 ms, CLS 0)"
      : "✔ medians within budgets (item page 100/100/100; `/` performance ≥ 98, accessibility 100; signed in: performance ≥ 95, TBT ≤ 150 ms, CLS 0)",
  );
process.exit(failed.length ? 1 : 0);
