/**
 * Prices and order maths (spec §3 "Price table", §9). Pure and browser-safe: the home
 * page, the product form and the order page format these results, and the server
 * recomputes every total with the same functions (the browser's figures are never trusted).
 *
 * Amounts are in major units (kronor, euro). The yearly single prices (300 kr, 30 euro)
 * are divisible by 3, so the spec's discount is always a whole amount; the maths still
 * runs in minor units (öre, cents) and rounds half up to the minor unit, so a future
 * price that is not divisible by 3 cannot produce float noise like 33.333….
 */
import type { Lang, SpecLang } from "~/i18n/config";
import type { Currency } from "./currency";

export type Period = "month" | "year";
export type PackageName = "single" | "tripple";
/** The app's language ('sv') or the spec's key for it ('se'). */
export type PriceLang = Lang | SpecLang;

export const PACKAGES = ["single", "tripple"] as const satisfies readonly PackageName[];

/** A stored period column as a Period (only "month" is monthly). */
export function toPeriod(v: string): Period {
  return v === "month" ? "month" : "year";
}

/** Minimum subscription term in months (spec §9). */
export const MINIMUM_TERM_MONTHS = 6;
/** Default choices (spec §9). */
export const DEFAULT_PACKAGE: PackageName = "single";
export const DEFAULT_PERIOD: Period = "year";

/** QR codes (stickers) in each package. */
export const PACKAGE_CODES: Record<PackageName, number> = { single: 1, tripple: 3 };

interface PriceEntry {
  single: Record<Period, number>;
  tripple: Record<Period, number>;
  /** The spec's currency sign. */
  sign: "kr" | "euro";
  /** ISO 4217 code, for payment providers. */
  currency: Currency;
  /** Marketing caps per day (spec §9): each package costs less than this per day on a yearly plan. */
  perDayUnder: Record<PackageName, number>;
}

/** The spec's price table, keyed by the spec's language keys: `price[lang].single.year`. */
export const price: Record<SpecLang, PriceEntry> = {
  se: {
    single: { month: 30, year: 300 },
    tripple: { month: 60, year: 600 },
    sign: "kr",
    currency: "SEK",
    perDayUnder: { single: 1, tripple: 2 },
  },
  en: {
    single: { month: 3, year: 30 },
    tripple: { month: 6, year: 60 },
    sign: "euro",
    currency: "EUR",
    perDayUnder: { single: 0.1, tripple: 0.2 },
  },
};

/** 'sv' and 'se' are Swedish (kr); anything else is English (euro). */
export function priceKey(lang: PriceLang): SpecLang {
  return lang === "sv" || lang === "se" ? "se" : "en";
}

export function priceFor(lang: PriceLang): PriceEntry {
  return price[priceKey(lang)];
}

/** The subscription price of one package for one period. */
export function packagePrice(lang: PriceLang, pkg: PackageName, period: Period): number {
  return priceFor(lang)[pkg][period];
}

const toMinor = (amount: number) => Math.round(amount * 100);
const toMajor = (minor: number) => minor / 100;

export interface OrderTotals {
  /** ISO 4217 code: SEK or EUR. */
  currency: Currency;
  /** The spec's sign: kr or euro. */
  sign: "kr" | "euro";
  period: Period;
  count: number;
  /** The single price for the period. */
  unitPrice: number;
  /** count × unitPrice. */
  packagePrice: number;
  /** The package discount (0 when the rule does not apply). */
  discount: number;
  /** packagePrice − discount. */
  total: number;
  /** The same amounts in minor units (öre, cents) for payment providers. */
  minor: { unitPrice: number; packagePrice: number; discount: number; total: number };
}

/**
 * Whether the package discount applies: more than 3 items or a multiple of 3, in either
 * period (decision 018: the price table's Tripple price is the price charged).
 */
export function hasDiscount(count: number): boolean {
  return count > 0 && (count > 3 || count % 3 === 0);
}

/**
 * The order maths: spec §9's rule, applied to both periods (decision 018):
 * - package = count × single price for the period;
 * - when count > 3 or count is a multiple of 3: discount = the period's single price × count / 3
 *   (so from 3 items on, every item is a third off: 4 items yearly in Swedish are
 *   1200 kr − 400 kr = 800 kr; 3 items monthly 90 kr − 30 kr = 60 kr, the price table's
 *   Tripple price; 4 items monthly 120 kr − 40 kr = 80 kr);
 * - total = package − discount.
 * Spec §9 says "monthly has no discount", but its price table (and our home page)
 * advertises Tripple at 60 kr / €6 a month: the advertised price is the price charged.
 * The discount is rounded half up to the minor unit (never needed with today's prices).
 */
export function orderTotals({ lang, period, count }: { lang: PriceLang; period: Period; count: number }): OrderTotals {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`item count must be a whole number ≥ 0: ${count}`);
  if (period !== "month" && period !== "year") throw new RangeError(`unknown period: ${String(period)}`);
  const entry = priceFor(lang);
  const unitMinor = toMinor(entry.single[period]);
  const packageMinor = unitMinor * count;
  const discountMinor = hasDiscount(count) ? Math.round((unitMinor * count) / 3) : 0;
  const totalMinor = packageMinor - discountMinor;
  return {
    currency: entry.currency,
    sign: entry.sign,
    period,
    count,
    unitPrice: toMajor(unitMinor),
    packagePrice: toMajor(packageMinor),
    discount: toMajor(discountMinor),
    total: toMajor(totalMinor),
    minor: { unitPrice: unitMinor, packagePrice: packageMinor, discount: discountMinor, total: totalMinor },
  };
}

/**
 * Whether one more item would cost nothing: 2 items cost exactly the
 * Triple price, so the order page says a third is free instead of letting the owner pay
 * the same for fewer stickers.
 */
export function nextItemIsFree({ lang, period, count }: { lang: PriceLang; period: Period; count: number }): boolean {
  if (count < 1) return false;
  return (
    orderTotals({ lang, period, count: count + 1 }).minor.total <= orderTotals({ lang, period, count }).minor.total
  );
}

/**
 * What a monthly plan commits the owner to over its minimum term (6 × the monthly total);
 * null for a year paid up front, which the minimum term does not bind.
 */
export function minimumTermCommitment(period: Period, total: number): number | null {
  return period === "month" ? toMajor(toMinor(total) * MINIMUM_TERM_MONTHS) : null;
}

/** U+202F NARROW NO-BREAK SPACE: the Swedish thousands separator ("100 000 kr"), never broken across lines. */
export const THIN_SPACE = "\u202f";
/** U+2212 MINUS SIGN: the real minus ("−300 kr"), not a hyphen. */
export const MINUS = "\u2212";

function groupThousands(whole: number, separator: string): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/**
 * One display style per language, used on every screen, mail and PDF (decision 018):
 * Swedish "30 kr", "1 200 kr" (thin space), "0,50 kr"; English "€3", "€1,200", "€0.10".
 * Whole amounts have no decimals; others show two (decimal comma in Swedish). Negative
 * amounts get a real minus sign: "−400 kr", "−€40".
 */
export function formatPrice(amount: number, lang: PriceLang): string {
  if (!Number.isFinite(amount)) throw new RangeError(`not a price: ${amount}`);
  const swedish = priceKey(lang) === "se";
  const minor = Math.abs(toMinor(amount));
  const whole = groupThousands(Math.floor(minor / 100), swedish ? THIN_SPACE : ",");
  const cents = minor % 100;
  const number = cents === 0 ? whole : `${whole}${swedish ? "," : "."}${String(cents).padStart(2, "0")}`;
  const minus = toMinor(amount) < 0 ? MINUS : "";
  return swedish ? `${minus}${number} kr` : `${minus}€${number}`;
}

/** Months in one subscription period. */
export const PERIOD_MONTHS: Record<Period, number> = { month: 1, year: 12 };

/**
 * `from` (epoch ms) plus whole calendar months in UTC. A day that does not exist in the
 * target month is clamped to its last day (31 January + 1 month = 28/29 February), as
 * Stripe bills monthly subscriptions.
 */
export function addMonths(from: number, months: number): number {
  if (!Number.isFinite(from) || !Number.isSafeInteger(months)) throw new RangeError("addMonths: bad arguments");
  const d = new Date(from);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}

/** The end of `periods` paid periods starting at `from`: paidUntil after a payment. */
export function periodEnd(from: number, period: Period, periods = 1): number {
  return addMonths(from, PERIOD_MONTHS[period] * periods);
}

/** The end of the minimum term (spec §9: 6 months) of a subscription that started at `from`. */
export function minimumTermEnd(from: number): number {
  return addMonths(from, MINIMUM_TERM_MONTHS);
}

/**
 * When a subscription whose renewal is cancelled at `now` ends: a monthly one cancelled
 * before the 6-month mark keeps running until that mark; otherwise it ends when the
 * period already paid ends.
 */
export function cancelledSubscriptionEnd({
  paidUntil,
  minimumUntil,
}: {
  paidUntil: number;
  minimumUntil: number;
}): number {
  return Math.max(paidUntil, minimumUntil);
}
