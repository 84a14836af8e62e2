/**
 * A finder's fee is stored with its own currency (the owner's language when the item was
 * created: kr for Swedish, euro for English) and always shown with that sign, whatever
 * language the viewer reads the page in.
 */
import type { Lang } from "~/i18n/config";
import { formatPrice, priceFor } from "./pricing";

export type Currency = "SEK" | "EUR";

export function currencyForLang(lang: Lang): Currency {
  return lang === "sv" ? "SEK" : "EUR";
}

function langOfCurrency(currency: Currency): Lang {
  return currency === "SEK" ? "sv" : "en";
}

export function feeSign(currency: Currency): string {
  return priceFor(langOfCurrency(currency)).sign;
}

export function formatFee(amount: number, currency: Currency): string {
  return formatPrice(amount, langOfCurrency(currency));
}
