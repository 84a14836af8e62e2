/**
 * The name a message greets someone by, or names who asked: the first word of their name
 * ("Anna Maria Lind" → "Anna"), as people write "Hej Anna!" / "Hello Anna," (decision 018).
 * A name is text its owner typed, and mails reach people who never agreed to read it
 * (decision 046): only a plain word passes — letters of any script, with an apostrophe or
 * a hyphen inside, at most FIRST_NAME_MAX characters. Anything else ("URGENT:", a
 * web address, digits) gives the fallback (their email, or Hittad's words for "someone").
 */
export const FIRST_NAME_MAX = 40;

const PLAIN_WORD = /^\p{L}[\p{L}\p{M}]*(?:['’-][\p{L}\p{M}]+)*$/u;

export function firstName(name: string | null | undefined, fallback: string): string {
  const first = (name ?? "").trim().split(/\s+/)[0] ?? "";
  return [...first].length <= FIRST_NAME_MAX && PLAIN_WORD.test(first) ? first : fallback;
}
