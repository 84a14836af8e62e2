// Shared by `npm start`, `npm run bench`, `bench:weight` and `lighthouse`: build the
// production bundle only when it is missing or older than the sources.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");
const buildEntry = path.join(root, "build/server/index.js");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

export function needsBuild() {
  if (!fs.existsSync(buildEntry)) return true;
  const built = fs.statSync(buildEntry).mtimeMs;
  const sources = ["app", "server", "public"].map((d) => newestMtime(path.join(root, d)));
  const files = ["package.json", "vite.config.ts", "react-router.config.ts"].map(
    (f) => fs.statSync(path.join(root, f)).mtimeMs,
  );
  return Math.max(...sources, ...files) > built;
}

/** Builds when needed (SKIP_BUILD=1 never builds); exits the process if the build fails. */
export function buildIfNeeded() {
  if (process.env.SKIP_BUILD === "1" || !needsBuild()) return;
  console.log("Building the production bundle…");
  const r = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
