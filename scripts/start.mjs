// `npm start`: build if the production build is missing or older than the sources,
// then serve it. Runs on the project's Node 24 (npm puts node_modules/.bin first).
import fs from "node:fs";
import path from "node:path";
import { buildIfNeeded, root } from "./lib/build.mjs";

// Variables from ./.env, if there is one (the real environment wins; see .env.example).
if (fs.existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));

buildIfNeeded();

process.env.NODE_ENV ??= "production";
await import(path.join(root, "server.js"));
