import i18next, { type i18n } from "i18next";
import type { Lang } from "./config";
import { setTFactory, type Translation } from "./i18n";
import type { I18n, TFunction } from "./react";

/**
 * i18next stays the server's translator (decision 025): one request's instance renders the
 * page, and getT (mails, titles) uses it too. The browser's small translator is proven
 * equal to this configuration by translate.test.ts.
 */
export function createI18n(lang: Lang, resources: Partial<Record<Lang, Translation>>): i18n {
  const instance = i18next.createInstance();
  void instance.init({
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

/** The request's i18next instance as components see it (app/i18n/react.tsx). */
export function serverI18n(instance: i18n): I18n {
  return {
    get language() {
      return instance.language as Lang;
    },
    t: instance.t as unknown as TFunction,
    addResourceBundle: (...args) => void instance.addResourceBundle(...args),
    changeLanguage: (lang) => instance.changeLanguage(lang),
    subscribe: () => () => {},
  };
}

setTFactory((lang, resources) => createI18n(lang, { [lang]: resources }).t as unknown as TFunction);
