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
  return purgeRules(source.replace(/\/\*[\s\S]*?\*\//g, ""), words);
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
