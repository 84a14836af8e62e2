/**
 * Random ids over the 62 alphanumerics (spec section 9: "length given by the caller").
 * Item ids are also the sticker's short URL `/{id}`, so they must be unguessable
 * (crypto randomness, no modulo bias) and must never spell a top-level route name.
 */
export const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const ITEM_ID_LENGTH = 10;

/**
 * First path segments the app (or the HTTP layer) owns. React Router matches paths
 * case-insensitively, so ids are compared in lower case. tests/quality/route-table.test.ts
 * fails when this list and app/routes.ts disagree.
 */
export const RESERVED_ROUTE_NAMES: ReadonlySet<string> = new Set([
  "account",
  "admin",
  "api",
  "assets",
  "claim",
  "companies",
  "consent",
  "contact",
  "cookies",
  "dashboard",
  "find",
  "healthz",
  "invite",
  "language",
  "login",
  "logout",
  "m",
  "messages",
  "order",
  "organisations",
  "privacy",
  "product",
  "readyz",
  "resetpassword",
  "scope",
  "support",
  "t",
  "terms",
  "user",
  "webhooks",
]);

type RandomFill = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array;
const cryptoFill: RandomFill = (bytes) => globalThis.crypto.getRandomValues(bytes);

/** A random id of `length` characters from ID_ALPHABET, never a reserved route name. */
export function randomId(length: number, fill: RandomFill = cryptoFill): string {
  if (!Number.isInteger(length) || length < 1) throw new RangeError("id length must be a positive integer");
  for (;;) {
    let id = "";
    while (id.length < length) {
      const bytes = fill(new Uint8Array(length * 2));
      for (const b of bytes) {
        // 248 = 4 * 62: rejecting bytes above it keeps every character equally likely.
        if (b < 248 && id.length < length) id += ID_ALPHABET[b % 62];
      }
    }
    if (!RESERVED_ROUTE_NAMES.has(id.toLowerCase())) return id;
  }
}

export function newItemId(): string {
  return randomId(ITEM_ID_LENGTH);
}

const ITEM_ID_RE = new RegExp(`^[A-Za-z0-9]{${ITEM_ID_LENGTH}}$`);

/** Whether `value` has the shape of an item id (the short route only answers these). */
export function isItemId(value: unknown): value is string {
  return typeof value === "string" && ITEM_ID_RE.test(value) && !RESERVED_ROUTE_NAMES.has(value.toLowerCase());
}
