/**
 * docs/architecture.md names only files and functions that exist (decision 031): a rule
 * moved or renamed without the page following fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph";

const doc = fs.readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");

/** Backticked things that look like repository paths: a slash and no spaces. */
const paths = [...doc.matchAll(/`([^`\s]+\/[^`\s]*)`/g)].map((m) => m[1]!);

/** Table rows `| question | \`file\` | \`name\` |`. */
const rules = [...doc.matchAll(/^\|[^|\n]+\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|\s*$/gm)].map((m) => ({
  file: m[1]!,
  name: m[2]!,
}));

function declares(file: string, name: string): boolean {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  return new RegExp(`\\b(function|const|let|class|interface|type)\\s+${name}\\b`).test(text);
}

describe("docs/architecture.md", () => {
  it("has a table of about thirty rules", () => {
    expect(rules.length).toBeGreaterThanOrEqual(30);
  });

  it("names only paths that exist", () => {
    expect(paths.length).toBeGreaterThan(rules.length);
    expect(paths.filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  it("names, for each rule, a function the file declares", () => {
    expect(rules.filter((r) => !declares(r.file, r.name))).toEqual([]);
  });

  it("would notice a function that is gone", () => {
    expect(declares("app/lib/forms/form.ts", "parseForm")).toBe(true);
    expect(declares("app/lib/forms/form.ts", "noSuchFunction")).toBe(false);
  });
});
