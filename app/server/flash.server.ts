/**
 * One-shot messages carried across a redirect (the spec's alert-then-navigate, e.g.
 * 'Error load product' then /dashboard). The cookie holds only a known key, never text,
 * so nothing a visitor sets can be shown as a message.
 */
import * as cookie from "cookie";

export const FLASH_COOKIE = "flash";

// Their texts are one small area (flash.json): the pages that show them (home, dashboard,
// order) need not load the items, sticker and account areas for one line (decision 020).
const FLASH_MESSAGES = {
  errorLoadProduct: "flash.errorLoadProduct",
  replacementOrdered: "flash.replacementOrdered",
  accountDeleted: "flash.accountDeleted",
  itemDeleted: "flash.itemDeleted",
  // A successful save that redirects (decision 018): "Your changes are saved." / "Dina ändringar är sparade.".
  saved: "common.saved",
} as const;
export type FlashKey = keyof typeof FLASH_MESSAGES;

const SUCCESS_MESSAGES: ReadonlySet<string> = new Set([
  FLASH_MESSAGES.saved,
  FLASH_MESSAGES.replacementOrdered,
  FLASH_MESSAGES.accountDeleted,
  FLASH_MESSAGES.itemDeleted,
]);

/** Confirmations are shown as success, the rest as errors. */
export function flashIsSuccess(message: string | null): boolean {
  return message !== null && SUCCESS_MESSAGES.has(message);
}

export function setFlash(key: FlashKey, secure: boolean): string {
  return cookie.serialize(FLASH_COOKIE, key, { path: "/", httpOnly: true, sameSite: "lax", secure, maxAge: 60 });
}

/** The translation key of the pending message (or null) and the header that clears it. */
export function takeFlash(request: Request): { message: string | null; clear: string | null } {
  const value = cookie.parse(request.headers.get("Cookie") ?? "")[FLASH_COOKIE];
  if (value === undefined) return { message: null, clear: null };
  const message = Object.hasOwn(FLASH_MESSAGES, value) ? FLASH_MESSAGES[value as FlashKey] : null;
  return { message, clear: cookie.serialize(FLASH_COOKIE, "", { path: "/", httpOnly: true, maxAge: 0 }) };
}

/** A private page's headers: never stored, and the pending message's cookie cleared. */
export function privatePageHeaders(flash: { clear: string | null }): Headers {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (flash.clear) headers.append("Set-Cookie", flash.clear);
  return headers;
}
