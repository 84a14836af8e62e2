// `npm test`: the whole suite, in the order that fails fastest.
//   npm test                 typecheck, lint, format check, unit, build, page weight,
//                            signed-in Lighthouse, integration, end-to-end
//   npm test -- --db-only    only the database-touching suites (CI's PostgreSQL leg)
// The database is SQLite unless DATABASE_URL=postgres://… is set.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const dbOnly = process.argv.includes("--db-only");
/**
 * The service tests of the money paths: orders, payments, renewals, withdrawal, alert
 * fan-out, trusted contacts, and the SMS finders (every SMS costs). Each folder must exist:
 * a filter that names a moved folder would run nothing without a word (checked below).
 */
const MONEY_SERVICE_TESTS = [
  "app/server/orders/",
  "app/server/alerts/",
  "app/server/trusted-contacts/",
  "app/server/recipients/",
  "app/server/sms-finder/",
  // Not money, but rules whose races only PostgreSQL shows (idempotency claims, one delivery per endpoint).
  "app/server/api/",
  "app/server/webhooks/",
];
for (const dir of MONEY_SERVICE_TESTS) {
  if (!fs.existsSync(dir)) {
    console.error(`scripts/test.mjs: ${dir} does not exist; MONEY_SERVICE_TESTS names a moved folder`);
    process.exit(1);
  }
}
const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

function run(name, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.log(`\n✖ ${name} failed after ${secs}s`);
    console.log(`steps: 0 passed, 1 failed`);
    process.exit(r.status ?? 1);
  }
  console.log(`✔ ${name} (${secs}s)`);
}

function ensureChromium() {
  if (fs.existsSync(chromium)) return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (isRoot && hasApt) {
    console.log("Chromium not found: installing Debian's chromium package…");
    run("apt-get update", "apt-get", ["update", "-qq"]);
    run("apt-get install chromium", "apt-get", ["install", "-y", "-qq", "chromium"]);
    return;
  }
  console.error(
    `Chromium not found at ${chromium}: install it (Debian: sudo apt-get install chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}

const steps = [];
if (!dbOnly) {
  ensureChromium();
  steps.push(["typecheck", "npm", ["run", "-s", "typecheck"]]);
  steps.push(["lint", "npm", ["run", "-s", "lint"]]);
  steps.push(["format check", "npx", ["prettier", "--check", "--log-level", "warn", "."]]);
  steps.push(["unit tests", "npx", ["vitest", "run"]]);
}
// SKIP_BUILD=1 reuses build/ as is (CI's PostgreSQL leg runs right after a full build).
if (!(process.env.SKIP_BUILD === "1" && fs.existsSync("build/server/index.js"))) {
  steps.push(["build", "npm", ["run", "-s", "build"]]);
}
// What a browser downloads per page (fast: four pages in one Chromium): every budget (decision 021).
if (!dbOnly) steps.push(["page weight", "npx", ["tsx", "scripts/bench-weight.ts"]]);
// The signed-in pages on Lighthouse's mobile settings, medians of five (decision 045,
// "The signed-in Lighthouse gate"; ~2 minutes). The anonymous pages' scores stay in `npm run lighthouse`.
if (!dbOnly) {
  steps.push(["Lighthouse, signed in", "npx", ["tsx", "scripts/lighthouse.ts"], { LIGHTHOUSE_PAGES: "signed-in" }]);
}
steps.push(["integration tests", "npx", ["vitest", "run", "--config", "vitest.integration.config.ts"]]);
// The money paths' service specs on PostgreSQL too: the SQLite leg ran them with the unit tests.
if (dbOnly && /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "")) {
  steps.push([
    "money service tests on PostgreSQL",
    "npx",
    ["vitest", "run", ...MONEY_SERVICE_TESTS, "--testTimeout", "30000", "--hookTimeout", "60000"],
    { SERVICE_TESTS_ON_POSTGRES: "1" },
  ]);
}
if (!dbOnly) steps.push(["end-to-end tests", "npx", ["playwright", "test"]]);

for (const [name, cmd, args, env] of steps) run(name, cmd, args, env);
console.log(`\nsteps: ${steps.length} passed, 0 failed`);
