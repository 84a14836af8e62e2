/** Browser-safe language facts shared by server and client. */
export const LANGUAGES = ["en", "sv"] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = "en";
/** Cookie holding the visitor's chosen language ('en' | 'sv'). */
export const LANG_COOKIE = "lang";
/** The spec's language keys: 'se' for Swedish (price table, stored data). */
export type SpecLang = "en" | "se";

export function isLang(v: unknown): v is Lang {
  return v === "en" || v === "sv";
}

export function toSpecLang(lang: Lang): SpecLang {
  return lang === "sv" ? "se" : "en";
}

/**
 * Swedish if Swedish is the visitor's most preferred language among the ones we have,
 * otherwise English. Follows the Accept-Language q-values.
 */
export function languageFromAcceptLanguage(header: string | null | undefined): Lang {
  if (!header) return DEFAULT_LANG;
  const prefs = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), q: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((p) => p.tag && p.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const p of prefs) {
    const base = p.tag.split("-")[0];
    if (base === "sv" || base === "se") return "sv";
    if (base === "en") return "en";
  }
  return DEFAULT_LANG;
}

export function pickLanguage(cookieValue: string | undefined, acceptLanguage: string | null | undefined): Lang {
  if (isLang(cookieValue)) return cookieValue;
  return languageFromAcceptLanguage(acceptLanguage);
}
