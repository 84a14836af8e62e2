/**
 * Sizes a reader can hold in their head (decision 039): lines per file under app/server,
 * lines of a route module's loader plus action, lines of server/app.ts.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export function filesUnder(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(rel, ext));
    else if (ext.test(entry.name)) out.push(rel);
  }
  return out.sort();
}

export function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** Lines of the module's exported `loader` and `action` (function or const), together. */
export function loaderActionLines(text: string, fileName = "route.tsx"): number {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  let lines = 0;
  const span = (node: ts.Node) => {
    const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
    const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
    return end - start + 1;
  };
  for (const stmt of source.statements) {
    if (ts.isFunctionDeclaration(stmt) && (stmt.name?.text === "loader" || stmt.name?.text === "action")) {
      lines += span(stmt);
    } else if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && (d.name.text === "loader" || d.name.text === "action")) lines += span(stmt);
      }
    }
  }
  return lines;
}
