/**
 * Push as a channel of the one outbox (decision 040): the alert fan-out queues
 * a `mail_outbox` row with channel 'push' whose `to` is the subscription's id and whose
 * `text` is the payload (JSON); the outbox worker claims it like any row and calls this
 * sender. A subscription removed meanwhile, or one the push service calls gone (404/410,
 * then forgotten here), fails the row at once; 5xx, 429, time-outs are retried with the
 * outbox's back-off, at most PUSH_MAX_ATTEMPTS times (a notice an hour late is noise). A
 * push service that does not answer or cannot be reached is TargetDown: the push lane
 * sets its host aside for a while (decision 049) rather than let it hold slot after slot.
 */
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { PermanentError, RetryLater, TargetDown, type ChannelSender } from "../channels/channel.server";
import { sendPushNotification, type PushPayload } from "./push-sender.server";
import * as repo from "./push.repository.server";

/** Notices go stale: 5 s, 10 s, … about two and a half minutes of retries, then failed. */
export const PUSH_MAX_ATTEMPTS = 6;

export function createPushSender(deps: Pick<Deps, "db" | "config" | "clock" | "push">): ChannelSender {
  return {
    maxAttempts: PUSH_MAX_ATTEMPTS,
    async send(row) {
      const sub = await repo.findSubscription(deps.db, row.to);
      if (!sub) throw new PermanentError("device removed");
      let payload: PushPayload;
      try {
        payload = JSON.parse(row.text) as PushPayload;
      } catch {
        throw new PermanentError("payload unreadable");
      }
      const outcome = await sendPushNotification(deps, sub, payload);
      switch (outcome.result) {
        case "delivered":
          await repo.markSent(deps.db, sub.id, deps.clock());
          return;
        case "gone":
          // The browser unsubscribed or the push service expired it: forget the device.
          logger.info({ subscriptionId: sub.id, status: outcome.status }, "push subscription gone; removed");
          await repo.deleteSubscription(deps.db, sub.id);
          throw new PermanentError(`${outcome.status} gone: device removed`);
        case "retry":
          // No HTTP status: the host timed out or refused the connection.
          if (outcome.status === undefined) throw new TargetDown(outcome.error);
          throw new RetryLater(outcome.error, outcome.retryAfterMs);
        case "failed":
          throw new PermanentError(outcome.error);
      }
    },
  };
}
