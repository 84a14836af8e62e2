/**
 * One signed POST to an organisation's endpoint (decision 061), as Standard Webhooks says:
 * `webhook-id` (the event's id, the same on every retry), `webhook-timestamp` (seconds)
 * and `webhook-signature: v1,<base64 HMAC-SHA256>` over `id.timestamp.body`, signed by the
 * `standardwebhooks` library with the endpoint's `whsec_` secret. The request is ours: a
 * deadline (10 s), at most a few KB of the answer read, and a connection only to public
 * addresses (channels/public-address.server.ts, checked again here on every delivery)
 * unless the host is in WEBHOOK_ALLOW_HOSTS.
 */
import https from "node:https";
import net from "node:net";
import { Webhook } from "standardwebhooks";
import { isAllowedHost, isPublicAddress, parseEndpoint } from "../channels/public-address.server";
import { postToPublicHost } from "../channels/outbound-post.server";

/** How long one delivery may take, connection to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookTransport {
  /** Extra trusted CA certificates (PEM), besides the system's and NODE_EXTRA_CA_CERTS (tests). */
  ca?: string[];
  /** Deadline of one delivery (default WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number;
  /** First retry's delay; each next one four times longer (default WEBHOOK_BACKOFF_BASE_MS). */
  backoffBaseMs?: number;
}

export type DeliveryOutcome =
  | { result: "delivered"; status: number }
  /** An answer that was not 2xx, or none (no status: time-out, refused, unreachable). */
  | { result: "failed"; status?: number; error: string }
  /** The URL is not https or its host is (or resolved to) a private address: never sent. */
  | { result: "refused"; error: string };

const agent = new https.Agent({ keepAlive: true, maxSockets: 16 });

/** The Standard Webhooks headers for `body`, signed with `secret` at `now`. */
export function signedHeaders(secret: string, eventId: string, now: number, body: string): Record<string, string> {
  const at = new Date(now);
  return {
    "content-type": "application/json",
    "user-agent": "Hittad-Webhooks/1",
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(now / 1000)),
    "webhook-signature": new Webhook(secret).sign(eventId, at, body),
  };
}

/** Sends the body; never throws for what the receiver or the network does. */
export async function deliver(
  target: { url: string; secret: string },
  message: { eventId: string; payload: string },
  opts: { allowHosts: readonly string[]; now: number; transport?: WebhookTransport },
): Promise<DeliveryOutcome> {
  const parsed = parseEndpoint(target.url);
  if (typeof parsed === "string") return { result: "refused", error: `url ${parsed}` };
  const allowed = isAllowedHost(parsed.hostPort, opts.allowHosts);
  if (!allowed && net.isIP(parsed.hostname) && !isPublicAddress(parsed.hostname)) {
    return { result: "refused", error: "private address" };
  }
  const headers = signedHeaders(target.secret, message.eventId, opts.now, message.payload);
  const body = Buffer.from(message.payload, "utf8");
  const timeoutMs = opts.transport?.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const answer = await postToPublicHost({
    parsed,
    allowed,
    headers: { ...headers, "content-length": String(body.length) },
    body,
    agent,
    timeoutMs,
    ca: opts.transport?.ca,
  });
  if ("error" in answer) {
    return answer.privateAddress
      ? { result: "refused", error: "private address" }
      : { result: "failed", error: answer.error.slice(0, 300) };
  }
  const { status } = answer;
  if (status >= 200 && status < 300) return { result: "delivered", status };
  return { result: "failed", status, error: `${status} ${answer.text.replace(/\s+/g, " ").trim()}`.slice(0, 300) };
}
