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

/** A route module's exports that run only on the server (React Router framework mode). */
export const SERVER_EXPORTS = new Set(["loader", "action", "headers", "middleware"]);

/**
 * Lines of a route module's server code (decision 059): its `loader`, `action`, `headers`
 * and `middleware` exports, and every top-level declaration (function, constant, type,
 * interface, class) they use, directly or through another, that no other export uses.
 * What the component, `meta`, `handle`, `links` or an ErrorBoundary also uses is shared
 * code and not counted; imports are not counted.
 */
export function serverCodeLines(text: string, fileName = "route.tsx"): number {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const span = (node: ts.Node) => {
    const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
    const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
    return end - start + 1;
  };
  const declared = new Map<string, ts.Statement>();
  const exported = new Map<ts.Statement, string[]>();
  for (const stmt of source.statements) {
    const names = declaredNames(stmt);
    for (const name of names) declared.set(name, stmt);
    const isExport =
      ts.canHaveModifiers(stmt) && ts.getModifiers(stmt)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const isDefault =
      ts.canHaveModifiers(stmt) && ts.getModifiers(stmt)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (isDefault || ts.isExportAssignment(stmt)) exported.set(stmt, ["default"]);
    else if (isExport) exported.set(stmt, names);
  }
  const uses = (stmt: ts.Statement) => {
    const found = new Set<ts.Statement>();
    const visit = (node: ts.Node) => {
      if (ts.isIdentifier(node)) {
        const target = declared.get(node.text);
        if (target && target !== stmt) found.add(target);
      }
      ts.forEachChild(node, visit);
    };
    visit(stmt);
    return found;
  };
  const reach = (roots: ts.Statement[]) => {
    const seen = new Set<ts.Statement>(roots);
    const queue = [...roots];
    while (queue.length) {
      for (const next of uses(queue.pop()!)) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    return seen;
  };
  const roots = [...exported.entries()];
  const server = reach(roots.filter(([, names]) => names.some((n) => SERVER_EXPORTS.has(n))).map(([s]) => s));
  const client = reach(roots.filter(([, names]) => !names.some((n) => SERVER_EXPORTS.has(n))).map(([s]) => s));
  let lines = 0;
  for (const stmt of server)
    if (!client.has(stmt) || SERVER_EXPORTS.has(exported.get(stmt)?.[0] ?? "")) lines += span(stmt);
  return lines;
}

function declaredNames(stmt: ts.Statement): string[] {
  if (ts.isImportDeclaration(stmt)) return [];
  if (ts.isVariableStatement(stmt)) {
    return stmt.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  }
  if (
    (ts.isFunctionDeclaration(stmt) ||
      ts.isClassDeclaration(stmt) ||
      ts.isTypeAliasDeclaration(stmt) ||
      ts.isInterfaceDeclaration(stmt) ||
      ts.isEnumDeclaration(stmt)) &&
    stmt.name
  ) {
    return [stmt.name.text];
  }
  return [];
}

/** The route modules: every module of app/routes and the root route (app/root.tsx), which loads on every page. */
export function routeModules(): string[] {
  return [...filesUnder("app/routes", /\.tsx?$/).filter((f) => !/\.test\.tsx?$/.test(f)), "app/root.tsx"];
}
