/**
 * Dates as owners read them on the dashboard, order pages and receipts: "23 November 2026"
 * / "23 november 2026", in UTC. Written out here rather than with Intl so the server's and
 * the browser's ICU data can never render different text (hydration) and mails read the same.
 */
import type { Lang } from "~/i18n/config";

const MONTHS: Record<Lang, string[]> = {
  en: "January February March April May June July August September October November December".split(" "),
  sv: "januari februari mars april maj juni juli augusti september oktober november december".split(" "),
};

export function formatDate(ms: number, lang: Lang): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a date: ${ms}`);
  return `${d.getUTCDate()} ${MONTHS[lang][d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}
