/**
 * Phone numbers and email addresses in an owner's contact text, so the finder page can
 * make them tappable `tel:` / `mailto:` links (decision 018). Pure and browser-safe. The
 * parts are rendered by React as text, and an href is built only from the characters the
 * patterns allow (digits and '+', or an address of the form local@domain.tld), so nothing
 * the owner types can become markup or a javascript: link.
 */
export type ContactPart =
  | { kind: "text"; text: string }
  | { kind: "email"; text: string; href: string }
  | { kind: "phone"; text: string; href: string };

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}/y;
// A run starting with '+', '(' or a digit, of digits and the separators people write
// (space, hyphen, dot, slash, parentheses), ending in a digit.
const PHONE = /(?:\+|\()?\d[\d ()./-]*\d/y;
const MIN_PHONE_DIGITS = 7;
const MAX_PHONE_DIGITS = 15; // E.164

function phoneHref(text: string): string | null {
  // "+46 (0)8 …": the bracketed trunk zero is not dialled from abroad.
  const digits = text.replace(/\(0\)/g, "").replace(/\D/g, "");
  if (digits.length < MIN_PHONE_DIGITS || digits.length > MAX_PHONE_DIGITS) return null;
  // Dates and times are not phone numbers: 2026-11-24, 24.11.2026, 12:30.
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) || /^\d{1,2}[./]\d{1,2}[./]\d{2,4}$/.test(text)) return null;
  const plus = text.startsWith("+") || text.startsWith("00");
  return `tel:${plus ? "+" : ""}${text.startsWith("00") ? digits.slice(2) : digits}`;
}

export function contactParts(text: string): ContactPart[] {
  const parts: ContactPart[] = [];
  let plain = "";
  const flush = () => {
    if (plain) parts.push({ kind: "text", text: plain });
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    const prev = i > 0 ? text[i - 1]! : "";
    // Only at a word start: no links in the middle of "abc123456789" or "x.y@z".
    if (!/[A-Za-z0-9._%+@-]/.test(prev)) {
      EMAIL.lastIndex = i;
      const email = EMAIL.exec(text);
      if (email) {
        flush();
        parts.push({ kind: "email", text: email[0], href: `mailto:${email[0]}` });
        i += email[0].length;
        continue;
      }
    }
    if (!/[A-Za-z0-9]/.test(prev)) {
      PHONE.lastIndex = i;
      const phone = PHONE.exec(text);
      const href = phone ? phoneHref(phone[0]) : null;
      if (phone && href && !/[A-Za-z0-9@]/.test(text[i + phone[0].length] ?? "")) {
        flush();
        parts.push({ kind: "phone", text: phone[0], href });
        i += phone[0].length;
        continue;
      }
    }
    plain += text[i];
    i++;
  }
  flush();
  return parts;
}
