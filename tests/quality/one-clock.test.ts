/**
 * One clock (decision 004, decision 060): app/server reads the time through `deps.clock`
 * or, outside a request, `systemClock` (app/server/clock.server.ts); nothing else calls
 * Date.now(), so a test that sets the clock sets it for every rule. Migrations are history
 * and are not held to it.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph";

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "migrations" ? [] : files(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe("one clock", () => {
  it("no module in app/server but the clock calls Date.now()", () => {
    const offenders = files(path.join(ROOT, "app/server"))
      .filter((f) => path.relative(ROOT, f) !== "app/server/clock.server.ts")
      .flatMap((f) =>
        fs
          .readFileSync(f, "utf8")
          .split("\n")
          .flatMap((line, i) => (/\bDate\.now\(\)/.test(line) ? [`${path.relative(ROOT, f)}:${i + 1}`] : [])),
      );
    expect(offenders).toEqual([]);
  });
});
