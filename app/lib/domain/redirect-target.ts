/**
 * A same-site path to go back to after a form, or '/'. Refuses absolute and
 * protocol-relative URLs so a crafted link cannot send visitors elsewhere, refuses control
 * characters, and percent-encodes whatever else may not stand in a Location header
 * (non-ASCII letters, emoji, U+2028, spaces, quotes), so the answer is always a valid
 * redirect and never a 500.
 */
export function safeRedirectTarget(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // C0 controls, DEL and C1 controls: never part of a path we link to.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return fallback;
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (SAFE.test(ch)) out += ch;
    else if (ch === "%" && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) out += ch;
    else {
      // A whole code point (emoji are two UTF-16 units); a lone surrogate is refused.
      const cp = value.codePointAt(i)!;
      const s = String.fromCodePoint(cp);
      if (cp >= 0xd800 && cp <= 0xdfff) return fallback;
      out += encodeURIComponent(s);
      i += s.length - 1;
    }
  }
  return out;
}

/** Characters a path, query or fragment may carry as they are (RFC 3986 minus '%'). */
const SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]$/;

/**
 * A local path worth coming back to after registering and verifying (decision 038:
 * the invite that sent the visitor), or null: anything safeRedirectTarget refuses
 * (absolute or protocol-relative URLs), "/", and the sign-in and verify pages themselves.
 */
export function localReturnPath(raw: unknown): string | null {
  const target = safeRedirectTarget(raw, "");
  if (!target || target === "/" || target.startsWith("/user/verify-email") || target.startsWith("/login")) return null;
  return target;
}
