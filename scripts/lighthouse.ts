// `npm run lighthouse`: Lighthouse (mobile, its default simulated throttling) in Debian's
// Chromium against `/` and the paid item page of a fresh server, as a first-time visitor
// (no cookies: the consent overlay is part of what a finder sees). Prints performance,
// accessibility and best-practices; exits 1 below the brief's budgets (performance ≥ 95,
// accessibility 100). Not part of `npm test`: it takes about a minute.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import fs from "node:fs";
import path from "node:path";
import { CHROMIUM_ARGS } from "../playwright.config";
import { root } from "./lib/build.mjs";
import { startQualityServer } from "./lib/quality-server";

const BUDGETS = { performance: 95, accessibility: 100 };

const server = await startQualityServer();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
});
const pages = [
  { name: "/", url: `${server.url}/` },
  { name: "item page", url: `${server.url}/product/${server.itemId}` },
];
const results: Array<{ page: string; scores: Record<string, number>; failed: string[]; audits: string[] }> = [];
try {
  for (const p of pages) {
    const run = await lighthouse(p.url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices"],
    });
    if (!run) throw new Error(`Lighthouse returned nothing for ${p.url}`);
    const lhr = run.lhr;
    const scores = Object.fromEntries(
      Object.entries(lhr.categories).map(([k, c]) => [k, Math.round((c.score ?? 0) * 100)]),
    );
    const failed: string[] = [];
    if ((scores.performance ?? 0) < BUDGETS.performance) failed.push(`performance < ${BUDGETS.performance}`);
    if ((scores.accessibility ?? 0) < BUDGETS.accessibility) failed.push(`accessibility < ${BUDGETS.accessibility}`);
    // What cost points, for the report and for whoever fixes it.
    const audits = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative")
      .filter((a) => a.scoreDisplayMode !== "notApplicable" && a.scoreDisplayMode !== "manual")
      .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ""}`);
    results.push({ page: p.name, scores, failed, audits });
    const m = (id: string) => lhr.audits[id]?.displayValue ?? "?";
    console.log(
      `${p.name.padEnd(10)} performance ${scores.performance}  accessibility ${scores.accessibility}  best-practices ${scores["best-practices"]}` +
        `   (FCP ${m("first-contentful-paint")}, LCP ${m("largest-contentful-paint")}, TBT ${m("total-blocking-time")}, CLS ${m("cumulative-layout-shift")})`,
    );
    if (audits.length) console.log(`           below full marks: ${audits.join(", ")}`);
  }
} finally {
  chrome.kill();
  await server.stop();
}

const outDir = path.join(root, "bench/results");
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(
  path.join(outDir, "lighthouse-latest.json"),
  JSON.stringify({ date: new Date().toISOString(), results }, null, 2),
);
const failed = results.filter((r) => r.failed.length);
for (const r of failed) console.log(`✖ ${r.page}: ${r.failed.join("; ")}`);
if (!failed.length) console.log("✔ within budgets (performance ≥ 95, accessibility 100)");
process.exit(failed.length ? 1 : 0);
