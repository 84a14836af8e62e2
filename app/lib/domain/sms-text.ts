/**
 * One-part SMS (decision 033): at most 160 characters of the GSM-7 alphabet (å, ä, ö, é, ü
 * are in it; the extension characters such as € and [ ] take two), or 70 UTF-16 units
 * when the text must carry anything else (UCS-2). Typographic quotes, dashes and accents
 * outside GSM-7 are replaced by their plain forms first, so a Swedish or English text
 * keeps the 160. The finder's words are quoted only as far as they fit.
 */

const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENDED = "^{}\\[~]|€\f";
const BASIC = new Set([...GSM_BASIC]);
const EXTENDED = new Set([...GSM_EXTENDED]);

export const GSM_MAX = 160;
export const UCS2_MAX = 70;

const PLAIN: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201a": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u201e": '"',
  "\u00ab": '"',
  "\u00bb": '"',
  "\u2013": "-",
  "\u2014": "-",
  "\u2212": "-",
  "\u2026": "...",
  "\u00a0": " ",
  "\t": " ",
};

export function isGsm(text: string): boolean {
  for (const c of text) if (!BASIC.has(c) && !EXTENDED.has(c)) return false;
  return true;
}

/** Septets a GSM-7 text takes (extension characters count two). */
export function gsmLength(text: string): number {
  let n = 0;
  for (const c of text) n += EXTENDED.has(c) ? 2 : 1;
  return n;
}

/** The text with every character that has a plain GSM-7 form replaced by it; one line. */
export function toGsmWherePossible(text: string): string {
  let out = "";
  for (const c of text.replace(/\s+/g, " ").trim()) {
    if (BASIC.has(c) || EXTENDED.has(c)) out += c;
    else if (PLAIN[c] !== undefined) out += PLAIN[c];
    else {
      // "ł" stays, "ç" → "c": an accent dropped only when what remains is GSM-7.
      const base = c.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
      out += base !== c && isGsm(base) ? base : c;
    }
  }
  return out;
}

export interface SmsText {
  text: string;
  encoding: "gsm7" | "ucs2";
  /** Characters (GSM septets or UTF-16 units) it takes; never over the one-part limit. */
  length: number;
}

function measure(text: string): SmsText {
  return isGsm(text)
    ? { text, encoding: "gsm7", length: gsmLength(text) }
    : { text, encoding: "ucs2", length: text.length };
}

const fits = (m: SmsText) => m.length <= (m.encoding === "gsm7" ? GSM_MAX : UCS2_MAX);

/** The longest prefix (whole code points) of `s` for which `ok` holds (binary search). */
function longestPrefix(s: string, ok: (prefix: string, cut: boolean) => boolean): string | null {
  const chars = [...s];
  if (ok(s, false)) return s;
  let lo = 0;
  let hi = chars.length - 1;
  let best: string | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = chars.slice(0, mid).join("").trimEnd();
    if (ok(p, true)) {
      best = p;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/**
 * One SMS from a template: `build(item, quote)` with the item's name and the finder's
 * words, shortened (quote first, then the name) with an ellipsis until it fits one part.
 * Everything else the template adds (the link) is kept whole.
 */
export function fitSms(build: (item: string, quote: string) => string, item: string, quote = ""): SmsText {
  const name = toGsmWherePossible(item);
  const words = toGsmWherePossible(quote);
  const whole = measure(build(name, words));
  if (fits(whole)) return whole;
  const dots = (m: SmsText) => (m.encoding === "gsm7" ? "..." : "\u2026");
  const ell = dots(whole);
  const q = longestPrefix(words, (p, cut) => fits(measure(build(name, cut ? (p ? p + ell : "") : p))));
  if (q !== null) return measure(build(name, q ? q + ell : ""));
  const n = longestPrefix(name, (p, cut) => fits(measure(build(cut ? p + ell : p, ""))));
  return measure(build(n !== null ? n + ell : "", ""));
}

/** `text` with what has no GSM-7 form dropped (after toGsmWherePossible): it cannot force UCS-2. */
export function gsmOnly(text: string): string {
  let out = "";
  for (const c of toGsmWherePossible(text)) if (BASIC.has(c) || EXTENDED.has(c)) out += c;
  return out.replace(/ {2,}/g, " ").trim();
}

/**
 * A person's name inside an SMS that also carries links (trusted contacts, decision 040):
 * GSM-7 only and at most `max` characters, so a name can neither push the text to the
 * 70-character UCS-2 limit nor crowd out the links.
 */
export function smsName(name: string, max = 20): string {
  return [...gsmOnly(name)].slice(0, max).join("").trim();
}
