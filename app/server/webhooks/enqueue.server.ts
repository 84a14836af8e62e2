/**
 * Queueing a webhook event (decision 061): one message per enabled endpoint of the
 * organisation that chose its type, and one row of the one outbox (lane `webhook`) to
 * deliver it, in the caller's transaction (the announcer's, where it announces inside one).
 * The event's id is derived from what happened (`key`), and (endpoint, event) is the
 * message's primary key: an announcement that is retried queues nothing twice.
 */
import { createHash, randomUUID } from "node:crypto";
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from "~/lib/domain/webhooks";
import type { DB } from "../db/db.server";
import { parseEndpoint } from "../channels/public-address.server";
import { insertOutboxRow } from "../outbox/outbox.repository.server";
import type { WebhookData, WebhookPayload } from "./payloads.server";
import * as repo from "./webhooks.repository.server";

/** `msg_` and 27 base64url characters of the key's SHA-256: the same key, the same id. */
export function eventIdOf(key: string): string {
  return `msg_${createHash("sha256").update(key, "utf8").digest("base64url").slice(0, 27)}`;
}

/** The outbox's target of an endpoint: its host:port (the lane's share and back-off are per host). */
function targetOf(url: string): string {
  const parsed = parseEndpoint(url);
  return typeof parsed === "string" ? url.slice(0, 200) : parsed.hostPort;
}

/** One delivery of a queued message: a row of the outbox, due now. */
export async function queueDelivery(
  db: DB,
  endpoint: repo.EndpointRow,
  eventId: string,
  eventType: string,
  now: number,
) {
  await insertOutboxRow(
    db,
    {
      id: randomUUID(),
      channel: "webhook",
      to: endpoint.id,
      subject: eventType,
      text: eventId,
      target: targetOf(endpoint.url),
      account: endpoint.organisationId,
    },
    now,
  );
}

function payloadOf(eventId: string, type: string, at: number, data: WebhookData): string {
  const body: WebhookPayload = { id: eventId, type, timestamp: new Date(at).toISOString(), data };
  return JSON.stringify(body);
}

/** The organisation's enabled endpoints that chose `type`. */
export async function endpointsFor(
  db: DB,
  organisationId: string,
  type: WebhookEventType,
): Promise<repo.EndpointRow[]> {
  return (await repo.listEnabledEndpoints(db, organisationId)).filter((e) => e.events.split(",").includes(type));
}

/**
 * The event for every enabled endpoint of the organisation that chose `type`. `data` is
 * built only when one did. Answers the deliveries queued.
 */
export async function enqueueWebhookEvent(
  db: DB,
  input: {
    organisationId: string;
    type: WebhookEventType;
    key: string;
    at: number;
    now: number;
    data: () => WebhookData | Promise<WebhookData>;
  },
): Promise<number> {
  const endpoints = await endpointsFor(db, input.organisationId, input.type);
  if (endpoints.length === 0) return 0;
  const eventId = eventIdOf(`${input.type}:${input.key}`);
  const payload = payloadOf(eventId, input.type, input.at, await input.data());
  let queued = 0;
  for (const endpoint of endpoints) {
    const message = { endpointId: endpoint.id, eventId, eventType: input.type, payload, createdAt: input.now };
    if (!(await repo.insertMessage(db, message))) continue;
    await queueDelivery(db, endpoint, eventId, input.type, input.now);
    queued++;
  }
  return queued;
}

/** "Send a test event": a fresh event of type `webhook.test` for this endpoint alone. */
export async function enqueueTestEvent(db: DB, endpoint: repo.EndpointRow, now: number): Promise<string> {
  const eventId = eventIdOf(`${WEBHOOK_TEST_EVENT}:${randomUUID()}`);
  const payload = payloadOf(eventId, WEBHOOK_TEST_EVENT, now, {});
  await repo.insertMessage(db, {
    endpointId: endpoint.id,
    eventId,
    eventType: WEBHOOK_TEST_EVENT,
    payload,
    createdAt: now,
  });
  await queueDelivery(db, endpoint, eventId, WEBHOOK_TEST_EVENT, now);
  return eventId;
}
