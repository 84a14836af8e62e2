/**
 * Mobile numbers (decision 033): stored and sent in E.164 ("+46701234567"); typed the way
 * people write them, Swedish formats included ("070-123 45 67", "+46 (0)70 123 45 67",
 * "0046 70 123 45 67"). Shared by the browser (the form) and the server (which decides).
 */

/** Longest input read at all (a form field, not a document). */
export const PHONE_INPUT_MAX = 40;

/**
 * The E.164 form of a typed mobile number, or null when it is not one. A leading single
 * 0 is Swedish (national format); a Swedish number must be a mobile one (07x: SMS go
 * nowhere else). Other countries: "+" or "00" and 8 to 15 digits in all.
 */
export function normalizePhone(input: string): string | null {
  if (input.length > PHONE_INPUT_MAX) return null;
  let s = input.trim().replace(/[\s\-.()/\u00a0]/g, "");
  // "+46(0)70…": the national 0 written inside the international form.
  s = s.replace(/^\+46\(?0\)?/, "+46");
  if (s.startsWith("00")) s = "+" + s.slice(2);
  else if (/^0[1-9]/.test(s)) s = "+46" + s.slice(1);
  // The national 0 written after a Nordic country code ("+358 (0)40…", "+46 070…"): no
  // number there starts with 0, so it is the trunk prefix, and the number is one number
  // (one fingerprint on the suppression list, one count against the limits; decision 058).
  s = s.replace(/^\+(45|46|47|354|358)0/, "+$1");
  if (!/^\+[1-9]\d{7,14}$/.test(s)) return null;
  // Swedish mobile numbers: 07x plus seven digits (+46 7x xxx xx xx).
  if (s.startsWith("+46") && !/^\+467\d{8}$/.test(s)) return null;
  return s;
}

/** As shown to the owner in delivery records: the country code and two digits ("+46 70…"). */
export function maskPhone(e164: string): string {
  const m = /^\+(46|1|7|\d{2})(\d{2})/.exec(e164);
  return m ? `+${m[1]} ${m[2]}…` : "+…";
}

/** A readable form of a verified number for its owner ("+46 70 123 45 67"). */
export function formatPhone(e164: string): string {
  const se = /^\+46(\d{2})(\d{3})(\d{2})(\d{2})$/.exec(e164);
  if (se) return `+46 ${se[1]} ${se[2]} ${se[3]} ${se[4]}`;
  return e164;
}

/** An email address as shown in delivery records: "a…@example.se". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "…";
  return `${email[0]}…${email.slice(at)}`;
}
