// `npm run bench:weight`: what a browser downloads for `/`, `/login`, `/dashboard`
// (signed in) and the paid item page, in gzip bytes per kind, and whether the page's main
// content is already in the first HTML response (no JavaScript needed to see it).
// Exits 1 when a page is over its budget (brief section 4, issue #18).
//
// Budgets: the finder page (item page, anonymous) ≤ 30 KB in total, with no script file at
// all (docs/decisions/020: no framework JavaScript); every other page ≤ 150 KB.
//
// `npm test` runs it with --ceilings while the other pages are still over 150 KB: the
// finder page's budget and the content-in-first-HTML check still fail the run, and so
// does any other page growing past its measured total (CEILINGS); their 150 KB is then
// reported but only enforced by `npm run bench:weight`. Remove --ceilings from
// scripts/test.mjs once every page is within 150 KB.
//
// Debian's Chromium loads each page in a fresh context (empty cache) and every response
// it receives is counted: the document, stylesheets, module scripts and modulepreloads,
// the chunks loaded while the page starts (translations), fonts and images. Sizes are
// gzip level 6 of each body, computed here, so the figures do not depend on the
// encoding the server picked or on timing.
import { chromium } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { CHROMIUM_ARGS } from "../playwright.config";
import { root } from "./lib/build.mjs";
import { startQualityServer } from "./lib/quality-server";

const KB = 1024;
const ceilingsOnly = process.argv.includes("--ceilings");
/** Measured totals plus ~2 KB (2026-11-24, docs/decisions/020): regressions fail. */
const CEILINGS: Record<string, number> = {
  // Measured 181.4 / 182.4 / 185.8 KB. Issue #18 took the finder page out of the framework;
  // these pages still carry React and React Router (~127 KB), i18next, the stylesheet
  // (18.6 KB) and, without a `handle.i18n`, every translation area (~20 KB).
  // Then measured 183.4 / 184.7 / 189.7 KB after issues #19 point 5 (the package note and
  // shared sign-in fields) and #18 point 5 (the dashboard's filter and pager) landed; the
  // dashboard had also pulled in zod (+24 KB) until its filter parsing moved to
  // item-query.ts. Still over the 150 KB budget: docs/decisions/020 says what is next.
  // Then 184.4 / 185.7 / 191.0 KB with issue #20's scope switch in the user menu (~1 KB on
  // every page; the organisation and CSV translations load only on their own pages) and
  // the dashboard's CSV links; the dashboard's ceiling moved up to keep its ~2 KB.
  // 2026-11-24: 167.9 / 169.1 / 174.5 KB once i18next and react-i18next left the browser
  // for a 1.3 KB translator (docs/decisions/025-browser-translator.md, −16.5 KB a page).
  // 2026-11-24, issue #18 point 3: 162.7 / 164.4 / 183.8 KB once every page loads only the
  // translation areas it renders (decision 020, point 7); was 184.4 / 185.7 / 191.1 KB.
  // 2026-11-24: 175.3 / 176.6 / 182.0 KB once the build purged the site stylesheet of the
  // rules no page can use (issue #18: 18.7 → 9.6 KB, docs/decisions/020 point 8).
  "/": 165 * KB,
  "/login": 166 * KB,
  "/dashboard": 177 * KB,
};

interface PageSpec {
  name: string;
  path: string;
  signedIn: boolean;
  /** Text that proves the main content is in the server's HTML. */
  content: string;
  budget: { total: number; htmlCss?: number; scriptFiles?: 0 };
}

type Kind = "html" | "css" | "js" | "font" | "image" | "other";

const server = await startQualityServer();
// Budgets: the finder page's are the brief's; the other pages share its total budget
// so that no screen grows past what the finder page is allowed.
const pages: PageSpec[] = [
  { name: "/", path: "/", signedIn: false, content: "<h1", budget: { total: 150 * KB } },
  { name: "/login", path: "/login", signedIn: false, content: 'type="password"', budget: { total: 150 * KB } },
  { name: "/dashboard", path: "/dashboard", signedIn: true, content: server.itemName, budget: { total: 150 * KB } },
  {
    name: "item page",
    path: `/product/${server.itemId}`,
    signedIn: false,
    content: server.itemName,
    budget: { total: 30 * KB, htmlCss: 30 * KB, scriptFiles: 0 },
  },
];

function kindOf(contentType: string): Kind {
  if (contentType.includes("text/html")) return "html";
  if (contentType.includes("text/css")) return "css";
  if (contentType.includes("javascript")) return "js";
  if (contentType.startsWith("font/") || contentType.includes("font")) return "font";
  if (contentType.startsWith("image/")) return "image";
  return "other";
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: CHROMIUM_ARGS,
});
const rows: Array<{
  page: string;
  bytes: Record<Kind, number>;
  htmlCss: number;
  total: number;
  requests: number;
  contentInFirstHtml: boolean;
  problems: string[];
}> = [];
try {
  for (const spec of pages) {
    const context = await browser.newContext({ locale: "en-GB", viewport: { width: 390, height: 844 } });
    if (spec.signedIn) {
      await context.addCookies([
        { ...server.sessionCookie, url: server.url },
        { name: "ConsentApproved", value: "1", url: server.url },
      ]);
    }
    const page = await context.newPage();
    const pending: Promise<void>[] = [];
    const bytes: Record<Kind, number> = { html: 0, css: 0, js: 0, font: 0, image: 0, other: 0 };
    let firstHtml: string | null = null;
    let requests = 0;
    let scriptFiles = 0;
    page.on("response", (response) => {
      pending.push(
        (async () => {
          if (response.status() >= 300 && response.status() < 400) return; // no body
          const body = await response.body().catch(() => null);
          if (!body) return;
          const kind = kindOf(response.headers()["content-type"] ?? "");
          if (kind === "html" && firstHtml === null && response.request().isNavigationRequest()) {
            firstHtml = body.toString("utf8");
          }
          bytes[kind] += gzipSync(body, { level: 6 }).length;
          if (kind === "js") scriptFiles++;
          requests++;
        })(),
      );
    });
    const res = await page.goto(server.url + spec.path, { waitUntil: "networkidle" });
    await Promise.all(pending);
    const problems: string[] = [];
    if (res?.status() !== 200) problems.push(`status ${res?.status()}`);
    const contentInFirstHtml = firstHtml !== null && (firstHtml as string).includes(spec.content);
    if (!contentInFirstHtml) problems.push("main content missing from the first HTML response");
    const total = Object.values(bytes).reduce((a, b) => a + b, 0);
    const htmlCss = bytes.html + bytes.css;
    if (spec.budget.scriptFiles === 0 && scriptFiles > 0) problems.push(`${scriptFiles} script file(s), none allowed`);
    if (total > spec.budget.total) {
      const ceiling = CEILINGS[spec.name];
      if (!ceilingsOnly || ceiling === undefined) problems.push(`total ${kb(total)} > ${kb(spec.budget.total)}`);
      else if (total > ceiling) problems.push(`total ${kb(total)} > ceiling ${kb(ceiling)} (grew)`);
      else console.log(`  ${spec.name}: total ${kb(total)} over the ${kb(spec.budget.total)} budget (known gap)`);
    }
    if (spec.budget.htmlCss !== undefined && htmlCss > spec.budget.htmlCss) {
      problems.push(`HTML+CSS ${kb(htmlCss)} > ${kb(spec.budget.htmlCss)}`);
    }
    rows.push({ page: spec.name, bytes, htmlCss, total, requests, contentInFirstHtml, problems });
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

function kb(n: number) {
  return `${(n / KB).toFixed(1)} KB`;
}
const pad = (s: string | number, n: number) => String(s).padStart(n);
console.log(
  `\n${"page (gzip)".padEnd(14)}${pad("HTML", 10)}${pad("CSS", 10)}${pad("JS", 10)}${pad("other", 10)}${pad("total", 10)}${pad("requests", 10)}  content in first HTML`,
);
for (const r of rows) {
  const other = r.bytes.font + r.bytes.image + r.bytes.other;
  console.log(
    `${r.page.padEnd(14)}${pad(kb(r.bytes.html), 10)}${pad(kb(r.bytes.css), 10)}${pad(kb(r.bytes.js), 10)}${pad(kb(other), 10)}${pad(kb(r.total), 10)}${pad(r.requests, 10)}  ${r.contentInFirstHtml ? "yes" : "NO"}`,
  );
}
console.log("\nBudgets: item page total ≤ 30 KB with no script file (issue #18); other pages total ≤ 150 KB.");
const failed = rows.filter((r) => r.problems.length > 0);
for (const r of failed) console.log(`✖ ${r.page}: ${r.problems.join("; ")}`);
const overBudget = rows.filter((r) => r.total > (pages.find((p) => p.name === r.page)?.budget.total ?? 0)).length;
if (failed.length === 0 && ceilingsOnly && overBudget) {
  console.log(`✔ no page grew past its ceiling; ${overBudget} page(s) still over the 150 KB budget (known gap)`);
} else if (failed.length === 0) console.log("✔ all pages within budget");

const outDir = path.join(root, "bench/results");
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(
  path.join(outDir, "weight-latest.json"),
  JSON.stringify({ date: new Date().toISOString(), pages: rows }, null, 2),
);
process.exit(failed.length ? 1 : 0);
