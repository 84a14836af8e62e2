/**
 * Vite plugin: the production build's site stylesheet keeps only the rules the site can
 * use (docs/decisions/020). A rule stays when every class of one of its
 * selectors is a word of the app's code (app/**, not the styles or the tests) or in
 * RUNTIME_CLASSES. A word too many only keeps a rule; a class composed at run time and
 * missing from RUNTIME_CLASSES loses its rules (tests/integration/css-purge.test.ts
 * catches those it sees on a page).
 *
 * It runs on the compiled Sass, before Vite minifies it and names the file, so the file
 * name's hash is that of the purged stylesheet, and the `?inline` copy the lean finder page
 * purges again at start-up is purged the same way. `vite dev` serves the whole stylesheet.
 */
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import { purgeCss } from "../../app/lean/purge-css.ts";
import { RUNTIME_CLASSES } from "../../app/styles/runtime-classes.ts";

/** Every word (`[\w-]+`) of the code under `appDir`: anything there may be a class name. */
export function appWords(appDir: string): Set<string> {
  const words = new Set<string>(RUNTIME_CLASSES);
  for (const entry of fs.readdirSync(appDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(tsx?|jsx?|mjs)$/.test(entry.name) || /\.test\.\w+$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    // The stylesheets name every class they style; the keep list is added above.
    if (path.relative(appDir, file).startsWith(`styles${path.sep}`)) continue;
    for (const w of fs.readFileSync(file, "utf8").match(/[\w-]+/g) ?? []) words.add(w);
  }
  return words;
}

export function purgeUnusedCss(options: { appDir: string; stylesheet: RegExp }): Plugin {
  let words: Set<string> | undefined;
  return {
    name: "hittad:purge-unused-css",
    apply: "build",
    buildStart() {
      words = appWords(options.appDir);
    },
    transform(code, id) {
      if (!options.stylesheet.test(id)) return null;
      return { code: purgeCss(code, words ?? appWords(options.appDir)), map: null };
    },
  };
}
