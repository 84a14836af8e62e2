import path from "node:path";
import { defineConfig } from "vitest/config";

// Integration tests: real databases (SQLite, or PostgreSQL with DATABASE_URL=postgres://…)
// and the real production server over HTTP. Needs `npm run build` first.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/integration/**/*.test.ts"],
    // PostgreSQL-only suites (named *.pg.test.ts) run in the PostgreSQL leg only.
    exclude: /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "") ? [] : ["tests/integration/**/*.pg.test.ts"],
    environment: "node",
    setupFiles: ["tests/support/vitest-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
