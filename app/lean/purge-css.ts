/**
 * Drops the CSS rules a page cannot use: the site stylesheet at build time
 * (scripts/lib/vite-purge-css.ts) and the lean finder page's inline stylesheet at start-up
 * (docs/decisions/020).
 */

/**
 * The rules of `source` whose selectors can match on a page using `words`: a rule stays
 * when one of its selectors has only classes in `words`. Classes inside a functional
 * pseudo-class (`:not(.show)`, `:is(…)`) or an attribute selector do not count: `.fade:not(.show)`
 * matches wherever `.fade` is, used or not. Comments are dropped.
 */
export function purgeCss(source: string, words: ReadonlySet<string>): string {
  return dropUnreadVariables(purgeRules(source.replace(/\/\*[\s\S]*?\*\//g, ""), words), words);
}

/**
 * Drops the declarations of Bootstrap's custom properties (`--bs-…`) that nothing reads:
 * no `var(--bs-…)` in what is left of the stylesheet, and not a word of the code (a style
 * attribute may read or set one). Bootstrap declares about 300 for theming, on `:root`
 * and on each component, and a third of those the site keeps are read by no rule it
 * keeps (0.8 KB of the finder page's 11 KB). Dropping one can leave another unread, so
 * this repeats until nothing changes. Other custom properties stay: a web component
 * (ALTCHA) reads its own inside its shadow DOM, where this cannot see. A name the code
 * builds at run time (`--bs-${x}`) is not a word: list such a name in a comment of the
 * code that builds it. Reads Sass's output (no CSS nesting); only `@media` and `@supports`
 * blocks are looked into, other at-rules are kept as they are.
 */
export function dropUnreadVariables(css: string, words: ReadonlySet<string>): string {
  for (;;) {
    const read = new Set([...css.matchAll(/var\(\s*(--bs-[\w-]+)/g)].map((m) => m[1]!));
    const unread = (declaration: string) => {
      const name = /^\s*(--bs-[\w-]+)\s*:/.exec(declaration)?.[1];
      return name !== undefined && !read.has(name) && !words.has(name);
    };
    const next = mapRuleBodies(css, (body) => {
      const declarations = splitDeclarations(body);
      return declarations.some(unread) ? declarations.filter((d) => !unread(d)).join(";") : body;
    });
    if (next === css) return css;
    css = next;
  }
}

/** `source` with each style rule's declarations passed through `map`; a rule left empty goes. */
function mapRuleBodies(source: string, map: (body: string) => string): string {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf("{", i);
    const semicolon = source.indexOf(";", i);
    if (open < 0 || (semicolon >= 0 && semicolon < open)) {
      const end = open < 0 ? source.length : semicolon + 1;
      out += source.slice(i, end);
      i = end;
      continue;
    }
    const prelude = source.slice(i, open);
    const close = matchingBrace(source, open);
    const body = source.slice(open + 1, close);
    if (/^\s*@(media|supports)/.test(prelude)) {
      const inner = mapRuleBodies(body, map);
      if (inner.trim()) out += `${prelude}{${inner}}`;
    } else if (prelude.trim().startsWith("@")) {
      out += `${prelude}{${body}}`;
    } else {
      const mapped = map(body);
      if (mapped.trim()) out += `${prelude}{${mapped}}`;
    }
    i = close + 1;
  }
  return out;
}

/** The index of the `}` closing the `{` at `open` (strings may hold braces). */
function matchingBrace(source: string, open: number): number {
  let depth = 0;
  let quote = "";
  for (let j = open; j < source.length; j++) {
    const ch = source[j]!;
    if (quote) {
      if (ch === "\\") j++;
      else if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return j;
  }
  return source.length;
}

/** A rule body split at its top-level semicolons (not those in strings or url(…)). */
function splitDeclarations(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let j = 0; j < body.length; j++) {
    const ch = body[j]!;
    if (quote) {
      if (ch === "\\") j++;
      else if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === ";" && depth === 0) {
      out.push(body.slice(start, j));
      start = j + 1;
    }
  }
  out.push(body.slice(start));
  return out.filter((d) => d.trim() !== "");
}

/** `selector` split at its top-level commas, each without its (…) and […] groups. */
function outerSelectors(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of selector) {
    if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    else if (depth === 0 && ch === ",") {
      parts.push(current);
      current = "";
    } else if (depth === 0) current += ch;
  }
  parts.push(current);
  return parts;
}

function purgeRules(source: string, words: ReadonlySet<string>): string {
  const keepSelector = (selector: string) =>
    outerSelectors(selector).some((one) => [...one.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].every((m) => words.has(m[1]!)));
  let out = "";
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf("{", i);
    if (open < 0) break;
    // A statement at-rule (`@charset "UTF-8";`) before the next block is kept as it is.
    const semicolon = source.indexOf(";", i);
    if (semicolon >= 0 && semicolon < open) {
      out += `${source.slice(i, semicolon + 1).trim()}`;
      i = semicolon + 1;
      continue;
    }
    const prelude = source.slice(i, open).trim();
    // The matching brace (declarations hold none; grouping at-rules nest once).
    let depth = 1;
    let j = open + 1;
    while (depth > 0 && j < source.length) {
      if (source[j] === "{") depth++;
      else if (source[j] === "}") depth--;
      j++;
    }
    const body = source.slice(open + 1, j - 1);
    if (/^@(media|supports)/.test(prelude)) {
      const inner = purgeRules(body, words);
      if (inner) out += `${prelude}{${inner}}`;
    } else if (prelude.startsWith("@") || keepSelector(prelude)) {
      out += `${prelude}{${body}}`;
    }
    i = j;
  }
  return out;
}
