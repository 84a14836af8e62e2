/**
 * Dates as people read them on pages, in mails, PDFs and CSV files: "23 November 2026" /
 * "23 november 2026", always the calendar day in Swedish time (Europe/Stockholm, decision
 * 052); stored times stay UTC instants. Written out here rather than with Intl so the
 * server's and the browser's ICU data can never render different text (hydration) and mails
 * read the same. Every date a person reads goes through this module: the one place that
 * knows the zone.
 */
import type { Lang } from "~/i18n/config";

/** A day in milliseconds (24 hours; Swedish calendar days are stockholmDayStart's). */
export const DAY_MS = 24 * 60 * 60_000;

const MONTHS: Record<Lang, string[]> = {
  en: "January February March April May June July August September October November December".split(" "),
  sv: "januari februari mars april maj juni juli augusti september oktober november december".split(" "),
};

/** The calendar day of `ms` in Swedish time: a purchase at 00:57 in Stockholm is that day's. */
export function formatDate(ms: number, lang: Lang): string {
  return writeDay(swedishWallClock(ms), lang);
}

/** `wall` is Swedish wall-clock time written as if it were UTC (see swedishWallClock). */
function writeDay(wall: number, lang: Lang): string {
  const d = new Date(wall);
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

/** Swedish wall-clock time as a UTC-based number, so getUTC* read Stockholm's fields. */
function swedishWallClock(ms: number): number {
  if (!Number.isFinite(ms) || Number.isNaN(new Date(ms).getTime())) throw new RangeError(`not a date: ${ms}`);
  return ms + stockholmOffsetMs(ms);
}

/** The Swedish calendar day of `ms`, ISO-written ("2026-11-28"): CSV cells and file names. */
export function stockholmIsoDay(ms: number): string {
  return new Date(swedishWallClock(ms)).toISOString().slice(0, 10);
}

/**
 * The instant Swedish day `ms` began, `days` Swedish days later (negative: earlier).
 * Midnight is never inside a summer-time switch (they happen at 02:00/03:00), so the
 * offset of the result is read once at a guess and once more at the answer.
 */
export function stockholmDayStart(ms: number, days = 0): number {
  const wall = swedishWallClock(ms);
  const midnight = (Math.floor(wall / DAY_MS) + days) * DAY_MS;
  const guess = midnight - stockholmOffsetMs(midnight - 3_600_000);
  return midnight - stockholmOffsetMs(guess);
}

/**
 * Date and time in Swedish time (Europe/Stockholm), for staff pages such as the support
 * inbox: "23 November 2026, 13:30" / "23 november 2026 kl. 13:30". Written out by hand
 * like formatDate, so server and browser render the same text.
 */
export function formatDateTime(ms: number, lang: Lang): string {
  const local = swedishWallClock(ms);
  const d = new Date(local);
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  return lang === "sv" ? `${writeDay(local, lang)} kl. ${time}` : `${writeDay(local, lang)}, ${time}`;
}
