/**
 * Webhooks as a channel of the one outbox (decisions 049 and 061): each queued message is
 * a `mail_outbox` row in lane `webhook` (to: the endpoint, text: the event id, target: the
 * endpoint's host, account: the organisation); the outbox worker claims it like any row
 * (one instance sends it, however many run) and calls this sender. Every attempt is
 * written to the endpoint's delivery log. A 2xx answer is delivered; anything else is
 * retried with exponential back-off (5 s, 20 s, 80 s, … at most 6 h apart) until the
 * message is 3 days old; a host that does not answer is TargetDown, so the lane sets it
 * aside instead of trying its other rows one after another. An endpoint that has failed
 * for 3 days is disabled and its organisation's admins are mailed (failing.server.ts).
 */
import { randomUUID } from "node:crypto";
import type { Deps } from "../service-deps.server";
import { PermanentError, RetryLater, TargetDown, type ChannelSender } from "../channels/channel.server";
import { deliver, type WebhookTransport } from "./deliver.server";
import { disableFailingEndpoint } from "./failing.server";
import * as repo from "./webhooks.repository.server";

/** How long a message is retried, and how long an endpoint may fail before it is disabled. */
export const WEBHOOK_RETRY_FOR_MS = 3 * 24 * 60 * 60_000;
export const WEBHOOK_BACKOFF_BASE_MS = 5_000;
export const WEBHOOK_BACKOFF_MAX_MS = 6 * 60 * 60_000;
/** A guard only: the message's age ends its retries first (about 15 tries in 3 days). */
const MAX_ATTEMPTS = 100;

/** Delay before retry number `attempts` (1-based): base, 4 × base, 16 × base, … at most 6 h. */
export function webhookBackoffMs(attempts: number, baseMs = WEBHOOK_BACKOFF_BASE_MS): number {
  return Math.min(baseMs * 4 ** Math.max(0, attempts - 1), WEBHOOK_BACKOFF_MAX_MS);
}

export function createWebhookSender(
  deps: Pick<Deps, "db" | "config" | "clock">,
  transport: WebhookTransport = {},
): ChannelSender {
  const { db } = deps;
  return {
    maxAttempts: MAX_ATTEMPTS,
    backoffMs: (attempts) => webhookBackoffMs(attempts, transport.backoffBaseMs),
    async send(row) {
      const endpoint = await repo.findEndpoint(db, row.to);
      if (!endpoint) throw new PermanentError("endpoint deleted");
      if (!endpoint.enabled) throw new PermanentError("endpoint disabled");
      const message = await repo.findMessage(db, endpoint.id, row.text);
      if (!message) throw new PermanentError("message deleted");
      const now = deps.clock();
      const started = performance.now();
      const outcome = await deliver(endpoint, message, {
        allowHosts: deps.config.webhooks.allowHosts,
        now,
        transport,
      });
      const ok = outcome.result === "delivered";
      const attempt = {
        id: randomUUID(),
        endpointId: endpoint.id,
        eventId: message.eventId,
        eventType: message.eventType,
        attemptedAt: now,
        statusCode: "status" in outcome ? (outcome.status ?? null) : null,
        durationMs: Math.round(performance.now() - started),
        ok: ok ? 1 : 0,
        error: ok ? null : outcome.error,
      };
      // The attempt's log line and the endpoint's state in one transaction: nobody reads a
      // delivery logged as answered on an endpoint still marked failing, or the reverse.
      if (outcome.result === "delivered") {
        await db.transaction().execute(async (trx) => {
          await repo.insertDelivery(trx, attempt);
          await repo.clearFailing(trx, endpoint.id);
        });
        return;
      }
      const failingSince = await db.transaction().execute(async (trx) => {
        await repo.insertDelivery(trx, attempt);
        return repo.markFailing(trx, endpoint.id, now);
      });
      if (now - failingSince >= WEBHOOK_RETRY_FOR_MS) await disableFailingEndpoint(deps, endpoint, failingSince, now);
      if (outcome.result === "refused") throw new PermanentError(outcome.error);
      if (now - Number(row.createdAt) >= WEBHOOK_RETRY_FOR_MS) {
        throw new PermanentError(`${outcome.error}; not retried after 3 days`);
      }
      if (outcome.status === undefined) throw new TargetDown(outcome.error);
      throw new RetryLater(outcome.error);
    },
  };
}
