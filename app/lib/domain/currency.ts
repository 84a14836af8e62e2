/** Currencies of amounts (prices, finder's fees): the one definition (decision 011). */
import type { Lang } from "~/i18n/config";

/** ISO 4217 code of an amount: Swedish kronor or euro. */
export type Currency = "SEK" | "EUR";

/** A stored currency column as a Currency (anything but SEK is euro, as it always was shown). */
export function toCurrency(v: string): Currency {
  return v === "SEK" ? "SEK" : "EUR";
}

/** Prices and new items follow the page language: kr for Swedish, euro for English. */
export function currencyForLang(lang: Lang): Currency {
  return lang === "sv" ? "SEK" : "EUR";
}
