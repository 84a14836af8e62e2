/**
 * Hittad's SMS number (decision 055) as people write it where it is printed: a Swedish
 * number in national form with the grouping 46elks' numbers are shown in
 * ("+46766861000" → "0766-86 10 00"), any other in E.164. Browser-safe.
 */
export function nationalSmsNumber(e164: string): string {
  const se = /^\+46(\d{3})(\d{2})(\d{2})(\d{2})$/.exec(e164);
  if (se) return `0${se[1]}-${se[2]} ${se[3]} ${se[4]}`;
  return e164;
}
