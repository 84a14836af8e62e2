import i18next, { type i18n, type TFunction } from "i18next";
import { initReactI18next } from "react-i18next";
import type { Lang } from "./config";

export type Translation = Record<string, unknown>;

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

/** A fresh instance for one render (server: one per request; client: one per page load). */
export function createI18n(lang: Lang, resources: Partial<Record<Lang, Translation>>): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    supportedLngs: ["en", "sv"],
    resources: Object.fromEntries(Object.entries(resources).map(([l, t]) => [l, { translation: t }])),
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

const fixed = new Map<Lang, TFunction>();
const known: Partial<Record<Lang, Translation>> = {};

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
    t = createI18n(lang, { [lang]: resources }).t;
    fixed.set(lang, t);
  }
  return t;
}
