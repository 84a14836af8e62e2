/**
 * A sticker's typeable code at the start of an SMS (decision 055): "K7M 29Q XHR hittade din
 * cykel", "k7m-29q-xhr: …", "K7M29QXHR". Spaces, dashes, dots and underscores between its
 * characters do not matter, nor case; the code must end a word ("K7M29QXHRS…" is no code).
 */
import { CODE_ALPHABET, CODE_LENGTH } from "~/lib/domain/sticker-code";

const SEPARATOR = /^[\s\p{Pd}._]$/u;
const WORD = /^[\p{L}\p{N}]$/u;

/** The code and the words after it, or null when the message does not start with a code. */
export function splitMessageCode(message: string): { code: string; rest: string } | null {
  const chars = [...message.trimStart().slice(0, 64)];
  let code = "";
  let i = 0;
  for (; i < chars.length && code.length < CODE_LENGTH; i++) {
    const c = chars[i]!;
    if (SEPARATOR.test(c)) continue;
    const up = c.toUpperCase();
    if (!CODE_ALPHABET.includes(up)) return null;
    code += up;
  }
  if (code.length < CODE_LENGTH) return null;
  if (i < chars.length && WORD.test(chars[i]!)) return null;
  const rest = [...message.trimStart()]
    .slice(i)
    .join("")
    .replace(/^[\s\p{Pd}.,:;_]+/u, "")
    .trim();
  return { code, rest };
}

/** "#4821 Tack, jag hämtar den i kväll": the owner's reference and the answer after it. */
export function splitOwnerRef(message: string): { ref: string | null; rest: string } {
  const m = /^\s*#\s?(\d{4})\b[\s.,:;-]*/.exec(message);
  return m ? { ref: m[1]!, rest: message.slice(m[0].length).trim() } : { ref: null, rest: message.trim() };
}

/** STOP, in the words people text it: "STOP", "stopp", "Stop." */
export function isStopWord(message: string): boolean {
  return /^\s*(stop|stopp)\s*[.!]*\s*$/i.test(message);
}
