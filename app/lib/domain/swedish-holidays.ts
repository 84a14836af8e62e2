/**
 * Days on which a Swedish statutory time limit cannot end (decision 057): lagen (1930:173)
 * om beräkning av lagstadgad tid moves a deadline that falls on a Saturday, a Sunday, a
 * public holiday (lagen (1989:253) om allmänna helgdagar), midsommarafton, julafton or
 * nyårsafton to the next working day. Computed, not listed: the Easter-based days from the
 * Gregorian computus. Browser-safe: calendar arithmetic on UTC dates only.
 */

/** Easter Sunday of `year` (Gregorian, the anonymous algorithm) as [month 0-11, day]. */
export function easterSunday(year: number): [number, number] {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return [month - 1, day];
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first day of `weekday` (0 Sunday … 6 Saturday) from `month`/`from` on, in `year`. */
function firstWeekdayFrom(year: number, month: number, from: number, weekday: number): number {
  const start = Date.UTC(year, month, from);
  const ahead = (weekday - new Date(start).getUTCDay() + 7) % 7;
  return start + ahead * DAY;
}

const cache = new Map<number, Map<string, string>>();

/**
 * The days of `year` on which a time limit cannot end besides Saturdays and Sundays (some
 * of them are one anyway): ISO day → its Swedish name.
 */
export function swedishDaysOff(year: number): Map<string, string> {
  const known = cache.get(year);
  if (known) return known;
  const [em, ed] = easterSunday(year);
  const easter = Date.UTC(year, em, ed);
  const days = new Map<string, string>([
    [iso(Date.UTC(year, 0, 1)), "nyårsdagen"],
    [iso(Date.UTC(year, 0, 6)), "trettondedag jul"],
    [iso(easter - 2 * DAY), "långfredagen"],
    [iso(easter - DAY), "påskafton"],
    [iso(easter), "påskdagen"],
    [iso(easter + DAY), "annandag påsk"],
    [iso(Date.UTC(year, 4, 1)), "första maj"],
    [iso(easter + 39 * DAY), "Kristi himmelsfärdsdag"],
    [iso(easter + 49 * DAY), "pingstdagen"],
    [iso(Date.UTC(year, 5, 6)), "Sveriges nationaldag"],
    // Midsommarafton: the Friday between 19 and 25 June; midsommardagen the Saturday after.
    [iso(firstWeekdayFrom(year, 5, 19, 5)), "midsommarafton"],
    [iso(firstWeekdayFrom(year, 5, 20, 6)), "midsommardagen"],
    // Alla helgons dag: the Saturday between 31 October and 6 November.
    [iso(firstWeekdayFrom(year, 9, 31, 6)), "alla helgons dag"],
    [iso(Date.UTC(year, 11, 24)), "julafton"],
    [iso(Date.UTC(year, 11, 25)), "juldagen"],
    [iso(Date.UTC(year, 11, 26)), "annandag jul"],
    [iso(Date.UTC(year, 11, 31)), "nyårsafton"],
  ]);
  cache.set(year, days);
  return days;
}

/** Whether a time limit may end on the Swedish calendar day `isoDay` ("2026-12-24"). */
export function isSwedishWorkingDay(isoDay: string): boolean {
  const ms = Date.parse(`${isoDay}T00:00:00Z`);
  const weekday = new Date(ms).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !swedishDaysOff(new Date(ms).getUTCFullYear()).has(isoDay);
}
