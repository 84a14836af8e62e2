import type { Lang } from "./config";
import { createT, type TFunction, type Translation } from "./translate";

export type { TFunction, Translation } from "./translate";

/** Merge per-area locale files (locales/<lang>/<area>.json) into one resource. */
export function mergeAreas(files: Record<string, unknown>): Translation {
  const out: Translation = {};
  for (const [file, mod] of Object.entries(files)) {
    const area = file.replace(/^.*\//, "").replace(/\.json$/, "");
    const value = (mod as { default?: unknown }).default ?? mod;
    out[area] = value;
  }
  return out;
}

type TFactory = (lang: Lang, resources: Translation) => TFunction;

/**
 * How getT translates: the small translator by default (the browser, decision 025); the
 * server switches to i18next (i18next.server.ts, imported by resources.server.ts), so
 * mails and server-rendered titles come from i18next itself.
 */
let factory: TFactory = (lang, resources) => createT(lang, () => resources);
const fixed = new Map<Lang, TFunction>();
const known: Partial<Record<Lang, Translation>> = {};

export function setTFactory(next: TFactory) {
  factory = next;
  fixed.clear();
}

/** Make a language's resources known to getT (server: all at start; client: as loaded). */
export function registerResources(lang: Lang, translation: Translation) {
  known[lang] = translation;
  fixed.delete(lang);
}

/** A translate function fixed to one language, for code outside React (meta, mails). */
export function getT(lang: Lang): TFunction {
  let t = fixed.get(lang);
  if (!t) {
    const resources = known[lang];
    if (!resources) throw new Error(`i18n resources for '${lang}' are not loaded`);
    t = factory(lang, resources);
    fixed.set(lang, t);
  }
  return t;
}
