// `npm start`: build if the production build is missing or older than the sources,
// then serve it. Runs on the project's Node 24 (npm puts node_modules/.bin first).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const buildEntry = path.join(root, "build/server/index.js");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function needsBuild() {
  if (!fs.existsSync(buildEntry)) return true;
  const built = fs.statSync(buildEntry).mtimeMs;
  const sources = ["app", "server", "public"].map((d) => newestMtime(path.join(root, d)));
  const files = ["package.json", "vite.config.ts", "react-router.config.ts"].map(
    (f) => fs.statSync(path.join(root, f)).mtimeMs,
  );
  return Math.max(...sources, ...files) > built;
}

// Variables from ./.env, if there is one (the real environment wins; see .env.example).
if (fs.existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));

if (process.env.SKIP_BUILD !== "1" && needsBuild()) {
  console.log("Building the production bundle…");
  const r = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

process.env.NODE_ENV ??= "production";
await import(path.join(root, "server.js"));
