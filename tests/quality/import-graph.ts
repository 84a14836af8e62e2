/**
 * The import graph of app/: every static import, re-export and `import type` (a type-only
 * import closes a cycle for the reader just as much as a value import does), resolved to
 * files. Dynamic `import()` calls are edges too. Shared by the import-cycle test.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const ROOT = path.resolve(import.meta.dirname, "../..");
const APP = path.join(ROOT, "app");
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

export function sourceFiles(dir = APP): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

function resolve(from: string, spec: string): string | undefined {
  let base: string;
  if (spec.startsWith("~/")) base = path.join(APP, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return undefined;
  if (/\.tsx?$/.test(base) && fs.existsSync(base)) return base;
  for (const ext of EXTENSIONS) if (fs.existsSync(base + ext)) return base + ext;
  return undefined;
}

/** file → files it imports (absolute paths; only files under app/). */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const targets = info.importedFiles
      .map((f) => resolve(file, f.fileName))
      .filter((t): t is string => t !== undefined && t.startsWith(APP));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as a list of paths relative to the root. */
export function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const s = state.get(next);
      if (s === "open") found.push([...stack.slice(stack.indexOf(next)), next].map((p) => path.relative(ROOT, p)));
      else if (s === undefined) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}
