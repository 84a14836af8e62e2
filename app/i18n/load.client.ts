import type { Lang } from "./config";
import { mergeAreas, registerResources, type Translation } from "./i18n";

// One lazy chunk per file; the browser only downloads the language it shows.
const loaders = {
  en: import.meta.glob("../locales/en/*.json", { import: "default" }),
  sv: import.meta.glob("../locales/sv/*.json", { import: "default" }),
};

const cache = new Map<Lang, Promise<Translation>>();

export function loadLanguage(lang: Lang): Promise<Translation> {
  let p = cache.get(lang);
  if (!p) {
    p = Promise.all(Object.entries(loaders[lang]).map(async ([file, load]) => [file, await load()] as const)).then(
      (entries) => {
        const t = mergeAreas(Object.fromEntries(entries));
        registerResources(lang, t);
        return t;
      },
    );
    cache.set(lang, p);
  }
  return p;
}
