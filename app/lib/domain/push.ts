/**
 * The shape of a browser's push subscription (PushSubscription.toJSON()) as
 * POST /api/push/subscriptions takes it (decision 034). Shared by the route and
 * the account page's script. Error messages are translation keys.
 */
import { z } from "zod";

export const PUSH_ENDPOINT_MAX = 1024;
/** Devices one account may have (browsers re-subscribe on the same row; 10 is plenty). */
export const PUSH_DEVICES_MAX = 10;

const base64url = (min: number, max: number) =>
  z
    .string("push.errors.invalid")
    .min(min, "push.errors.invalid")
    .max(max, "push.errors.invalid")
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, "push.errors.invalid")
    .transform((v) => v.replace(/=+$/, ""));

export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string("push.errors.invalid")
    .trim()
    .min(1, "push.errors.invalid")
    .max(PUSH_ENDPOINT_MAX, "push.errors.invalid"),
  // A P-256 point (65 bytes, 87 characters) and a 16-byte secret (22 characters).
  keys: z.object({ p256dh: base64url(86, 90), auth: base64url(21, 24) }, "push.errors.invalid"),
  // The browser's own field; ignored (our notices carry their own TTL).
  expirationTime: z.number().nullish(),
});

export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const pushEndpointSchema = z.object({
  endpoint: z
    .string("push.errors.invalid")
    .trim()
    .min(1, "push.errors.invalid")
    .max(PUSH_ENDPOINT_MAX, "push.errors.invalid"),
});

/** A device label from a User-Agent header ("Chrome, Android"); the header itself is not kept. */
export function deviceLabel(userAgent: string | null | undefined): string {
  const ua = userAgent ?? "";
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? "Edge"
    : /SamsungBrowser\//.test(ua)
      ? "Samsung Internet"
      : /OPR\/|Opera/.test(ua)
        ? "Opera"
        : /Firefox\/|FxiOS\//.test(ua)
          ? "Firefox"
          : /Chrome\/|CriOS\//.test(ua)
            ? "Chrome"
            : /Safari\//.test(ua)
              ? "Safari"
              : "";
  const os = /iPhone/.test(ua)
    ? "iPhone"
    : /iPad/.test(ua)
      ? "iPad"
      : /Android/.test(ua)
        ? "Android"
        : /Windows/.test(ua)
          ? "Windows"
          : /Mac OS X|Macintosh/.test(ua)
            ? "macOS"
            : /CrOS/.test(ua)
              ? "ChromeOS"
              : /Linux/.test(ua)
                ? "Linux"
                : "";
  return [browser, os].filter(Boolean).join(", ");
}
