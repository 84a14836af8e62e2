/**
 * Who may do what is decided in one table, app/lib/domain/permissions.ts (decision 060): no code
 * outside it compares a role to a literal or reads the staff flag to decide. Comparing two
 * roles with each other (is this change a change at all?) and mapping stored values to roles
 * are not decisions and stay where they are.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph";

/** Where the flag and the roles are defined, read and mapped, not decided on. */
const ALLOWED = new Set([
  "app/lib/domain/permissions.ts",
  "app/lib/domain/organisation-roles.ts",
  "app/lib/domain/session-user.ts",
  "app/server/auth/session.server.ts",
]);

const INLINE = [
  /\brole\s*[!=]==?\s*["'](admin|member)["']/,
  /["'](admin|member)["']\s*[!=]==?\s*\w*\.?role\b/,
  /\.isAdmin\b(?!\s*:)/,
];

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "migrations" ? [] : files(p);
    return /\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe("one permission table", () => {
  it("no module outside the table compares a role to a literal or reads the staff flag", () => {
    const offenders: string[] = [];
    for (const file of files(path.join(ROOT, "app"))) {
      const rel = path.relative(ROOT, file);
      if (ALLOWED.has(rel)) continue;
      fs.readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (INLINE.some((re) => re.test(line))) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
