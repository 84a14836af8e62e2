/**
 * Whatever reads `useHydrated()` renders a second time right after hydration, at once and in
 * one task (React's forced re-render of a store that differs from the server's snapshot).
 * In a route component that is the whole page again, a long task on a phone's CPU; routes
 * give the value to a small subtree with <Hydrated> instead (app/components/Hydrated.tsx;
 * decision 045, "A second render of the whole page after hydration").
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph";

describe("useHydrated in leaves", () => {
  it("no route module imports useHydrated: a route's whole page would render again after hydration", () => {
    const dir = path.join(ROOT, "app/routes");
    const offenders = fs
      .readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      // The hook's module imported under any name; <Hydrated> is a component's module.
      .filter((f) => /from\s+["'][^"']*\/use-hydrated["']/.test(fs.readFileSync(path.join(dir, f), "utf8")))
      .map((f) => `app/routes/${f}`);
    expect(offenders).toEqual([]);
  });
});
