/**
 * SQL of the one outbox (`mail_outbox`, decisions 033, 040 and 049): queueing a row,
 * claiming due rows for a lane, recording the outcome, setting a target aside.
 *
 * Claims are safe with several instances: on PostgreSQL the due rows are read with
 * `for update skip locked` and claimed in the same transaction, so two instances never
 * wait for or take the same row; on SQLite (one writer) the claiming UPDATE re-checks
 * that each row is still due, so a row another process took meanwhile is left out. A
 * claim is a lease (`lockedUntil`): a row whose instance died is due again once it ends.
 */
import { PostgresAdapter, type Insertable, type Selectable } from "kysely";
import type { DB } from "../db/db.server";
import type { MailOutboxTable } from "../db/schema";
import { targetBackoffMs, type LaneName } from "./lanes.server";

export type NewOutboxRow = Pick<
  Insertable<MailOutboxTable>,
  "id" | "to" | "replyTo" | "subject" | "text" | "html" | "meta" | "target"
> & {
  channel: LaneName;
  /** The alert delivery the row carries; its recipient is the row's account unless `account` says otherwise. */
  deliveryId?: string | null;
  account?: string | null;
};

/** Queues a row, due now. */
export async function insertOutboxRow(db: DB, row: NewOutboxRow, now: number): Promise<void> {
  const deliveryId = row.deliveryId ?? null;
  await db
    .insertInto("mail_outbox")
    .values((eb) => ({
      ...row,
      deliveryId,
      account:
        row.account ??
        (deliveryId
          ? eb
              .selectFrom("alert_deliveries")
              .select("alert_deliveries.userId")
              .where("alert_deliveries.id", "=", deliveryId)
          : null),
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      lockedUntil: null,
      lastError: null,
      createdAt: now,
      sentAt: null,
    }))
    .execute();
}

export interface DueRow {
  id: string;
  target: string | null;
  account: string | null;
  /** Time-outs in a row of the row's target (a backoff that has ended), or null. */
  strikes: number | null;
}

/**
 * Runs a claim: on PostgreSQL in a transaction, so the rows `findDueRows` locked stay
 * locked until `claimRows` has marked them; on SQLite as it comes (see the top).
 */
export async function withClaim<T>(db: DB, claim: (db: DB) => Promise<T>): Promise<T> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return db.transaction().execute(claim);
  return claim(db);
}

type DueOptions = {
  exceptTargets: string[];
  exceptAccounts: string[];
  exceptTargetPrefix?: string | null;
  limit: number;
};

/**
 * The lane's rows that are due: those claimed by an instance whose lease ended, then those
 * waiting and due, each oldest due first; leaving out targets set aside and the targets
 * and accounts this instance already sends its share to.
 *
 * Two reads, each along `mail_outbox_lane_idx` in `nextAttemptAt` order: the leases that
 * ended first (rows stuck longest), then the waiting rows. One read with an OR of both made
 * PostgreSQL combine two bitmap scans of the index, and a bitmap scan never marks an entry
 * of a row that has moved on (sent) as dead: until a vacuum, every claim read them all again.
 * With autovacuum off and 19,000 mails sent, a claim took 15 ms and the claims were the
 * database's largest cost in `bench:scale`'s spread row (decision 045). A plain index scan
 * marks them as it passes, and the next claim skips them: 0.2 ms.
 */
export async function findDueRows(db: DB, lane: LaneName, now: number, opts: DueOptions): Promise<DueRow[]> {
  const expired = await dueRows(db, lane, now, "sending", opts, opts.limit);
  if (expired.length >= opts.limit) return expired;
  return expired.concat(await dueRows(db, lane, now, "pending", opts, opts.limit - expired.length));
}

async function dueRows(
  db: DB,
  lane: LaneName,
  now: number,
  status: "pending" | "sending",
  opts: DueOptions,
  limit: number,
): Promise<DueRow[]> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const rows = await db
    .selectFrom("mail_outbox as o")
    .select(["o.id", "o.target", "o.account"])
    .select((eb) =>
      eb
        .selectFrom("outbox_backoffs as b")
        .select("b.strikes")
        .where("b.lane", "=", lane)
        .whereRef("b.target", "=", "o.target")
        .as("strikes"),
    )
    .where("o.channel", "=", lane)
    .where("o.status", "=", status)
    .$if(status === "pending", (q) => q.where("o.nextAttemptAt", "<=", now))
    .$if(status === "sending", (q) => q.where("o.lockedUntil", "<", now))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("outbox_backoffs as b")
            .select("b.lane")
            .where("b.lane", "=", lane)
            .whereRef("b.target", "=", "o.target")
            .where("b.resumeAt", ">", now),
        ),
      ),
    )
    .$if(opts.exceptTargets.length > 0, (q) =>
      q.where((eb) => eb.or([eb("o.target", "is", null), eb("o.target", "not in", opts.exceptTargets)])),
    )
    // A pool that is full (LaneSpec.pool): none of its targets.
    .$if(!!opts.exceptTargetPrefix, (q) =>
      q.where((eb) => eb.or([eb("o.target", "is", null), eb("o.target", "not like", `${opts.exceptTargetPrefix}%`)])),
    )
    .$if(opts.exceptAccounts.length > 0, (q) =>
      q.where((eb) => eb.or([eb("o.account", "is", null), eb("o.account", "not in", opts.exceptAccounts)])),
    )
    .orderBy("o.nextAttemptAt")
    .limit(limit)
    .$if(postgres, (q) => q.forUpdate("o").skipLocked())
    .execute();
  return rows.map((r) => ({ ...r, strikes: r.strikes === null ? null : Number(r.strikes) }));
}

/** Claims the rows of `ids` that are still due: a lease until `now + leaseMs`, one more attempt. */
export async function claimRows(
  db: DB,
  ids: string[],
  now: number,
  leaseMs: number,
): Promise<Selectable<MailOutboxTable>[]> {
  if (ids.length === 0) return [];
  return db
    .updateTable("mail_outbox")
    .set((eb) => ({ status: "sending", lockedUntil: now + leaseMs, attempts: eb("attempts", "+", 1) }))
    .where("id", "in", ids)
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("nextAttemptAt", "<=", now)]),
        eb.and([eb("status", "=", "sending"), eb("lockedUntil", "<", now)]),
      ]),
    )
    .returningAll()
    .execute();
}

export async function markSent(db: DB, id: string, sentAt: number): Promise<void> {
  await db
    .updateTable("mail_outbox")
    .set({ status: "sent", sentAt, lockedUntil: null, lastError: null })
    .where("id", "=", id)
    .execute();
}

/** A try that did not deliver: waiting again until `nextAttemptAt`, or failed for good. */
export async function markUnsent(
  db: DB,
  id: string,
  outcome: { failed: boolean; nextAttemptAt: number; lastError: string },
): Promise<void> {
  await db
    .updateTable("mail_outbox")
    .set({
      status: outcome.failed ? "failed" : "pending",
      nextAttemptAt: outcome.nextAttemptAt,
      lockedUntil: null,
      lastError: outcome.lastError.slice(0, 1000),
    })
    .where("id", "=", id)
    .execute();
}

/**
 * A target timed out or refused: set aside for a pause that doubles with each strike in a
 * row. Rows of it already in flight that time out too (the same outage) add no strike.
 * Answers when the target is due again.
 */
export async function strikeTarget(db: DB, lane: LaneName, target: string, now: number): Promise<number> {
  const found = await db
    .selectFrom("outbox_backoffs")
    .select(["strikes", "resumeAt"])
    .where("lane", "=", lane)
    .where("target", "=", target)
    .executeTakeFirst();
  if (found && Number(found.resumeAt) > now) return Number(found.resumeAt);
  const strikes = Number(found?.strikes ?? 0) + 1;
  const resumeAt = now + targetBackoffMs(strikes);
  await db
    .insertInto("outbox_backoffs")
    .values({ lane, target, strikes, resumeAt })
    .onConflict((oc) => oc.columns(["lane", "target"]).doUpdateSet({ strikes, resumeAt }))
    .execute();
  return resumeAt;
}

/** The target answered: its strikes are forgotten. */
export async function clearTarget(db: DB, lane: LaneName, target: string): Promise<void> {
  await db.deleteFrom("outbox_backoffs").where("lane", "=", lane).where("target", "=", target).execute();
}

/** Pauses that ended before `before` and were never cleared (a target no one sends to any more). */
export async function deleteBackoffsBefore(db: DB, before: number): Promise<number> {
  const r = await db.deleteFrom("outbox_backoffs").where("resumeAt", "<", before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Rows per channel and status (waiting, sending, failed), with the oldest of each. */
export async function countUnsent(db: DB) {
  const rows = await db
    .selectFrom("mail_outbox")
    .select((eb) => [
      "channel",
      "status",
      eb.fn.countAll<number | string>().as("n"),
      eb.fn.min("createdAt").as("oldest"),
    ])
    .where("status", "in", ["pending", "sending", "failed"])
    .groupBy(["channel", "status"])
    .execute();
  return rows.map((r) => ({
    channel: r.channel,
    status: r.status,
    n: Number(r.n),
    oldest: r.oldest === null ? null : Number(r.oldest),
  }));
}
