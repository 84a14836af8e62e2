/**
 * Comments cite the decision record that holds a rule ("decision 040"), never an issue
 * number (decision 031: findable by name). An issue says what was asked; the decision says
 * what was chosen and why, and stays in the repository. Only comments are checked: test
 * names and strings may still say where a case came from.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph";

/** The folders whose comments are held to the rule: all the code. */
const SCOPE = ["app", "server", "scripts", "tests"];

const ISSUE = /\bissues? #\d+/i;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return /\.(tsx?|m?js|scss)$/.test(e.name) ? [p] : [];
  });
}

/** The text of every comment in a TypeScript/JavaScript source, JSX comments included. */
export function comments(fileName: string, text: string): string[] {
  if (fileName.endsWith(".scss")) return [...text.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
  const kind = fileName.endsWith(".tsx")
    ? ts.ScriptKind.TSX
    : fileName.endsWith("js")
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Map<number, string>();
  const visit = (node: ts.Node) => {
    for (const r of [
      ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.end) ?? []),
    ])
      seen.set(r.pos, text.slice(r.pos, r.end));
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  return [...seen.values()];
}

/** "file: comment" for each comment citing an issue number. */
function offenders(file: string, text: string): string[] {
  if (!ISSUE.test(text)) return [];
  return comments(file, text)
    .filter((c) => ISSUE.test(c))
    .map((c) => `${path.relative(ROOT, file)}: ${c.replace(/\s+/g, " ").slice(0, 160)}`);
}

describe("comments cite decisions, not issues", () => {
  it.each(SCOPE)("no comment under %s cites an issue number", (dir) => {
    const found = files(path.join(ROOT, dir)).flatMap((f) => offenders(f, fs.readFileSync(f, "utf8")));
    expect(found).toEqual([]);
  });

  it("would notice a comment, a JSDoc or a JSX comment citing an issue, and not a test name", () => {
    const source = [
      "// the limit (issue #29)",
      "/** Trusted contacts (Issue #33 point 1). */",
      "const a = <div>{/* the card (issue #32 point 4) */}</div>;",
      'describe("the flood (issue #29)", () => {});',
      "// the limit (decision 029)",
    ].join("\n");
    expect(offenders("x.tsx", source)).toHaveLength(3);
  });
});
