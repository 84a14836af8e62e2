/**
 * A page loads only the translation areas its route declares (`handle.i18n`) plus the
 * root's (ROOT_AREAS) before hydrating (docs/decisions/020). A key from any other area
 * would show as the raw key and differ from the server's HTML. This test reads every
 * route module the way a bundler does — from the exports the route table uses, through
 * each import to the declarations it names, app/** only, `.server.ts` modules included
 * because loader and action results carry message keys the page translates — and
 * collects every string or template literal that names a translation key.
 *
 * What counts as used (over-inclusion is harmless, omission is not):
 * - a string literal that is a key, a plural base of one (`items.count` for
 *   `items.count_one`) or an object of keys (`pageMeta(matches, "items.page")`);
 * - the fixed start of a template literal or a string ending in "." that begins a key
 *   (`` `errors.${code}` ``);
 * - not a literal that a `.server.ts` module passes straight to `t()`: the server
 *   translates it (it has every area) into a mail, a PDF or a Stripe line, and only the
 *   text travels.
 * A key built from nothing literal (`` t(`${area}.title`) ``) cannot be seen: give such
 * code a literal prefix.
 *
 * Server-only texts (locales/<lang>/server/<area>.json: mails) never reach the browser, so
 * no page may name one the way it names a key it renders: the same finder, with the
 * server-only keys, fails on any such literal that the server does not translate itself.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT_AREAS } from "./areas";

const appDir = path.resolve(import.meta.dirname, "..");
const localesDir = path.join(appDir, "locales/en");

function flatten(value: unknown, prefix: string): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => flatten(v, `${prefix}.${k}`));
}

const AREAS = fs
  .readdirSync(localesDir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.replace(/\.json$/, ""));
const KEYS = AREAS.flatMap((area) =>
  flatten(JSON.parse(fs.readFileSync(path.join(localesDir, `${area}.json`), "utf8")), area),
);
const serverDir = path.join(localesDir, "server");
const SERVER_KEYS = fs
  .readdirSync(serverDir)
  .filter((f) => f.endsWith(".json"))
  .flatMap((f) => flatten(JSON.parse(fs.readFileSync(path.join(serverDir, f), "utf8")), f.replace(/\.json$/, "")));
/** Pseudo-area of literals naming a server-only key: no page can load it. */
const SERVER_ONLY = "server-only";

function names(keys: readonly string[], text: string, isPrefix: boolean) {
  return isPrefix || text.endsWith(".")
    ? keys.some((k) => k.startsWith(text))
    : keys.some((k) => k === text || k.startsWith(`${text}_`) || k.startsWith(`${text}.`));
}

/** The area a literal names, SERVER_ONLY for a server-only key, or null. */
function areaOfLiteral(text: string, isPrefix: boolean): string | null {
  if (!text.includes(".")) return null;
  if (names(KEYS, text, isPrefix)) return text.slice(0, text.indexOf("."));
  // A prefix shared with browser keys (`relay.`) was answered above.
  return names(SERVER_KEYS, text, isPrefix) ? SERVER_ONLY : null;
}

/** One top-level declaration (or the module's side-effect statements): its keys and names it uses. */
interface Part {
  areas: Map<string, string>;
  refs: Set<string>;
  /** Modules it imports dynamically: all of each. */
  dynamic: string[];
}

interface ModuleInfo {
  file: string;
  /** Top-level value declarations by local name. */
  parts: Map<string, Part>;
  /** Statements that run on import: always part of the page. */
  effects: Part;
  /** Exported name → local name, or another module's export. */
  exports: Map<string, { local: string } | { file: string; name: string }>;
  starExports: string[];
  /** Local name → the module and export it is bound to ("*": the whole module). */
  imports: Map<string, { file: string; name: string }>;
}

function resolveImport(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("~/")) base = path.join(appDir, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null; // a package
  base = base.replace(/\?.*$/, "");
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null; // JSON, stylesheets, assets: no code
}

const modules = new Map<string, ModuleInfo>();

function moduleInfo(file: string): ModuleInfo {
  const cached = modules.get(file);
  if (cached) return cached;
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const serverModule = /\.server\.tsx?$/.test(file);
  const info: ModuleInfo = {
    file,
    parts: new Map(),
    effects: { areas: new Map(), refs: new Set(), dynamic: [] },
    exports: new Map(),
    starExports: [],
    imports: new Map(),
  };

  /** A literal the server translates itself: the first argument of `t(…)` / `x.t(…)`, through ?: and ??. */
  const translatedOnServer = (node: ts.Node) => {
    if (!serverModule) return false;
    let at: ts.Node = node;
    while (
      at.parent &&
      (ts.isConditionalExpression(at.parent) ||
        ts.isParenthesizedExpression(at.parent) ||
        ts.isBinaryExpression(at.parent))
    ) {
      at = at.parent;
    }
    const call = at.parent;
    if (!call || !ts.isCallExpression(call) || call.arguments[0] !== at) return false;
    const callee = call.expression;
    return (
      (ts.isIdentifier(callee) && callee.text === "t") ||
      (ts.isPropertyAccessExpression(callee) && callee.name.text === "t")
    );
  };

  const collect = (root: ts.Node, part: Part) => {
    const visit = (node: ts.Node): void => {
      if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        const area = translatedOnServer(node) ? null : areaOfLiteral(node.text, false);
        if (area && !part.areas.has(area)) part.areas.set(area, node.text);
      } else if (ts.isTemplateExpression(node)) {
        const area = translatedOnServer(node) ? null : areaOfLiteral(node.head.text, true);
        if (area && !part.areas.has(area)) part.areas.set(area, `${node.head.text}…`);
      } else if (ts.isIdentifier(node)) {
        const parent = node.parent;
        const isMemberName =
          (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
          (ts.isPropertyAssignment(parent) && parent.name === node) ||
          (ts.isJsxAttribute(parent) && parent.name === node);
        if (!isMemberName) part.refs.add(node.text);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        const target = resolveImport(file, node.arguments[0].text);
        if (target) part.dynamic.push(target);
      }
      ts.forEachChild(node, visit);
    };
    visit(root);
  };

  const newPart = (): Part => ({ areas: new Map(), refs: new Set(), dynamic: [] });
  const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const target = resolveImport(file, (statement.moduleSpecifier as ts.StringLiteral).text);
      if (!target || clause?.isTypeOnly) continue;
      if (!clause) {
        // `import "./x"` runs the whole module.
        info.effects.dynamic.push(target);
        continue;
      }
      if (clause.name) info.imports.set(clause.name.text, { file: target, name: "default" });
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) info.imports.set(bindings.name.text, { file: target, name: "*" });
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) {
          if (!el.isTypeOnly) info.imports.set(el.name.text, { file: target, name: (el.propertyName ?? el.name).text });
        }
      }
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) continue;
      const target = statement.moduleSpecifier
        ? resolveImport(file, (statement.moduleSpecifier as ts.StringLiteral).text)
        : null;
      if (statement.moduleSpecifier && !target) continue;
      const clause = statement.exportClause;
      if (!clause) {
        if (target) info.starExports.push(target);
      } else if (ts.isNamespaceExport(clause)) {
        if (target) info.exports.set(clause.name.text, { file: target, name: "*" });
      } else {
        for (const el of clause.elements) {
          if (el.isTypeOnly) continue;
          const inner = (el.propertyName ?? el.name).text;
          info.exports.set(el.name.text, target ? { file: target, name: inner } : { local: inner });
        }
      }
    } else if (ts.isExportAssignment(statement)) {
      const part = newPart();
      collect(statement.expression, part);
      info.parts.set("default", part);
      info.exports.set("default", { local: "default" });
    } else if (
      ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isEnumDeclaration(statement)
    ) {
      if (ts.isFunctionDeclaration(statement) && !statement.body) continue; // an overload signature
      const part = newPart();
      collect(statement, part);
      const name = statement.name?.text ?? "default";
      info.parts.set(name, part);
      if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
        info.exports.set(hasModifier(statement, ts.SyntaxKind.DefaultKeyword) ? "default" : name, { local: name });
      }
    } else if (ts.isVariableStatement(statement)) {
      const exported = hasModifier(statement, ts.SyntaxKind.ExportKeyword);
      for (const decl of statement.declarationList.declarations) {
        const part = newPart();
        collect(decl, part);
        const names: string[] = [];
        const bind = (name: ts.BindingName) => {
          if (ts.isIdentifier(name)) names.push(name.text);
          else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bind(el.name);
        };
        bind(decl.name);
        for (const name of names) {
          info.parts.set(name, part);
          if (exported) info.exports.set(name, { local: name });
        }
      }
    } else if (
      !ts.isInterfaceDeclaration(statement) &&
      !ts.isTypeAliasDeclaration(statement) &&
      !ts.isModuleDeclaration(statement)
    ) {
      collect(statement, info.effects);
    }
  }
  modules.set(file, info);
  return info;
}

/** Every area the given exports of `file` can render, with one literal per area as evidence. */
function areasUsedBy(file: string, exportNames: readonly string[] | "*") {
  const used = new Map<string, string>();
  const seen = new Set<string>();
  const queue: { file: string; name: string }[] =
    exportNames === "*" ? [{ file, name: "*" }] : exportNames.map((name) => ({ file, name }));
  const touched = new Set<string>();

  const addPart = (info: ModuleInfo, part: Part) => {
    for (const [area, literal] of part.areas) {
      if (!used.has(area)) used.set(area, `${path.relative(appDir, info.file)}: "${literal}"`);
    }
    for (const target of part.dynamic) queue.push({ file: target, name: "*" });
    for (const ref of part.refs) {
      if (info.parts.has(ref)) queue.push({ file: info.file, name: `local:${ref}` });
      const imported = info.imports.get(ref);
      if (imported) queue.push(imported);
    }
  };

  while (queue.length) {
    const item = queue.pop()!;
    const id = `${item.file}#${item.name}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = moduleInfo(item.file);
    if (!touched.has(info.file)) {
      touched.add(info.file);
      addPart(info, info.effects);
    }
    if (item.name.startsWith("local:")) {
      const local = item.name.slice("local:".length);
      const part = info.parts.get(local);
      if (part) addPart(info, part);
      // `import { x } from "…"; export { x };`
      const imported = info.imports.get(local);
      if (imported) queue.push(imported);
    } else if (item.name === "*") {
      for (const part of info.parts.values()) addPart(info, part);
      for (const [name] of info.exports) queue.push({ file: info.file, name });
      for (const target of info.starExports) queue.push({ file: target, name: "*" });
    } else {
      const exported = info.exports.get(item.name);
      if (exported && "local" in exported) queue.push({ file: info.file, name: `local:${exported.local}` });
      else if (exported) queue.push(exported);
      else for (const target of info.starExports) queue.push({ file: target, name: item.name });
    }
  }
  return used;
}

/** The route modules of app/routes.ts. */
function routeFiles(): string[] {
  const table = fs.readFileSync(path.join(appDir, "routes.ts"), "utf8");
  return [...new Set([...table.matchAll(/"(routes\/[^"]+\.tsx?)"/g)].map((m) => m[1]!))];
}

const routeModules = import.meta.glob<Record<string, unknown>>("../routes/*.{ts,tsx}");

async function declaredAreas(route: string) {
  const load = routeModules[`../${route}`];
  if (!load) throw new Error(`${route} is in app/routes.ts but not in app/routes/`);
  const mod = await load();
  const handle = mod.handle as { i18n?: unknown } | undefined;
  return { renders: "default" in mod, declared: handle?.i18n as readonly string[] | undefined };
}

function missing(used: Map<string, string>, loaded: Iterable<string>) {
  const have = new Set(loaded);
  return [...used].filter(([area]) => !have.has(area)).map(([area, evidence]) => `${area} (${evidence})`);
}

describe("translation areas per page", () => {
  it("the root declares every area the layout, its header, footer, consent and error screens render", () => {
    // The whole root module: Layout, ErrorBoundary, meta and loader are on every page.
    // SERVER_ONLY is no area: a server-only key named here is reported as missing.
    expect(missing(areasUsedBy(path.join(appDir, "root.tsx"), "*"), ROOT_AREAS)).toEqual([]);
  });

  it("every page declares the translation areas it can render, beyond the root's", async () => {
    const problems: string[] = [];
    const routes = routeFiles();
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const { renders, declared } = await declaredAreas(route);
      // A resource route (no component) renders no page of its own: nothing to load.
      if (!renders) continue;
      if (!Array.isArray(declared)) {
        problems.push(`${route}: no handle.i18n`);
        continue;
      }
      const unknown = declared.filter((a) => !AREAS.includes(a));
      const used = areasUsedBy(path.join(appDir, route), "*");
      const serverOnly = used.get(SERVER_ONLY);
      if (serverOnly) problems.push(`${route} can render a server-only key (locales/<lang>/server): ${serverOnly}`);
      used.delete(SERVER_ONLY);
      if (unknown.length) problems.push(`${route}: declares unknown areas ${unknown.join(", ")}`);
      // Everything the route table uses: the component, loader, action, meta, handle, ….
      const gaps = missing(used, [...ROOT_AREAS, ...declared]);
      if (gaps.length) problems.push(`${route} renders keys from undeclared areas: ${gaps.join("; ")}`);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});

describe("the key finder itself", () => {
  it("sees keys, plural bases, key objects and template prefixes, and nothing else", () => {
    expect(areaOfLiteral("layout.menu.dashboard", false)).toBe("layout");
    expect(areaOfLiteral("layout.menu.unread", false)).toBe("layout");
    expect(areaOfLiteral("items.page", false)).toBe("items");
    expect(areaOfLiteral("errors.", true)).toBe("errors");
    expect(areaOfLiteral("itemTypes.", false)).toBe("itemTypes");
    expect(areaOfLiteral("orders.id", false)).toBeNull(); // an SQL column, not a key
    expect(areaOfLiteral("items", false)).toBeNull();
    expect(areaOfLiteral("app.scss", false)).toBeNull();
  });

  it("tells a server-only key (a mail text) from a browser key, so no page can name one", () => {
    expect(areaOfLiteral("relay.mail.owner.subject", false)).toBe(SERVER_ONLY);
    expect(areaOfLiteral("scans.inactiveMail.", true)).toBe(SERVER_ONLY);
    expect(areaOfLiteral("relay.form.send", false)).toBe("relay");
    expect(areaOfLiteral("relay.", true)).toBe("relay");
  });

  it("follows a route's imports to the keys of the declarations it uses", () => {
    // dashboard.tsx → components/ItemCard.tsx → `itemTypes.${…}` and the dashboard area.
    const used = areasUsedBy(path.join(appDir, "routes/dashboard.tsx"), "*");
    expect([...used.keys()]).toEqual(expect.arrayContaining(["dashboard", "itemTypes", "layout"]));
    // The finder page's form kit, through the re-export of the short URL's module.
    expect([...areasUsedBy(path.join(appDir, "routes/item-short.tsx"), ["default"]).keys()]).toContain("relay");
  });
});
