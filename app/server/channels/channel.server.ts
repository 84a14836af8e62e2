/**
 * A channel's sender, as the outbox worker (mail/mail.server.ts) calls it: email, SMS
 * (sms/elks.server.ts) and push (push/push-channel.server.ts) plug in the same way.
 * `send` resolves when the provider accepted the message, and throws to have it retried
 * with back-off (a RetryLater may ask for a longer wait); a PermanentError fails it at
 * once (a number the provider refuses, a push endpoint that is gone); a TargetDown says
 * the destination itself did not answer, and its lane sets every row for it aside for a
 * while (decision 049).
 */
import type { Selectable } from "kysely";
import type { MailOutboxTable } from "../db/schema";

export type OutboxRow = Selectable<MailOutboxTable>;

export interface ChannelSender {
  send(row: OutboxRow): Promise<{ providerId?: string | null } | void>;
  /** Tries before the row fails for good (default: the outbox's MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Delay before retry number `attempts` (default: the outbox's backoffMs; webhooks retry for days). */
  backoffMs?(attempts: number): number;
  close?(): void;
}

export class PermanentError extends Error {
  readonly permanent = true;
}

/** A failure worth another try, not before `retryAfterMs` (a provider's Retry-After). */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * The destination did not answer in time or refused the connection (a push service's
 * host, later a webhook's): not this row's fault, so a lane with back-off pauses all
 * rows for the target instead of trying them one slot-time after another (decision 049).
 */
export class TargetDown extends RetryLater {
  readonly targetDown = true;
}
