/**
 * One way to handle a form (decision 059): a route's action goes through formAction /
 * intentAction (app/server/http/form-action.server.ts), a loader's refusal through
 * orErrorPage, so the parsing, the field errors and the mapping of service errors are
 * written once. A route's own try/catch is the exception and says why, in a comment on the
 * line above it or inside it.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, routeModules } from "./sizes";

/** The try statements of a module that have no comment on the line above them or inside them. */
export function uncommentedTries(text: string, fileName = "route.tsx"): number[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lines = text.split("\n");
  const out: number[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isTryStatement(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const above = lines[line - 1] ?? "";
      const inside = text.slice(node.getStart(source), node.getEnd());
      if (!/^\s*(\/\/|\/\*|\*)/.test(above) && !hasComment(inside, fileName)) out.push(line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** True when the code holds a comment (the scanner tells comments from strings that look like them). */
function hasComment(code: string, fileName: string): boolean {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, fileName.endsWith("x") ? 1 : 0, code);
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) return true;
  }
  return false;
}

describe("a route's own try/catch says why (decision 059)", () => {
  it("finds a try without a comment, and accepts one with a comment above or inside", () => {
    const bare = ["async function f() {", "  try {", "    await g();", "  } catch {", "    return 1;", "  }", "}"];
    expect(uncommentedTries(bare.join("\n"))).toEqual([2]);
    const above = [...bare];
    above.splice(1, 0, "  // g's refusal is the page's own message.");
    expect(uncommentedTries(above.join("\n"))).toEqual([]);
    const inside = bare.map((l) => (l.includes("return 1") ? "    return 1; // a body that is not JSON" : l));
    expect(uncommentedTries(inside.join("\n"))).toEqual([]);
    const stringOnly = bare.map((l) => (l.includes("await g()") ? '    await g("// not a comment");' : l));
    expect(uncommentedTries(stringOnly.join("\n"))).toEqual([2]);
  });

  it("no route module, the root route's included, has a try/catch without a comment saying why", () => {
    const routes = routeModules();
    expect(routes.length).toBeGreaterThan(50);
    const found = routes
      .map((f) => [f, uncommentedTries(fs.readFileSync(path.join(ROOT, f), "utf8"), f)] as const)
      .filter(([, lines]) => lines.length > 0);
    expect(found).toEqual([]);
  }, 60_000);
});
