/**
 * Sends one web push notification to one subscription (decision 034):
 * the payload encrypted for the browser (aes128gcm, RFC 8291) and the request signed with
 * our VAPID key (RFC 8292), both by the web-push library; the request itself is ours, so it
 * has a deadline, reads at most a few KB of the answer and connects only to public
 * addresses (endpoint.server.ts). The answer says what the caller should record:
 * delivered, gone (404/410: forget the subscription), retry (5xx, 429, network, timeout)
 * or failed (any other refusal; retrying would not help).
 */
import https from "node:https";
import net from "node:net";
import webPush from "web-push";
import type { Lang } from "~/i18n/config";
import type { Deps } from "../service-deps.server";
import { postToPublicHost } from "../channels/outbound-post.server";
import { isAllowedHost, isPublicAddress, parseEndpoint } from "./endpoint.server";
import { vapidKeys } from "./vapid.server";

/** How long one push request may take, connection to answer. */
export const PUSH_TIMEOUT_MS = 10_000;
/** How long a push service keeps an undelivered notification (the device is off): one day. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

/** What the service worker shows (public/sw.js). */
export interface PushPayload {
  title: string;
  body: string;
  /** Absolute URL on BASE_URL opened by a click: the conversation. */
  url: string;
  /** Notifications with the same tag replace each other (one per conversation). */
  tag?: string;
  lang?: Lang;
}

/** The browser's subscription as stored (PushSubscription.toJSON()'s parts). */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type PushOutcome =
  | { result: "delivered"; status: number }
  | { result: "gone"; status: number }
  | { result: "retry"; status?: number; error: string; retryAfterMs?: number }
  | { result: "failed"; status?: number; error: string };

const agent = new https.Agent({ keepAlive: true, maxSockets: 32 });

function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v) return undefined;
  const seconds = Number(v);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 3600) * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.min(Math.max(0, at - now), 3600_000) : undefined;
}

export type { PushTransport } from "../service-deps.server";

/** Sends `payload` to one subscription; never throws for what the push service or network does. */
export async function sendPushNotification(
  deps: Pick<Deps, "db" | "config" | "clock" | "push">,
  target: PushTarget,
  payload: PushPayload,
): Promise<PushOutcome> {
  const parsed = parseEndpoint(target.endpoint);
  if (typeof parsed === "string") return { result: "failed", error: `endpoint ${parsed}` };
  const allowed = isAllowedHost(parsed.hostPort, deps.config.push.allowHosts);
  if (!allowed && net.isIP(parsed.hostname) && !isPublicAddress(parsed.hostname)) {
    return { result: "failed", error: "endpoint private" };
  }
  const keys = await vapidKeys(deps);
  let details: ReturnType<typeof webPush.generateRequestDetails>;
  try {
    details = webPush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: deps.config.push.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: "aes128gcm",
        urgency: "high",
        ...(payload.tag ? { topic: topicOf(payload.tag) } : {}),
      },
    );
  } catch (err) {
    // Keys that are not a P-256 point and a 16-byte secret (the subscribe check should
    // have refused them): no request can ever succeed.
    return { result: "failed", error: `encryption: ${err instanceof Error ? err.message : String(err)}` };
  }
  const timeoutMs = deps.push?.timeoutMs ?? PUSH_TIMEOUT_MS;
  const answer = await postToPublicHost({
    parsed,
    allowed,
    headers: details.headers as Record<string, string | number>,
    body: details.body ?? undefined,
    agent,
    timeoutMs,
    ca: deps.push?.ca,
  });
  if ("error" in answer) return { result: answer.privateAddress ? "failed" : "retry", error: answer.error };
  const { status } = answer;
  const error = `${status} ${answer.text.replace(/\s+/g, " ").trim()}`.slice(0, 300);
  if (status >= 200 && status < 300) return { result: "delivered", status };
  if (status === 404 || status === 410) return { result: "gone", status };
  if (status === 429 || status >= 500) {
    return { result: "retry", status, error, retryAfterMs: retryAfterMs(answer.headers["retry-after"], deps.clock()) };
  }
  return { result: "failed", status, error };
}

/** The Topic header allows 32 base64url characters: the tag, shortened. */
function topicOf(tag: string): string {
  return tag.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32);
}
