/**
 * The browser's translate function: the part of i18next the locale files use, in ~1 KB
 * (docs/decisions/025-browser-translator.md). The server keeps i18next itself; the
 * equivalence test (translate.test.ts) proves this gives i18next's output for every key
 * of both languages, so server-rendered text and hydrated text are the same.
 *
 * Supported, as i18next does it with this app's options (escapeValue false, fallbackLng
 * false, returnNull false): dotted keys into nested resources; `{{name}}` (`{{- name}}`)
 * interpolation, a missing variable kept as written; `{{name, number}}` as
 * Intl.NumberFormat formats it (whole numbers by formatInteger); plurals `key_zero` (count 0) / `key_<Intl.PluralRules>` / `key` with a
 * numeric `count`; a string `defaultValue`; an empty string, a missing key (or one naming an object) gives the key.
 * Not supported (not used): namespaces, nesting `$t()`, context, ordinal, other formats.
 */
import type { Lang } from "./config";

export type Translation = Record<string, unknown>;
export type TOptions = Record<string, unknown>;
export type TFunction = (key: string, options?: TOptions) => string;

const plurals = new Map<Lang, Intl.PluralRules>();

/** The options Intl.NumberFormat reads (ECMA-402); the rest of a call's options are its values. */
const NUMBER_FORMAT_OPTIONS = [
  "localeMatcher",
  "numberingSystem",
  "style",
  "currency",
  "currencyDisplay",
  "currencySign",
  "unit",
  "unitDisplay",
  "notation",
  "compactDisplay",
  "signDisplay",
  "useGrouping",
  "minimumIntegerDigits",
  "minimumFractionDigits",
  "maximumFractionDigits",
  "minimumSignificantDigits",
  "maximumSignificantDigits",
  "roundingPriority",
  "roundingIncrement",
  "roundingMode",
  "trailingZeroDisplay",
] as const;
const numberFormats = new Map<string, Intl.NumberFormat>();

const hasNumberOptions = (options: TOptions) => NUMBER_FORMAT_OPTIONS.some((name) => options[name] !== undefined);

/**
 * i18next's `new Intl.NumberFormat(lang, options)`, made once per language and formatting
 * options: a formatter costs far more to make than to use, and a price list formats dozens
 * of amounts while it hydrates (decision 045, point 4).
 */
function numberFormat(lang: Lang, options: TOptions): Intl.NumberFormat {
  const picked: Record<string, unknown> = {};
  for (const name of NUMBER_FORMAT_OPTIONS) if (options[name] !== undefined) picked[name] = options[name];
  const key = `${lang}\u0000${JSON.stringify(picked)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(lang, picked as Intl.NumberFormatOptions)));
  return format;
}

/**
 * `Intl.NumberFormat(lang).format(n)` for the whole numbers pages show (counts, characters
 * left), written out: the first NumberFormat a browser tab makes costs 20–50 ms of ICU
 * start-up on its main thread, in the middle of hydration (decision 045), and the server's
 * text never depends on the browser's ICU data. English groups with ",", Swedish with a
 * no-break space and writes a minus sign (U+2212), as CLDR does; translate.test.ts holds it to
 * Intl's own output. Other values (fractions, -0, beyond 2^53) go to Intl.
 */
export function formatInteger(n: number, lang: Lang): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return numberFormat(lang, {}).format(n);
  const grouped = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, lang === "sv" ? "\u00a0" : ",");
  return n < 0 ? `${lang === "sv" ? "\u2212" : "-"}${grouped}` : grouped;
}

function lookup(resources: Translation | undefined, key: string): unknown {
  let node: unknown = resources;
  for (const part of key.split(".")) {
    if (!node || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** i18next with returnEmptyString false: an empty string counts as missing. */
const valid = (v: unknown): v is string => typeof v === "string" && v !== "";

/** i18next's String() of a value: null and undefined become "". */
const str = (v: unknown) => (v == null ? "" : String(v));

function interpolate(text: string, options: TOptions, lang: Lang): string {
  return text.replace(/\{\{(.+?)\}\}/g, (whole, inner: string) => {
    let name = inner.trim();
    if (name.startsWith("-")) name = name.slice(1).trim();
    const [variable = "", ...formats] = name.split(",");
    const key = variable.trim();
    let value = options[key];
    // i18next: "" for a variable given as undefined, else the placeholder as written (and
    // it looks up the whole "name, format" for that, so a formatted one stays written).
    if (value === undefined) return Object.prototype.hasOwnProperty.call(options, name) ? "" : whole;
    if (formats.length && value !== null && formats.join(",").trim().toLowerCase() === "number") {
      // i18next hands the call's options to Intl too (and keeps the value if Intl refuses).
      try {
        value = hasNumberOptions(options)
          ? numberFormat(lang, options).format(value as number)
          : formatInteger(value as number, lang);
      } catch {
        /* the raw value, as i18next */
      }
    }
    return str(value);
  });
}

/** A translate function over `resources()` (read on each call, so added areas count). */
export function createT(lang: Lang, resources: () => Translation | undefined): TFunction {
  return (key, options = {}) => {
    const all = resources();
    const count = options.count;
    let found: unknown;
    if (count !== undefined && typeof count !== "string") {
      let rules = plurals.get(lang);
      if (!rules) plurals.set(lang, (rules = new Intl.PluralRules(lang)));
      const candidates = [`${key}_${rules.select(count as number)}`, key, `${key}_other`];
      if (count === 0) candidates.unshift(`${key}_zero`);
      for (const k of candidates) if (valid((found = lookup(all, k)))) break;
    } else {
      found = lookup(all, key);
    }
    const fallback = options.defaultValue;
    const text = valid(found) ? found : fallback === "" || valid(fallback) ? str(fallback) : key;
    return interpolate(text, options, lang);
  };
}
