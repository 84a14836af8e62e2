// `npm start`: build if the production build is missing or older than the sources,
// then serve it. Runs on the project's Node 24 (npm puts node_modules/.bin first).
import fs from "node:fs";
import path from "node:path";
import { buildIfNeeded, root } from "./lib/build.mjs";

// Variables from ./.env, if there is one (the real environment wins; see .env.example).
if (fs.existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));

buildIfNeeded();

process.env.NODE_ENV ??= "production";
// Production refuses test payments unless ALLOW_TEST_PAYMENTS=1 (decision 012). A newcomer's
// `npm install && npm start`, with nothing about payments configured, still runs the
// bannered test checkout; a deployment that names PAYMENTS or a Stripe key decides itself.
if (!process.env.PAYMENTS && !process.env.STRIPE_SECRET_KEY && !process.env.ALLOW_TEST_PAYMENTS) {
  process.env.ALLOW_TEST_PAYMENTS = "1";
  console.warn(
    "npm start: no STRIPE_SECRET_KEY or PAYMENTS configured, so test payments are allowed (ALLOW_TEST_PAYMENTS=1): " +
      "anyone can activate items for free. Configure Stripe before going live.",
  );
}
await import(path.join(root, "server.js"));
