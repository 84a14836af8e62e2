/** Relay errors as HTTP (decision 011): one table for the item page, /m/{token} and /messages. */
import { errorTable } from "../http/errors.server";
import { RelayError, type RelayErrorCode } from "./relay.service.server";

export const relayErrors = errorTable<RelayErrorCode>(RelayError, {
  notFound: { status: 404, key: "relay.errors.notFound", on: "page" },
  // The owner's side answers only while the item relays (decision 058).
  closed: { status: 409, key: "relay.errors.closed" },
  rateLimited: {
    status: 429,
    key: "relay.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 0) * 60) }),
  },
  // Without JavaScript (no captcha) while the item is flooded: the page explains (decision 029).
  flooded: {
    status: 429,
    key: "relay.errors.flooded",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 0) * 60) }),
  },
  honeypot: { status: 400, key: "relay.errors.notSent" },
  "captcha.missing": { status: 400, key: "relay.errors.captchaRequired" },
  "captcha.invalid": { status: 400, key: "relay.errors.captchaInvalid" },
  "captcha.expired": { status: 400, key: "relay.errors.captchaExpired" },
  "captcha.used": { status: 400, key: "relay.errors.captchaInvalid" },
  "captcha.unavailable": { status: 503, key: "relay.errors.captchaUnavailable" },
});
