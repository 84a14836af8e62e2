/**
 * Countries for postal addresses (decision 032): the ISO 3166-1 alpha-2 codes, their
 * names in the page's language from the runtime's own CLDR data (Intl.DisplayNames, no
 * list of names to keep), each country's postal-code rule and where it uses a region.
 * Browser-safe.
 */
import { COUNTRY_CODES as ALL_CODES, isCountryCode } from "./eu-vat";

// The ISO 3166-1 alpha-2 list lives with the organisations' VAT rules (one list).
const COUNTRY_CODES = [...ALL_CODES];

/** Stickers are posted from Sweden: it leads the list and is the default. */
export const HOME_COUNTRY = "SE";

export { isCountryCode };

const namers = new Map<string, Intl.DisplayNames>();
function namer(lang: string): Intl.DisplayNames {
  let n = namers.get(lang);
  if (!n) {
    n = new Intl.DisplayNames([lang], { type: "region", fallback: "code" });
    namers.set(lang, n);
  }
  return n;
}

/** The country's name in `lang` ("Sverige", "Sweden"); the code itself if unknown. */
export function countryName(code: string, lang: string): string {
  return isCountryCode(code) ? (namer(lang).of(code) ?? code) : code;
}

/** Every country as {code, name} in `lang`: Sweden first, then by name as `lang` sorts. */
export function countryOptions(lang: string): { code: string; name: string }[] {
  const collator = new Intl.Collator(lang);
  const rest = COUNTRY_CODES.filter((c) => c !== HOME_COUNTRY)
    .map((code) => ({ code, name: countryName(code, lang) }))
    .sort((a, b) => collator.compare(a.name, b.name));
  return [{ code: HOME_COUNTRY, name: countryName(HOME_COUNTRY, lang) }, ...rest];
}

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");
let byName: Map<string, string> | null = null;

/**
 * The code of a stored country: a code as it is, or an address saved before the select
 * (free text such as "Sweden", "sverige", "UK") by its English or Swedish name; else null.
 */
export function countryCodeOf(value: string): string | null {
  const v = value.trim();
  if (isCountryCode(v.toUpperCase()) && v.length === 2) return v.toUpperCase();
  if (!byName) {
    byName = new Map();
    for (const code of COUNTRY_CODES) {
      for (const lang of ["en", "sv"]) byName.set(fold(countryName(code, lang)), code);
    }
    for (const [alias, code] of Object.entries(ALIASES)) byName.set(alias, code);
  }
  return byName.get(fold(v)) ?? null;
}

const ALIASES: Record<string, string> = {
  uk: "GB",
  england: "GB",
  scotland: "GB",
  wales: "GB",
  greatbritain: "GB",
  usa: "US",
  unitedstatesofamerica: "US",
  holland: "NL",
};

interface PostalRule {
  /** What a valid code looks like once spaces and dashes are normalised (see normalise). */
  pattern: RegExp;
  /** The code as the country's post writes it. */
  format: (compact: string) => string;
}

const digits = (n: number): PostalRule => ({ pattern: new RegExp(`^\\d{${n}}$`), format: (c) => c });

/**
 * Postal codes of the countries our customers live in, checked on the server; every
 * other country is accepted as written (letters, digits, spaces and dashes).
 */
const POSTAL_RULES: Record<string, PostalRule> = {
  SE: { pattern: /^\d{5}$/, format: (c) => `${c.slice(0, 3)} ${c.slice(3)}` },
  NO: digits(4),
  DK: digits(4),
  FI: digits(5),
  IS: digits(3),
  DE: digits(5),
  FR: digits(5),
  ES: digits(5),
  IT: digits(5),
  EE: digits(5),
  AT: digits(4),
  CH: digits(4),
  BE: digits(4),
  LU: digits(4),
  PL: { pattern: /^\d{5}$/, format: (c) => `${c.slice(0, 2)}-${c.slice(2)}` },
  NL: { pattern: /^\d{4}[A-Z]{2}$/, format: (c) => `${c.slice(0, 4)} ${c.slice(4)}` },
  GB: {
    pattern: /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/,
    format: (c) => `${c.slice(0, -3)} ${c.slice(-3)}`,
  },
  US: {
    pattern: /^\d{5}(\d{4})?$/,
    format: (c) => (c.length === 9 ? `${c.slice(0, 5)}-${c.slice(5)}` : c),
  },
};

/**
 * A postal code checked for its country: the code as that country writes it ("12345" →
 * "123 45" in Sweden, "sw1a1aa" → "SW1A 1AA"), or null when it cannot be one. Countries
 * without a rule accept 1–12 letters, digits, spaces and dashes as typed.
 */
export function normalisePostalCode(country: string, zip: string): string | null {
  const rule = POSTAL_RULES[country];
  const trimmed = zip.trim().replace(/\s+/g, " ");
  if (!rule) return /^[\p{L}\p{N}][\p{L}\p{N} -]{0,11}$/u.test(trimmed) ? trimmed : null;
  const compact = trimmed.toUpperCase().replace(/[\s-]/g, "");
  // Swedish codes are often written with the country prefix: "SE-123 45".
  const local = compact.startsWith(country) && !rule.pattern.test(compact) ? compact.slice(2) : compact;
  return rule.pattern.test(local) ? rule.format(local) : null;
}

/** An example postal code for the form's hint, where we check the country's format. */
export const POSTAL_EXAMPLES: Record<string, string> = {
  SE: "123 45",
  NO: "0150",
  DK: "1050",
  FI: "00100",
  DE: "10115",
  GB: "SW1A 1AA",
  US: "94105",
  NL: "1012 AB",
  PL: "00-950",
};

/** Countries whose addresses need a state, province or prefecture. */
export const REGION_COUNTRIES: ReadonlySet<string> = new Set([
  "US",
  "CA",
  "AU",
  "BR",
  "MX",
  "IN",
  "JP",
  "CN",
  "AR",
  "MY",
]);

export function usesRegion(country: string): boolean {
  return REGION_COUNTRIES.has(country);
}

/** A stored country (a code, or a name typed before codes existed) as a name in `lang` (decision 057). */
export function readableCountry(value: string, lang: string): string {
  const code = countryCodeOf(value);
  return code ? countryName(code, lang) : value;
}
