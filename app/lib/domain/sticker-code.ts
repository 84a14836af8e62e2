/**
 * The typeable code printed under a sticker's QR code (decision 015), for finders who type
 * instead of scan. Nine characters from 31 symbols that cannot be mistaken for each other
 * when read off a sticker: digits 2–9 and the capital letters without I, L and O (so no
 * 0/O and no 1/I/L). 31^9 ≈ 2^44.6 codes, drawn with crypto randomness without modulo bias.
 * Stored without separators in upper case; shown in groups of three ("K7M-29Q-XHR").
 * Typed codes are read leniently: case, spaces and dashes do not matter.
 */
export const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const CODE_LENGTH = 9;
const GROUP = 3;

type RandomFill = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array;
const cryptoFill: RandomFill = (bytes) => globalThis.crypto.getRandomValues(bytes);

/** A new random code (canonical form: 9 characters, no separators). */
export function newStickerCode(fill: RandomFill = cryptoFill): string {
  let code = "";
  while (code.length < CODE_LENGTH) {
    for (const b of fill(new Uint8Array(CODE_LENGTH * 2))) {
      // 248 = 8 * 31: bytes above it are dropped so every symbol is equally likely.
      if (b < 248 && code.length < CODE_LENGTH) code += CODE_ALPHABET[b % 31];
    }
  }
  return code;
}

const CODE_RE = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);

/** Whether `value` is a code in canonical form. */
export function isStickerCode(value: unknown): value is string {
  return typeof value === "string" && CODE_RE.test(value);
}

/**
 * What a finder typed, in canonical form, or null when it cannot be a code. Spaces (any
 * kind), dashes (any kind), dots and underscores are ignored, letters upper-cased.
 */
export function normalizeStickerCode(typed: string): string | null {
  if (typed.length > 64) return null;
  const compact = typed.replace(/[\s\p{Pd}._]+/gu, "").toUpperCase();
  return isStickerCode(compact) ? compact : null;
}

/** "K7M29QXHR" → "K7M-29Q-XHR". */
export function formatStickerCode(code: string): string {
  const groups: string[] = [];
  for (let i = 0; i < code.length; i += GROUP) groups.push(code.slice(i, i + GROUP));
  return groups.join("-");
}
