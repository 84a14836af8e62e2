/**
 * What components use of i18n: `useTranslation()`, `Trans` and the provider, without
 * i18next or react-i18next in the browser (docs/decisions/025-browser-translator.md).
 * The server hands the provider its request's i18next instance (i18next.server.ts), the
 * browser the small translator (createBrowserI18n), so both render the same text.
 */
import { cloneElement, createContext, use, useSyncExternalStore, type ReactElement, type ReactNode } from "react";
import type { Lang } from "./config";
import { createT, type TFunction, type TOptions, type Translation } from "./translate";

export type { TFunction, TOptions, Translation } from "./translate";

/** The part of i18next's `i18n` object the app uses. */
export interface I18n {
  readonly language: Lang;
  /** Translates in the current language; a new function after each language change. */
  readonly t: TFunction;
  /** As i18next's (deep merge, overwrite): a language's areas as they are loaded. */
  addResourceBundle(lang: Lang, ns: "translation", resources: Translation, deep?: boolean, overwrite?: boolean): void;
  changeLanguage(lang: Lang): Promise<unknown>;
  /** `listener` runs after a language change, so translated text renders again. */
  subscribe(listener: () => void): () => void;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nContext value={i18n}>{children}</I18nContext>;
}

export function useTranslation(): { t: TFunction; i18n: I18n } {
  const i18n = use(I18nContext);
  if (!i18n) throw new Error("useTranslation needs an I18nProvider");
  const t = useSyncExternalStore(
    i18n.subscribe,
    () => i18n.t,
    () => i18n.t,
  );
  return { t, i18n };
}

const merge = (into: Translation, from: Translation): Translation => {
  const object = (v: unknown): v is Translation => !!v && typeof v === "object";
  for (const [k, v] of Object.entries(from)) into[k] = object(v) && object(into[k]) ? merge({ ...into[k] }, v) : v;
  return into;
};

/** The browser's i18n: the small translator over the resources loaded so far. */
export function createBrowserI18n(lang: Lang, resources: Partial<Record<Lang, Translation>>): I18n {
  const store: Partial<Record<Lang, Translation>> = { ...resources };
  const listeners = new Set<() => void>();
  const tFor = (l: Lang) => createT(l, () => store[l]);
  const i18n = {
    language: lang,
    t: tFor(lang),
    addResourceBundle(l: Lang, _ns: "translation", more: Translation) {
      store[l] = merge({ ...store[l] }, more);
    },
    async changeLanguage(l: Lang) {
      i18n.language = l;
      i18n.t = tFor(l);
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  return i18n;
}

// react-i18next's Trans unescapes these entities in the translated text.
const ENTITIES: Record<string, string> = {
  amp: "&",
  "#38": "&",
  lt: "<",
  "#60": "<",
  gt: ">",
  "#62": ">",
  apos: "'",
  "#39": "'",
  quot: '"',
  "#34": '"',
  nbsp: "\u00a0",
  "#160": "\u00a0",
  copy: "©",
  "#169": "©",
  reg: "®",
  "#174": "®",
  hellip: "…",
  "#8230": "…",
  "#x2F": "/",
  "#47": "/",
};
const unescape = (text: string) => text.replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name] ?? m);

/**
 * A translation with links in it: `<a>text</a>` in the string becomes
 * `components.a` with that text, as react-i18next's `Trans` renders it (not nested tags;
 * translate.test.tsx compares the markup of every usage).
 */
export function Trans({
  i18nKey,
  components,
  values,
}: {
  i18nKey: string;
  components: Record<string, ReactElement>;
  values?: TOptions;
}) {
  const { t } = useTranslation();
  const parts = t(i18nKey, values).split(/<(\w+)>(.*?)<\/\1>/s);
  // split() with two groups: text, tag name, tag text, text, …
  return parts.map((part, i) => {
    if (i % 3 === 0) return part ? unescape(part) : null;
    if (i % 3 === 2) return null;
    const inner = parts[i + 1] ?? "";
    const component = components[part];
    // A tag without a component stays text, as react-i18next shows one it does not know.
    return component ? cloneElement(component, { key: i }, unescape(inner)) : `<${part}>${unescape(inner)}</${part}>`;
  });
}
