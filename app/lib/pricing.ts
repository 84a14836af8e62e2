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

export type Period = "month" | "year";
export type PackageName = "single" | "tripple";
/** The app's language ('sv') or the spec's key for it ('se'). */
export type PriceLang = Lang | SpecLang;

export const PERIODS = ["month", "year"] as const satisfies readonly Period[];
export const PACKAGES = ["single", "tripple"] as const satisfies readonly PackageName[];

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
  currency: "SEK" | "EUR";
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
  currency: "SEK" | "EUR";
  /** The spec's sign: kr or euro. */
  sign: "kr" | "euro";
  period: Period;
  count: number;
  /** The single price for the period. */
  unitPrice: number;
  /** count × unitPrice. */
  packagePrice: number;
  /** Yearly discount (0 for monthly or when the rule does not apply). */
  discount: number;
  /** packagePrice − discount. */
  total: number;
  /** The same amounts in minor units (öre, cents) for payment providers. */
  minor: { unitPrice: number; packagePrice: number; discount: number; total: number };
}

/** Whether the spec's yearly discount applies: yearly, and more than 3 items or a multiple of 3. */
export function hasYearlyDiscount(period: Period, count: number): boolean {
  return period === "year" && count > 0 && (count > 3 || count % 3 === 0);
}

/**
 * The spec's order maths (§9), followed literally:
 * - package = count × single price for the period;
 * - yearly, when count > 3 or count is a multiple of 3: discount = yearly single price × count / 3
 *   (so from 3 items on, every item is a third off: 4 items yearly in Swedish are
 *   1200 kr − 400 kr = 800 kr, 5 items 1500 kr − 500 kr = 1000 kr);
 * - monthly: no discount; total = package − discount.
 * The discount is rounded half up to the minor unit (never needed with today's prices).
 */
export function orderTotals({ lang, period, count }: { lang: PriceLang; period: Period; count: number }): OrderTotals {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`item count must be a whole number ≥ 0: ${count}`);
  if (period !== "month" && period !== "year") throw new RangeError(`unknown period: ${String(period)}`);
  const entry = priceFor(lang);
  const unitMinor = toMinor(entry.single[period]);
  const packageMinor = unitMinor * count;
  const discountMinor = hasYearlyDiscount(period, count) ? Math.round((toMinor(entry.single.year) * count) / 3) : 0;
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
 * One display style per language, used on every screen:
 * Swedish "30 kr", "1200 kr", "0,50 kr"; English "€3", "€1200", "€0.10".
 * Whole amounts have no decimals; others show two (decimal comma in Swedish). No thousands
 * separators, so figures read the same in both languages and in tests. Negative amounts
 * get a leading minus ("-400 kr", "-€40").
 */
export function formatPrice(amount: number, lang: PriceLang): string {
  if (!Number.isFinite(amount)) throw new RangeError(`not a price: ${amount}`);
  const swedish = priceKey(lang) === "se";
  const minor = Math.abs(toMinor(amount));
  const whole = Math.floor(minor / 100);
  const cents = minor % 100;
  const number = cents === 0 ? String(whole) : `${whole}${swedish ? "," : "."}${String(cents).padStart(2, "0")}`;
  const minus = toMinor(amount) < 0 ? "-" : "";
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
