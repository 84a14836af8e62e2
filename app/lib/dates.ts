/**
 * Dates as owners read them on the dashboard, order pages and receipts: "23 November 2026"
 * / "23 november 2026", in UTC. Written out here rather than with Intl so the server's and
 * the browser's ICU data can never render different text (hydration) and mails read the same.
 */
import type { Lang } from "~/i18n/config";

/** A day in milliseconds (a calendar day in UTC; Stockholm's days are formatDate's). */
export const DAY_MS = 24 * 60 * 60_000;

const MONTHS: Record<Lang, string[]> = {
  en: "January February March April May June July August September October November December".split(" "),
  sv: "januari februari mars april maj juni juli augusti september oktober november december".split(" "),
};

export function formatDate(ms: number, lang: Lang): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a date: ${ms}`);
  return `${d.getUTCDate()} ${MONTHS[lang][d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** The UTC instant of the last Sunday of a month at 01:00 UTC (EU summer-time switches). */
function lastSundayOneUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

/**
 * Offset of Swedish time from UTC in milliseconds: CEST (+2) from the last Sunday of
 * March to the last Sunday of October, both at 01:00 UTC (EU rule since 1996), else CET (+1).
 */
export function stockholmOffsetMs(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  const summer = ms >= lastSundayOneUtc(year, 2) && ms < lastSundayOneUtc(year, 9);
  return (summer ? 2 : 1) * 3_600_000;
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * Date and time in Swedish time (Europe/Stockholm), for staff pages such as the support
 * inbox: "23 November 2026, 13:30" / "23 november 2026 kl. 13:30". Written out by hand
 * like formatDate, so server and browser render the same text.
 */
export function formatDateTime(ms: number, lang: Lang): string {
  if (Number.isNaN(new Date(ms).getTime())) throw new RangeError(`not a date: ${ms}`);
  const local = ms + stockholmOffsetMs(ms);
  const d = new Date(local);
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  return lang === "sv" ? `${formatDate(local, lang)} kl. ${time}` : `${formatDate(local, lang)}, ${time}`;
}
