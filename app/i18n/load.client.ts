import type { Lang } from "./config";
import { mergeAreas, registerResources, type Translation } from "./i18n";
import type { I18n } from "./react";

// One lazy chunk per file; the browser only downloads the language it shows, and at first
// only the areas the page renders (root Layout's data-i18n: app/i18n/areas.ts, decision 020).
// Not locales/<lang>/server/*.json: mail texts, which only the server has.
const loaders = {
  en: import.meta.glob("../locales/en/*.json", { import: "default" }),
  sv: import.meta.glob("../locales/sv/*.json", { import: "default" }),
};

function areaOf(file: string) {
  return file.replace(/^.*\//, "").replace(/\.json$/, "");
}

const chunks = new Map<string, Promise<readonly [string, unknown]>>();
const loaded: Record<Lang, Record<string, unknown>> = { en: {}, sv: {} };

/**
 * The language's translations: only `areas` when given (a page's first load), else all.
 * Loaded areas are registered for getT (meta functions) and kept for later calls.
 * `_firstLoad` is no longer used: every page declares its areas (app/i18n/route-areas.test.ts),
 * so the old list of areas a first load skipped went; drop it with entry.client's `true`.
 */
export async function loadLanguage(lang: Lang, areas?: readonly string[], _firstLoad?: boolean): Promise<Translation> {
  const wanted = (area: string) => !areas || areas.includes(area);
  const files = Object.entries(loaders[lang]).filter(([file]) => wanted(areaOf(file)));
  const entries = await Promise.all(
    files.map(([file, load]) => {
      let p = chunks.get(`${lang}:${file}`);
      if (!p) {
        p = load().then((mod) => [file, mod] as const);
        chunks.set(`${lang}:${file}`, p);
      }
      return p;
    }),
  );
  for (const [file, mod] of entries) loaded[lang][file] = mod;
  const all = mergeAreas(loaded[lang]);
  registerResources(lang, all);
  return mergeAreas(Object.fromEntries(entries));
}

let current: I18n | undefined;

/** The page's i18next instance (entry.client), completed by ensureAllAreas. */
export function setClientI18n(instance: I18n) {
  current = instance;
}

/**
 * Before the first client-side navigation (root clientMiddleware): the remaining areas of
 * the current language, so the next page never shows a key instead of its text.
 */
export async function ensureAllAreas() {
  if (!current) return;
  const lang = current.language as Lang;
  const translation = await loadLanguage(lang);
  current.addResourceBundle(lang, "translation", translation, true, true);
}
