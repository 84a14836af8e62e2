/**
 * Webhooks (decision 061): the event types an organisation's endpoint may choose, and the
 * forms of /organisations/{id}/webhooks. Messages are translation keys (webhooks.json).
 * No server imports: the page's component reads the same list.
 */
import { z } from "zod";

/** What an endpoint may hear of, in the order the page lists them. */
export const WEBHOOK_EVENT_TYPES = [
  "item.scanned",
  "message.received",
  "item.lost",
  "item.found",
  "sticker.claimed",
  "order.paid",
  "invoice.overdue",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the event "Send a test event" sends (never chosen, always sent when asked). */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === "string" && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** Endpoints one organisation may have. */
export const WEBHOOK_ENDPOINTS_MAX = 10;
/** Longest URL accepted. */
export const WEBHOOK_URL_MAX = 1024;

/** Endpoint ids are `we_` and 22 base64url characters. */
export function isWebhookEndpointId(value: unknown): value is string {
  return typeof value === "string" && /^we_[A-Za-z0-9_-]{22}$/.test(value);
}

/** Event ids (the `webhook-id` header) are `msg_` and 27 base64url characters. */
export function isWebhookEventId(value: unknown): value is string {
  return typeof value === "string" && /^msg_[A-Za-z0-9_-]{27}$/.test(value);
}

/** An endpoint as its page shows it, with its latest deliveries (newest first). */
export interface WebhookEndpointView {
  id: string;
  url: string;
  secret: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: "admin" | "failing" | null;
  createdAt: number;
  failingSince: number | null;
  deliveries: {
    id: string;
    eventId: string;
    eventType: string;
    attemptedAt: number;
    statusCode: number | null;
    durationMs: number;
    ok: boolean;
  }[];
}

/** The add form: a URL (https, checked again by the server) and at least one event type. */
export function readAddEndpointForm(
  form: FormData,
):
  { ok: true; data: { url: string; events: WebhookEventType[] } } | { ok: false; fieldErrors: Record<string, string> } {
  const url = String(form.get("url") ?? "").trim();
  const events = [...new Set(form.getAll("events").filter(isWebhookEventType))];
  const fieldErrors: Record<string, string> = {};
  if (!url) fieldErrors.url = "webhooks.errors.urlRequired";
  else if (url.length > WEBHOOK_URL_MAX) fieldErrors.url = "webhooks.errors.urlInvalid";
  else if (!/^https:\/\//i.test(url)) fieldErrors.url = "webhooks.errors.urlNotHttps";
  if (events.length === 0) fieldErrors.events = "webhooks.errors.eventsNone";
  return Object.keys(fieldErrors).length > 0 ? { ok: false, fieldErrors } : { ok: true, data: { url, events } };
}

/** A button on one endpoint (enable, disable, delete, send a test event). */
export const endpointSchema = z.object({
  endpoint: z.string().refine(isWebhookEndpointId, "webhooks.errors.notFound"),
});

/** "Resend" on one line of an endpoint's delivery log. */
export const resendSchema = endpointSchema.extend({
  event: z.string().refine(isWebhookEventId, "webhooks.errors.notFound"),
});
