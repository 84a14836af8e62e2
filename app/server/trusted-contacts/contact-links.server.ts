/**
 * The private links of trusted contacts (decision 040). Stop and reply
 * links are derived, not stored: the ids they open (UUIDs as 22 base64url characters) and
 * an HMAC (AUTH_SECRET) over them, short enough for a one-part SMS. A wrong or altered
 * link matches nothing (404). They still work only while the contact is confirmed and not
 * stopped (checked where they are used).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Config } from "../config.server";

const SIG_LENGTH = 16;

function sig(secret: string, ...parts: string[]): string {
  return createHmac("sha256", secret).update(parts.join("\n")).digest("base64url").slice(0, SIG_LENGTH);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A UUID as 22 base64url characters. */
function pack(uuid: string): string {
  return Buffer.from(uuid.replace(/-/g, ""), "hex").toString("base64url");
}

function unpack(s: string): string | null {
  if (!/^[A-Za-z0-9_-]{22}$/.test(s)) return null;
  const hex = Buffer.from(s, "base64url").toString("hex");
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return UUID.test(uuid) ? uuid : null;
}

export function stopToken(config: Pick<Config, "authSecret">, contactId: string): string {
  return `${pack(contactId)}${sig(config.authSecret, "stop", contactId)}`;
}

export function stopUrl(config: Pick<Config, "authSecret" | "baseUrl">, contactId: string): string {
  return new URL(`/t/s/${stopToken(config, contactId)}`, config.baseUrl).toString();
}

/** The contact's id, or null when the token is not one we made. */
export function readStopToken(config: Pick<Config, "authSecret">, token: string): string | null {
  if (token.length !== 22 + SIG_LENGTH) return null;
  const id = unpack(token.slice(0, 22));
  if (!id) return null;
  return same(token.slice(22), sig(config.authSecret, "stop", id)) ? id : null;
}

export function replyToken(config: Pick<Config, "authSecret">, conversationId: string, contactId: string): string {
  return `${pack(conversationId)}${pack(contactId)}${sig(config.authSecret, "reply", conversationId, contactId)}`;
}

export function replyUrl(
  config: Pick<Config, "authSecret" | "baseUrl">,
  conversationId: string,
  contactId: string,
): string {
  return new URL(`/t/r/${replyToken(config, conversationId, contactId)}`, config.baseUrl).toString();
}

export function readReplyToken(
  config: Pick<Config, "authSecret">,
  token: string,
): { conversationId: string; contactId: string } | null {
  if (token.length !== 44 + SIG_LENGTH) return null;
  const conversationId = unpack(token.slice(0, 22));
  const contactId = unpack(token.slice(22, 44));
  if (!conversationId || !contactId) return null;
  return same(token.slice(44), sig(config.authSecret, "reply", conversationId, contactId))
    ? { conversationId, contactId }
    : null;
}

export function confirmUrl(config: Pick<Config, "baseUrl">, token: string): string {
  return new URL(`/t/c/${token}`, config.baseUrl).toString();
}

/**
 * The short links an SMS carries (decision 040, second round): a reply and a stop link
 * together must fit one 160-character part beside the item's name. Each is a code derived
 * like the long tokens (HMAC over the ids, AUTH_SECRET) but short — 12 characters (72
 * bits) for a reply, 10 (60 bits) for a stop — and found through the SHA-256 of the code
 * stored when the SMS is queued (trusted_contact_links). Guessing one is still hopeless:
 * each wrong guess is one request answered 404.
 */
export const SHORT_REPLY_LENGTH = 12;
export const SHORT_STOP_LENGTH = 10;

export function shortStopCode(config: Pick<Config, "authSecret">, contactId: string): string {
  return createHmac("sha256", config.authSecret)
    .update(`short-stop\n${contactId}`)
    .digest("base64url")
    .slice(0, SHORT_STOP_LENGTH);
}

export function shortReplyCode(config: Pick<Config, "authSecret">, conversationId: string, contactId: string): string {
  return createHmac("sha256", config.authSecret)
    .update(`short-reply\n${conversationId}\n${contactId}`)
    .digest("base64url")
    .slice(0, SHORT_REPLY_LENGTH);
}

export function shortStopUrl(config: Pick<Config, "authSecret" | "baseUrl">, contactId: string): string {
  return new URL(`/t/s/${shortStopCode(config, contactId)}`, config.baseUrl).toString();
}

export function shortReplyUrl(
  config: Pick<Config, "authSecret" | "baseUrl">,
  conversationId: string,
  contactId: string,
): string {
  return new URL(`/t/r/${shortReplyCode(config, conversationId, contactId)}`, config.baseUrl).toString();
}

/** Whether `token` has the shape of a short code of this kind (else: a long token, or nothing). */
export function isShortCode(token: string, kind: "stop" | "reply"): boolean {
  return token.length === (kind === "stop" ? SHORT_STOP_LENGTH : SHORT_REPLY_LENGTH) && /^[A-Za-z0-9_-]+$/.test(token);
}
