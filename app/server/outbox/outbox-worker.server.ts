/**
 * The outbox worker (decisions 033, 040 and 049): every channel of `mail_outbox` in a lane
 * of its own (lanes.server.ts). A lane refills its free slots whenever there is reason to
 * think there is work: a row was queued in this process (wakeOutbox), a slot came free,
 * or the poll (MAIL_POLL_MS) came round. A lane claims only what fits its free slots and
 * the shares: no target and no account holds more than `share` of them, so a push host
 * that never answers ties up at most its share of the push lane and nothing of the mail
 * lane. A target that times out is set aside (outbox_backoffs) and holds no slot while
 * it waits. No send may hold a slot longer than SEND_DEADLINE_MS, which is shorter than
 * the claim's lease: another instance never takes a row that is still being sent.
 *
 * A lane runs only when it has a sender: rows of a channel this instance cannot send (a
 * newer version's lane during a rolling deploy) wait for an instance that can.
 */
import { logger } from "../logger.server";
import { markDeliveryFailed, markDeliverySent } from "../alerts/alerts.repository.server";
import { PermanentError, TargetDown, type ChannelSender, type OutboxRow } from "../channels/channel.server";
import { LANE_NAMES, LANES, SEND_DEADLINE_MS, type LaneName, type LaneSpec } from "./lanes.server";
import * as repo from "./outbox.repository.server";
import type { Clock } from "../clock.server";
import type { DB } from "../db/db.server";

/** Tries before a row fails for good, unless its sender says otherwise (ChannelSender.maxAttempts). */
const MAX_ATTEMPTS = 8;
/** A claim's lease: a row claimed by an instance that died is due again after it. */
const LOCK_MS = 60_000;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 60 * 60_000;

/** Delay before retry number `attempts` (1-based): 5 s, 10 s, 20 s, … capped at 1 h. */
export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
}

/** The sender's own back-off if it has one (webhooks retry for days), else the outbox's. */
function retryDelayMs(sender: ChannelSender, attempts: number): number {
  return sender.backoffMs ? sender.backoffMs(attempts) : backoffMs(attempts);
}

/** A text with e-mail addresses replaced, for log lines. */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, "[address]");
}

const wakers = new Set<(lane?: LaneName) => void>();

/** Wake this process's lanes at once (after a transaction that queued rows committed); one lane, or all. */
export function wakeOutbox(lane?: LaneName): void {
  for (const wake of wakers) wake(lane);
}

export interface OutboxWorker {
  /** Deliver everything that is due now; resolves when nothing is left. */
  drain(): Promise<void>;
  /** Stops claiming and waits for the sends under way. */
  stop(): Promise<void>;
}

interface Lane {
  name: LaneName;
  spec: LaneSpec;
  sender: ChannelSender;
  /** The sends under way, by row id. */
  sending: Map<string, Promise<void>>;
  byTarget: Map<string, number>;
  byAccount: Map<string, number>;
  filling: Promise<void> | undefined;
  again: boolean;
}

interface Claimed {
  row: OutboxRow;
  /** The target's strikes when the row was claimed (a pause that has ended), or null. */
  strikes: number | null;
}

function bump(counts: Map<string, number>, key: string | null, by: number) {
  if (key === null) return;
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

/** Slots the lane's pool holds now (0 without a pool). */
function inPool(counts: Map<string, number>, pool: LaneSpec["pool"]): number {
  if (!pool) return 0;
  let n = 0;
  for (const [key, count] of counts) if (key.startsWith(pool.prefix)) n += count;
  return n;
}

function atShare(counts: Map<string, number>, share: number): string[] {
  return [...counts].filter(([, n]) => n >= share).map(([key]) => key);
}

/** Rejects with TargetDown when `send` has not settled in `ms` (the send itself is left to end on its own). */
function withDeadline<T>(send: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TargetDown(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([send, deadline]).finally(() => clearTimeout(timer));
}

/** `deps.clock`: the time of claims, leases, expiry and retries, the clock the rows were queued by. */
export function startOutboxWorker(
  { db, clock }: { db: DB; clock: Clock },
  senders: Partial<Record<LaneName, ChannelSender>>,
  opts: { pollMs: number; deadlineMs?: number },
): OutboxWorker {
  const deadlineMs = opts.deadlineMs ?? SEND_DEADLINE_MS;
  const lanes: Lane[] = LANE_NAMES.flatMap((name) => {
    const sender = senders[name];
    if (!sender) return [];
    const lane: Lane = {
      name,
      spec: LANES[name],
      sender,
      sending: new Map(),
      byTarget: new Map(),
      byAccount: new Map(),
      filling: undefined,
      again: false,
    };
    return [lane];
  });
  let stopped = false;

  /** Claims due rows for the lane's free slots, within the shares. */
  async function claim(lane: Lane): Promise<Claimed[]> {
    const { slots, share, pool } = lane.spec;
    const free = slots - lane.sending.size;
    const now = clock();
    return repo.withClaim(db, async (tx) => {
      let pooled = inPool(lane.byTarget, pool);
      const due = await repo.findDueRows(tx, lane.name, now, {
        exceptTargets: atShare(lane.byTarget, share),
        exceptAccounts: atShare(lane.byAccount, share),
        exceptTargetPrefix: pool && pooled >= pool.slots ? pool.prefix : null,
        limit: free * 4,
      });
      // Several due rows may share a target or an account: no more of them than the share.
      const targets = new Map(lane.byTarget);
      const accounts = new Map(lane.byAccount);
      const picked = new Map<string, number | null>();
      for (const row of due) {
        if (picked.size === free) break;
        if (row.target !== null && (targets.get(row.target) ?? 0) >= share) continue;
        if (row.account !== null && (accounts.get(row.account) ?? 0) >= share) continue;
        const pooledRow = pool !== undefined && row.target !== null && row.target.startsWith(pool.prefix);
        if (pooledRow && pooled >= pool.slots) continue;
        if (pooledRow) pooled++;
        picked.set(row.id, row.strikes);
        bump(targets, row.target, 1);
        bump(accounts, row.account, 1);
      }
      const claimed = await repo.claimRows(tx, [...picked.keys()], now, LOCK_MS);
      return claimed.map((row) => ({ row, strikes: picked.get(row.id) ?? null }));
    });
  }

  function fill(lane: Lane): Promise<void> {
    if (lane.filling) {
      lane.again = true;
      return lane.filling;
    }
    lane.filling = (async () => {
      do {
        lane.again = false;
        while (!stopped && lane.sending.size < lane.spec.slots) {
          let claimed: Claimed[];
          try {
            claimed = await claim(lane);
          } catch (err) {
            logger.warn(
              { lane: lane.name, err: err instanceof Error ? err.message : String(err) },
              "outbox: cannot read",
            );
            return;
          }
          if (claimed.length === 0) break;
          for (const c of claimed) start(lane, c);
        }
      } while (lane.again && !stopped);
    })().finally(() => {
      lane.filling = undefined;
    });
    return lane.filling;
  }

  function start(lane: Lane, { row, strikes }: Claimed) {
    bump(lane.byTarget, row.target, 1);
    bump(lane.byAccount, row.account, 1);
    const done = deliver(lane, row, strikes).finally(() => {
      bump(lane.byTarget, row.target, -1);
      bump(lane.byAccount, row.account, -1);
      lane.sending.delete(row.id);
      // The slot is free: the next row may take it.
      if (!stopped) void fill(lane);
    });
    lane.sending.set(row.id, done);
  }

  async function deliver(lane: Lane, row: OutboxRow, strikes: number | null): Promise<void> {
    let providerId: string | null;
    try {
      const { maxAgeMs } = lane.spec;
      if (maxAgeMs !== undefined && clock() - Number(row.createdAt) > maxAgeMs) {
        throw new PermanentError("expired before it could be sent");
      }
      providerId = (await withDeadline(lane.sender.send(row), deadlineMs))?.providerId ?? null;
    } catch (err) {
      await recordFailure(lane, row, err).catch((e: unknown) =>
        logger.warn({ mailId: row.id, err: e instanceof Error ? e.message : String(e) }, "outbox: cannot record"),
      );
      return;
    }
    try {
      const sentAt = clock();
      await repo.markSent(db, row.id, sentAt);
      if (row.deliveryId) await markDeliverySent(db, row.deliveryId, sentAt, row.attempts, providerId);
      if (strikes !== null && row.target !== null) await repo.clearTarget(db, lane.name, row.target);
    } catch (err) {
      logger.warn({ mailId: row.id, err: err instanceof Error ? err.message : String(err) }, "outbox: cannot record");
    }
  }

  async function recordFailure(lane: Lane, row: OutboxRow, err: unknown) {
    const e = err as { permanent?: boolean; retryAfterMs?: number; targetDown?: boolean };
    // A refusal no retry can change (an invalid number, a gone push endpoint): failed now.
    const failed = row.attempts >= (lane.sender.maxAttempts ?? MAX_ATTEMPTS) || e.permanent === true;
    const now = clock();
    const message = err instanceof Error ? err.message : String(err);
    if (e.targetDown && lane.spec.backoff && row.target !== null) {
      await repo.strikeTarget(db, lane.name, row.target, now);
    }
    if (row.deliveryId) {
      await markDeliveryFailed(db, row.deliveryId, withoutAddresses(message), row.attempts, failed).catch(() => {});
    }
    logger.warn(
      // SMTP errors quote the recipient ("550 <a@b.se>: no such user"): not in the logs.
      { mailId: row.id, channel: row.channel, attempts: row.attempts, err: withoutAddresses(message) },
      failed ? "mail failed for good" : "mail delivery failed; will retry",
    );
    await repo.markUnsent(db, row.id, {
      failed,
      nextAttemptAt: now + Math.max(retryDelayMs(lane.sender, row.attempts), e.retryAfterMs ?? 0),
      lastError: message,
    });
  }

  const wake = (name?: LaneName) => {
    for (const lane of lanes) if (name === undefined || lane.name === name) void fill(lane);
  };
  wakers.add(wake);
  const timer = setInterval(() => wake(), opts.pollMs);
  timer.unref();
  wake();

  const underWay = () => lanes.flatMap((l) => [...l.sending.values()]);
  return {
    async drain() {
      for (;;) {
        await Promise.all(lanes.map(fill));
        const sends = underWay();
        if (sends.length === 0) return;
        await Promise.all(sends);
      }
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      wakers.delete(wake);
      await Promise.all(lanes.map((l) => l.filling));
      await Promise.all(underWay());
      for (const lane of lanes) lane.sender.close?.();
    },
  };
}

/** The outbox gauges of /metrics (decision 037), per lane: waiting or sending, failed, the oldest waiting. */
export async function outboxQueueStats(db: DB, now: number) {
  const counts = await repo.countUnsent(db);
  return LANE_NAMES.map((name) => {
    let depth = 0;
    let failed = 0;
    let oldest: number | null = null;
    for (const c of counts.filter((c) => c.channel === name)) {
      if (c.status === "failed") {
        failed += c.n;
        continue;
      }
      depth += c.n;
      if (c.oldest !== null && (oldest === null || c.oldest < oldest)) oldest = c.oldest;
    }
    const oldestAgeSeconds = oldest === null ? 0 : Math.max(0, (now - oldest) / 1000);
    return { queue: LANES[name].queue, depth, failed, oldestAgeSeconds };
  });
}
