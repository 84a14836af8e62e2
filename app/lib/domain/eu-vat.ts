/**
 * Countries and VAT for invoices (docs/decisions/027-invoice-payment.md).
 * An explicit ISO 3166-1 alpha-2 list replaces the `Intl.DisplayNames` check (its answer
 * depended on the ICU data of the Node build), the EU member states with the prefix and
 * format of their VAT numbers (format only: VIES cannot be reached from here), and which
 * VAT an invoice carries. Browser-safe.
 */
import { vatOfGross } from "./vat";

/** ISO 3166-1 alpha-2, the officially assigned codes. */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW " +
    "BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI " +
    "FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN " +
    "IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME " +
    "MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF " +
    "PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV " +
    "SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE " +
    "YT ZA ZM ZW"
  ).split(" "),
);

/** An ISO 3166-1 alpha-2 code (upper case). */
export function isCountryCode(code: string): boolean {
  return COUNTRY_CODES.has(code);
}

/**
 * The 27 EU member states: ISO code → the VAT number's prefix and the format of the rest
 * (the Commission's VIES list). Greece's VAT numbers start with EL, not GR.
 */
const EU_VAT_FORMATS: Readonly<Record<string, { prefix: string; format: RegExp }>> = {
  AT: { prefix: "AT", format: /^U\d{8}$/ },
  BE: { prefix: "BE", format: /^[01]\d{9}$/ },
  BG: { prefix: "BG", format: /^\d{9,10}$/ },
  CY: { prefix: "CY", format: /^\d{8}[A-Z]$/ },
  CZ: { prefix: "CZ", format: /^\d{8,10}$/ },
  DE: { prefix: "DE", format: /^\d{9}$/ },
  DK: { prefix: "DK", format: /^\d{8}$/ },
  EE: { prefix: "EE", format: /^\d{9}$/ },
  ES: { prefix: "ES", format: /^[A-Z0-9]\d{7}[A-Z0-9]$/ },
  FI: { prefix: "FI", format: /^\d{8}$/ },
  FR: { prefix: "FR", format: /^[A-HJ-NP-Z0-9]{2}\d{9}$/ },
  GR: { prefix: "EL", format: /^\d{9}$/ },
  HR: { prefix: "HR", format: /^\d{11}$/ },
  HU: { prefix: "HU", format: /^\d{8}$/ },
  IE: { prefix: "IE", format: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/ },
  IT: { prefix: "IT", format: /^\d{11}$/ },
  LT: { prefix: "LT", format: /^(\d{9}|\d{12})$/ },
  LU: { prefix: "LU", format: /^\d{8}$/ },
  LV: { prefix: "LV", format: /^\d{11}$/ },
  MT: { prefix: "MT", format: /^\d{8}$/ },
  NL: { prefix: "NL", format: /^\d{9}B\d{2}$/ },
  PL: { prefix: "PL", format: /^\d{10}$/ },
  PT: { prefix: "PT", format: /^\d{9}$/ },
  RO: { prefix: "RO", format: /^[1-9]\d{1,9}$/ },
  SE: { prefix: "SE", format: /^\d{10}01$/ },
  SI: { prefix: "SI", format: /^\d{8}$/ },
  SK: { prefix: "SK", format: /^\d{10}$/ },
};

export const EU_COUNTRIES: ReadonlySet<string> = new Set(Object.keys(EU_VAT_FORMATS));

export function isEuCountry(country: string): boolean {
  return EU_COUNTRIES.has(country);
}

/** A VAT number as written on invoices: upper case, without spaces, dots or hyphens. */
export function normaliseVatNumber(input: string): string {
  return input.replace(/[\s.-]/g, "").toUpperCase();
}

/**
 * Whether `vat` (normalised) has the format of a VAT number of the EU member state
 * `country` (ISO code), its prefix included. Format only: whether it is registered is
 * VIES's business.
 */
export function isEuVatNumberOf(vat: string, country: string): boolean {
  const rule = EU_VAT_FORMATS[country];
  return !!rule && vat.startsWith(rule.prefix) && rule.format.test(vat.slice(rule.prefix.length));
}

/** The VAT prefix expected for an EU country (EL for Greece), or null outside the EU. */
export function vatPrefixOf(country: string): string | null {
  return EU_VAT_FORMATS[country]?.prefix ?? null;
}

/**
 * How an invoice is taxed: Swedish 25 % VAT (prices include it) for Swedish customers, EU
 * customers without a VAT number and, until decided otherwise, customers outside the EU;
 * the reverse charge (no VAT, the buyer accounts for it) for a business in another EU
 * member state with a VAT number of that state.
 */
export type VatTreatment = "swedishVat" | "reverseCharge";

export function vatTreatment(buyer: { country: string; vatNumber: string | null }): VatTreatment {
  const country = buyer.country.toUpperCase();
  if (country === "SE" || !isEuCountry(country) || !buyer.vatNumber) return "swedishVat";
  return isEuVatNumberOf(normaliseVatNumber(buyer.vatNumber), country) ? "reverseCharge" : "swedishVat";
}

/** An amount without the Swedish VAT our prices include (minor units, whole). */
export function netOfGross(grossMinor: number): number {
  return vatOfGross(grossMinor).net;
}
