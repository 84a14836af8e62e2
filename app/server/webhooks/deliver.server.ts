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
import tls from "node:tls";
import { Webhook } from "standardwebhooks";
import {
  isAllowedHost,
  isPublicAddress,
  parseEndpoint,
  PRIVATE_ADDRESS_CODE,
  publicOnlyLookup,
} from "../channels/public-address.server";

/** How long one delivery may take, connection to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Of a receiver's answer only this much is read (for the log). */
const ANSWER_MAX_BYTES = 4096;

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
export function deliver(
  target: { url: string; secret: string },
  message: { eventId: string; payload: string },
  opts: { allowHosts: readonly string[]; now: number; transport?: WebhookTransport },
): Promise<DeliveryOutcome> {
  const parsed = parseEndpoint(target.url);
  if (typeof parsed === "string") return Promise.resolve({ result: "refused", error: `url ${parsed}` });
  const allowed = isAllowedHost(parsed.hostPort, opts.allowHosts);
  if (!allowed && net.isIP(parsed.hostname) && !isPublicAddress(parsed.hostname)) {
    return Promise.resolve({ result: "refused", error: "private address" });
  }
  const headers = signedHeaders(target.secret, message.eventId, opts.now, message.payload);
  const body = Buffer.from(message.payload, "utf8");
  const timeoutMs = opts.transport?.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const ca = opts.transport?.ca;
  return new Promise<DeliveryOutcome>((resolve) => {
    let settled = false;
    const done = (outcome: DeliveryOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = https.request({
      hostname: parsed.hostname,
      port: parsed.url.port || 443,
      path: `${parsed.url.pathname}${parsed.url.search}`,
      method: "POST",
      headers: { ...headers, "content-length": String(body.length) },
      agent,
      servername: net.isIP(parsed.hostname) ? undefined : parsed.hostname,
      // An allowed stand-in may resolve to loopback; anything else must resolve to public addresses.
      ...(allowed ? {} : { lookup: publicOnlyLookup }),
      ...(ca ? { ca: [...tls.rootCertificates, ...ca] } : {}),
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on("error", (err: Error & { code?: string }) => {
      if (err.code === PRIVATE_ADDRESS_CODE) done({ result: "refused", error: "private address" });
      else done({ result: "failed", error: err.message.slice(0, 300) });
    });
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      let answer = "";
      const finish = () => {
        if (status >= 200 && status < 300) return done({ result: "delivered", status });
        done({ result: "failed", status, error: `${status} ${answer.replace(/\s+/g, " ").trim()}`.slice(0, 300) });
      };
      res.on("data", (chunk: Buffer) => {
        answer += chunk.toString("utf8");
        if (answer.length >= ANSWER_MAX_BYTES) {
          answer = answer.slice(0, ANSWER_MAX_BYTES);
          finish();
          res.destroy();
        }
      });
      res.on("end", finish);
      res.on("error", finish);
      res.on("close", finish);
    });
    req.end(body);
  });
}
