/** Drops the CSS rules a page cannot use (the lean finder page's inline stylesheet, docs/decisions/020). */

/** The rules of `source` (minified CSS) whose selectors can match on a page using `words`. */
export function purgeCss(source: string, words: ReadonlySet<string>): string {
  const keepSelector = (selector: string) =>
    selector.split(",").some((one) => [...one.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].every((m) => words.has(m[1]!)));
  let out = "";
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf("{", i);
    if (open < 0) break;
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
      const inner = purgeCss(body, words);
      if (inner) out += `${prelude}{${inner}}`;
    } else if (prelude.startsWith("@") || keepSelector(prelude)) {
      out += `${prelude}{${body}}`;
    }
    i = j;
  }
  return out;
}
