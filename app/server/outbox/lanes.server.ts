/**
 * The delivery lanes of the one outbox (docs/decisions/049-fair-delivery-lanes.md). Each
 * channel of `mail_outbox` is delivered in a lane of its own, with its own slots, so a
 * push service that hangs cannot hold up a verification mail. Within a lane no single
 * target (an address, a number, a push service's host) and no single account may hold
 * more than `share` slots at once. A lane with `backoff` sets its target aside after a
 * time-out or a refused connection (the sender's TargetDown), instead of trying its other
 * rows one slot-time after another.
 *
 * A new kind of message (the organisations' signed webhooks) is one more entry here, plus
 * an enqueue function that sets `target` (the endpoint's host) and `account` (the
 * organisation), plus a ChannelSender given to the worker: the worker, the claims, the
 * metrics and the crash recovery need nothing else.
 */
import { OTHER_PUSH_PREFIX } from "../push/push-target.server";

export interface LaneSpec {
  /** Rows this lane sends at once, per instance. */
  slots: number;
  /** Of those, at most this many for one target, and at most this many for one account. */
  share: number;
  /** A target that timed out or refused the connection is set aside (outbox_backoffs). */
  backoff: boolean;
  /** A row still waiting after this long fails without a request (a notice that late is noise). */
  maxAgeMs?: number;
  /** The `queue` label of the outbox gauges on /metrics. */
  queue: string;
  /** Targets whose key starts with `prefix` share `slots` of the lane between them (decision 058). */
  pool?: { prefix: string; slots: number };
}

/** Longer than any sender's own deadline, shorter than the claim's lease (LOCK_MS). */
export const SEND_DEADLINE_MS = 30_000;

export const LANES = {
  // One SMTP relay takes every mail; one recipient's burst may use a quarter of the lane.
  email: { slots: 8, share: 2, backoff: false, queue: "mail" },
  // One provider (46elks) takes every SMS; one number or account at a time.
  sms: { slots: 4, share: 1, backoff: false, queue: "sms" },
  // Push services are hosts the browsers chose (decision 034): any of them may hang.
  // Hosts outside the known push services share two slots (push-target.server.ts, decision 058).
  push: {
    slots: 8,
    share: 2,
    backoff: true,
    maxAgeMs: 60 * 60_000,
    queue: "push",
    pool: { prefix: OTHER_PUSH_PREFIX, slots: 2 },
  },
  // Organisations' webhooks (decision 061): hosts they chose; any may hang. Per host and per organisation.
  webhook: { slots: 8, share: 2, backoff: true, queue: "webhook" },
} as const satisfies Record<string, LaneSpec>;

export type LaneName = keyof typeof LANES;

export const LANE_NAMES = Object.keys(LANES) as LaneName[];

export function isLane(channel: string): channel is LaneName {
  return Object.hasOwn(LANES, channel);
}

/** A target's pause after its `strikes`-th time-out in a row: 30 s, 1 min, 2 min, … at most an hour. */
export function targetBackoffMs(strikes: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, strikes - 1), 60 * 60_000);
}
