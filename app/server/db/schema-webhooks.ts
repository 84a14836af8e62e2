/** Tables of the organisations' signed webhooks (decision 061, migration 0067). */

/** A URL an organisation's admin added to hear of its events. */
export interface WebhookEndpointTable {
  id: string;
  organisationId: string;
  /** https only; its host resolved to public addresses when saved (and on every delivery). */
  url: string;
  /** `whsec_` + base64 of 32 random bytes (Standard Webhooks): kept in clear, the server signs with it. */
  secret: string;
  /** The chosen event types, comma-separated (`item.scanned,order.paid`). */
  events: string;
  /** 0 | 1 */
  enabled: number;
  /** Why it is disabled: 'admin' (switched off) | 'failing' (3 days of failed deliveries); null while enabled. */
  disabledReason: string | null;
  createdAt: number;
  /** The admin who added it. */
  createdBy: string;
  /** The first failed delivery since the last one that succeeded; null: not failing. */
  failingSince: number | null;
}

/**
 * One event for one endpoint: the payload as signed and sent, once. The primary key
 * (endpointId, eventId) is what makes a retried announcement queue nothing twice.
 */
export interface WebhookMessageTable {
  endpointId: string;
  /** The event's id (`msg_…`), the `webhook-id` header: the same on every retry and resend. */
  eventId: string;
  /** `item.scanned`, …, or `webhook.test`. */
  eventType: string;
  /** The JSON body. */
  payload: string;
  createdAt: number;
}

/** One delivery attempt: the endpoint's delivery log. */
export interface WebhookDeliveryTable {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attemptedAt: number;
  /** The receiver's HTTP status, or null when none came (time-out, refused, private address). */
  statusCode: number | null;
  durationMs: number;
  /** 0 | 1: a 2xx answer. */
  ok: number;
  /** Why it failed, short; null when it did not. */
  error: string | null;
}
