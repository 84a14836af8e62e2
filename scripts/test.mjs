// `npm test`: the whole suite, in the order that fails fastest.
//   npm test                 typecheck, lint, unit, build, page weight, integration, end-to-end
//   npm test -- --db-only    only the database-touching suites (CI's PostgreSQL leg)
// The database is SQLite unless DATABASE_URL=postgres://… is set.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

const dbOnly = process.argv.includes("--db-only");
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

// Steps that do not depend on each other run side by side (CI has two cores and these
// steps wait on disk as much as on the CPU); each one's output is printed when it ends,
// so the log reads like the sequential one.
function runTogether(group) {
  if (group.length === 1) return Promise.resolve(run(...group[0]));
  return Promise.all(
    group.map(
      ([name, cmd, args]) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(cmd, args, { env: { ...process.env, FORCE_COLOR: "0" } });
          let output = "";
          child.stdout.on("data", (c) => (output += c));
          child.stderr.on("data", (c) => (output += c));
          // A command that cannot start (not installed): its step fails with the reason.
          child.on("error", (err) => (output += `${err.message}\n`));
          child.on("close", (status) => {
            const secs = ((Date.now() - started) / 1000).toFixed(1);
            console.log(`\n▶ ${name}`);
            if (output.trim()) process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
            console.log(status === 0 ? `✔ ${name} (${secs}s)` : `\n✖ ${name} failed after ${secs}s`);
            resolve({ name, status });
          });
        }),
    ),
  ).then((results) => {
    const failed = results.filter((r) => r.status !== 0);
    if (failed.length > 0) {
      console.log(`steps: 0 passed, ${failed.length} failed`);
      process.exit(failed[0].status ?? 1);
    }
  });
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

// Each entry is a group of steps run side by side; groups run one after the other.
const groups = [];
const building = !(process.env.SKIP_BUILD === "1" && fs.existsSync("build/server/index.js"));
const build = ["build", "npm", ["run", "-s", "build"]];
if (!dbOnly) {
  ensureChromium();
  groups.push([
    ["typecheck", "npm", ["run", "-s", "typecheck"]],
    ["lint", "npm", ["run", "-s", "lint"]],
    ["format check", "npx", ["prettier", "--check", "--log-level", "warn", "."]],
  ]);
  groups.push([["unit tests", "npx", ["vitest", "run"]], ...(building ? [build] : [])]);
}
// SKIP_BUILD=1 reuses build/ as is (CI's PostgreSQL leg runs right after a full build).
if (dbOnly && building) groups.push([build]);
// What a browser downloads per page (fast: four pages in one Chromium). --ceilings: see the script.
if (!dbOnly) groups.push([["page weight", "npx", ["tsx", "scripts/bench-weight.ts", "--ceilings"]]]);
groups.push([["integration tests", "npx", ["vitest", "run", "--config", "vitest.integration.config.ts"]]]);
if (!dbOnly) groups.push([["end-to-end tests", "npx", ["playwright", "test"]]]);

for (const group of groups) await runTogether(group);
console.log(`\nsteps: ${groups.flat().length} passed, 0 failed`);
