import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests: beside the code (app/**/*.test.ts[x]), no server, no database files.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "scripts/**/*.test.ts", "tests/quality/**/*.test.ts"],
    environment: "node",
    setupFiles: ["tests/support/vitest-setup.ts"],
    pool: "threads",
    maxWorkers: 2,
  },
});
