/**
 * A finder's fee is stored with its own currency (the owner's language when the item was
 * created: kr for Swedish, euro for English) and always shown with that sign, whatever
 * language the viewer reads the page in.
 */
import type { Lang } from "~/i18n/config";
import type { Currency } from "./currency";
import { formatPrice, priceFor } from "./pricing";

function langOfCurrency(currency: Currency): Lang {
  return currency === "SEK" ? "sv" : "en";
}

export function feeSign(currency: Currency): string {
  return priceFor(langOfCurrency(currency)).sign;
}

export function formatFee(amount: number, currency: Currency): string {
  return formatPrice(amount, langOfCurrency(currency));
}

/** The currency symbol in a field label: "Finder's fee (€)", "Hittelön (kr)" (decision 018). */
export function feeSymbol(currency: Currency): string {
  return currency === "SEK" ? "kr" : "€";
}

/**
 * The Swedish Police's page on lost property (hittegods), cited in the product form's help
 * (decision 019): it says a reasonable hittelön is about 10 % of the market value, that keys
 * may be posted in a post box (the post forwards them to the police), and that a finder
 * reports what they keep to the police or the owner. In Swedish only.
 */
export const POLICE_HITTEGODS_URL = "https://polisen.se/tjanster-tillstand/hittegods/";

/** The largest approximate value the product form takes (its 10 % is the largest fee). */
export const APPROX_VALUE_MAX = 1_000_000;

/**
 * The fee the product form suggests from the owner's approximate value of the item
 * (decision 019): about 10 % of it, the Swedish Police's guidance for a reasonable hittelön
 * (https://polisen.se/tjanster-tillstand/hittegods/), rounded to an amount people name:
 * whole units under 20, then to 5, from 200 to 10. The owner may change it; nothing more
 * is claimed than "about 10 %".
 */
export function suggestFee(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  const raw = Math.min(value, APPROX_VALUE_MAX) / 10;
  const step = raw < 20 ? 1 : raw < 200 ? 5 : 10;
  return Math.round(raw / step) * step;
}
