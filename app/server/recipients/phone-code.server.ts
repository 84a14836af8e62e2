/**
 * The rules of a six-digit code sent by SMS (decision 033): the owner confirming their own
 * number (alerts.service) and a trusted contact reached only by SMS confirming that they
 * agree (contacts.service, decision 040) follow the same ones: valid 10 minutes, five
 * tries counted in the statement that checks one is left, and an HMAC of the code
 * (AUTH_SECRET, bound to whom and which number it was sent for) is all that is stored.
 */
import { createHmac, randomInt, timingSafeEqual } from "node:crypto";

export const PHONE_CODE_TTL_MS = 10 * 60_000;
export const PHONE_CODE_TRIES = 5;

/** A fresh code: six digits, leading zeros kept. */
export function newPhoneCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/** The typed code without spaces, or null when it is not six digits. */
export function readPhoneCode(typed: string): string | null {
  const code = typed.replace(/\s/g, "");
  return /^\d{6}$/.test(code) ? code : null;
}

/** The stored form: HMAC (AUTH_SECRET) over what the code is bound to and the code. */
export function phoneCodeHash(secret: string, boundTo: string[], code: string): string {
  return createHmac("sha256", secret)
    .update([...boundTo, code].join("\n"))
    .digest("hex");
}

/** Constant-time comparison of two stored forms. */
export function samePhoneCodeHash(expectedHex: string, givenHex: string): boolean {
  const a = Buffer.from(expectedHex, "hex");
  const b = Buffer.from(givenHex, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
