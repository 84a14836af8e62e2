/**
 * Scan log, scan alerts and lost mode (decision
 * 014). No HTTP here (decision 011).
 *
 * - A view of an item page by anyone but its owner is an event in the process's
 *   ScanLog (scan-log.server.ts); bots are dropped at once. `writeScanEvents` writes a
 *   batch: the scans of paid pages, the items' "last scanned", and the mails.
 * - Mails are throttled in the database (a conditional UPDATE of a timestamp, see
 *   claimAlert), so several instances on one PostgreSQL send one mail between them.
 */
import type { Lang } from "~/i18n/config";
import { isItemPaid } from "~/lib/domain/paid";
import { deviceClassOf, RECENT_SCANS, type ScanEntry } from "~/lib/domain/scans";
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { ServiceError } from "../service-error.server";
import { enqueueInactiveScanMail } from "./scan-alert.mail.server";
import { wakeOutbox } from "../mail/mail.server";
import type { ScanEvent, ScanLog } from "./scan-log.server";
import { RETENTION_MS } from "~/lib/domain/retention";
import * as repo from "./scans.repository.server";
import { hasReachableRecipient, listItemRecipients } from "../access/item-access.repository.server";

const MINUTE = 60_000;
/** Opt-in scan alerts: at most one mail per item per hour. */
export const SCAN_ALERT_WINDOW_MS = 60 * MINUTE;
/** Lost mode: every scan alerts, still at most one mail per item per 10 minutes. */
export const LOST_ALERT_WINDOW_MS = 10 * MINUTE;
/** Scans of an item whose sticker is not active: at most one mail per item a day. */
export const INACTIVE_ALERT_WINDOW_MS = 24 * 60 * MINUTE;
/** How long the log keeps a scan (housekeeping): a year of history is plenty for an owner. */
export const SCAN_RETENTION_MS = RETENTION_MS.scans;

/** notFound: no such item, or another owner's (no difference shown). */
export type ScanErrorCode = "notFound";
export class ScanError extends ServiceError<ScanErrorCode> {}

export interface ItemPageVisit {
  itemId: string;
  /** The page showed the paid item; false: the 'not paid' page. */
  paid: boolean;
  /** The viewer is the item's owner: never logged. */
  isOwner: boolean;
  lang: Lang;
  userAgent: string | null | undefined;
  at: number;
}

/**
 * Notes a view of an item page (rendered or from the finder-page cache). Synchronous and
 * in memory: the owner's own views and bots are not recorded at all.
 */
export function recordItemPageVisit(log: Pick<ScanLog, "record">, visit: ItemPageVisit): void {
  if (visit.isOwner) return;
  const device = deviceClassOf(visit.userAgent);
  if (device === "bot") return;
  log.record({ itemId: visit.itemId, at: visit.at, lang: visit.lang, device, paid: visit.paid });
}

/** The latest event per item of the events that match. */
function latestPerItem(events: ScanEvent[], paid: boolean): Map<string, ScanEvent> {
  const out = new Map<string, ScanEvent>();
  for (const e of events) {
    if (e.paid !== paid) continue;
    const seen = out.get(e.itemId);
    if (!seen || seen.at <= e.at) out.set(e.itemId, e);
  }
  return out;
}

/**
 * Scans per transaction on SQLite's writer thread. While one is written, a write on the
 * app's connection waits for it, and better-sqlite3 waits on the event loop's thread: at
 * ~8 µs a row that is ~10 ms at most, where a 12,000-scan flush in one would be ~100 ms.
 */
const WRITER_CHUNK = 1000;

/** Unpaid items whose mails are claimed and queued in one transaction (queueInactiveScanMails). */
const MAIL_CHUNK = 50;

/**
 * The mails about scans of items whose sticker is not active, for a whole flush: the
 * owner of a personal item; an organisation item's assigned member and admins (the desk,
 * decision 026). Verified addresses only, one mail per person, at most one per item a day
 * (claimAlerts). The contacts are read for all the flush's items at once, and the items
 * claimed MAIL_CHUNK at a time: one by one it was four statements an item before its
 * mail's insert, more than the finder pages' own reads at a million stickers (decision
 * 045). An item's claim and its mails commit together.
 */
async function queueInactiveScanMails(
  deps: Pick<Deps, "db" | "config">,
  targets: { t: repo.AlertTarget; e: ScanEvent }[],
  now: number,
): Promise<number> {
  const { db, config } = deps;
  // The page the finder saw decides the kind of mail; a payment in between sends none.
  const due = targets.filter(({ t, e }) => !e.paid && !isItemPaid(t, now));
  if (due.length === 0) return 0;
  const recipientsOf = new Map<string, string[]>();
  for (const { t } of due) {
    // A personal item's one recipient is its owner, read with it; an organisation's item asks.
    recipientsOf.set(t.id, t.organisationId === null ? [t.owner] : await listItemRecipients(db, t.id));
  }
  const contacts = await repo.findOwnerContacts(db, [...new Set([...recipientsOf.values()].flat())]);
  const mailed = due
    .map(({ t, e }) => ({
      t,
      e,
      to: recipientsOf
        .get(t.id)!
        .map((userId) => contacts.get(userId))
        .filter((c): c is repo.OwnerContact => c?.emailVerified === true),
    }))
    .filter((m) => m.to.length > 0);
  let queued = 0;
  // MAIL_CHUNK items per transaction, a turn of the event loop between them: SQLite's write
  // lock and PostgreSQL's row locks are held for a few inserts, not a whole flush's.
  for (let i = 0; i < mailed.length; i += MAIL_CHUNK) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const part = mailed.slice(i, i + MAIL_CHUNK);
    queued += await db.transaction().execute(async (trx) => {
      const claimed = await repo.claimAlerts(
        trx,
        part.map((m) => m.t.id),
        "inactiveAlertedAt",
        now,
        INACTIVE_ALERT_WINDOW_MS,
      );
      let n = 0;
      for (const { t, e, to } of part) {
        if (!claimed.has(t.id)) continue;
        for (const r of to) {
          await enqueueInactiveScanMail(
            trx,
            config,
            {
              to: r.email,
              ownerName: r.name,
              ownerLang: r.language,
              itemId: t.id,
              itemName: t.name,
              at: e.at,
              scanLang: e.lang,
              device: e.device,
            },
            now,
          );
          n++;
        }
      }
      return n;
    });
  }
  return queued;
}

/** Writes one batch of the scan log and queues the mails it calls for. */
export async function writeScanEvents(
  deps: Pick<Deps, "db" | "config" | "clock" | "writer" | "events">,
  events: ScanEvent[],
): Promise<{ scans: number; mails: number }> {
  const { db, config } = deps;
  const now = deps.clock();
  const ids = [...new Set(events.map((e) => e.itemId))];
  // An item deleted since its page was shown has nothing left to log.
  const existing = await repo.existingItems(db, ids);
  const seen = events.filter((e) => e.paid && existing.has(e.itemId));
  // A batch retried after a failure (ScanLog keeps it) may have some rows in already.
  const loggable = seen.filter((e) => !e.logged);
  const scans = loggable.map((e) => ({ productId: e.itemId, scannedAt: e.at, lang: e.lang, device: e.device }));
  // "Last scanned" only moves forward: setting it again on a retry changes nothing.
  const scanned = [...new Set(seen.map((e) => e.itemId))];
  const latest = seen.reduce((max, e) => Math.max(max, e.at), 0);
  if (deps.writer) {
    // SQLite in a file: the rows on the writer's thread, off the event loop that serves
    // the finder pages (decision 021); then the cards' "last scanned", a few statements.
    // WRITER_CHUNK rows per transaction, each marked once in: a failure later (the next
    // chunk, the mails) must not have them written again.
    for (let i = 0; i < loggable.length; i += WRITER_CHUNK) {
      await repo.insertScansOnWriter(deps.writer, scans.slice(i, i + WRITER_CHUNK));
      for (const e of loggable.slice(i, i + WRITER_CHUNK)) e.logged = true;
    }
    if (scanned.length) {
      await repo.setLastScanned(db, scanned, latest).catch((err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        logger.warn({ job: "scan-log", err: message }, "last scanned not updated");
      });
    }
  } else {
    await db.transaction().execute(async (trx) => {
      await repo.insertScans(trx, scans, config.database.kind);
      if (scanned.length) await repo.setLastScanned(trx, scanned, latest);
    });
    for (const e of loggable) e.logged = true;
  }

  // The mails, for every event of the batch: a failure here keeps the batch, and the
  // retry sends what was not sent (claimAlert makes a mail already queued a no-op).
  const lastScan = latestPerItem(events, true);
  const lastInactive = latestPerItem(events, false);

  let mails = 0;
  const paidTargets = (await repo.findAlertTargets(db, [...lastScan.keys()], true)).map((t) => ({
    t,
    e: lastScan.get(t.id)!,
  }));
  const inactiveTargets = (await repo.findAlertTargets(db, [...lastInactive.keys()], false)).map((t) => ({
    t,
    e: lastInactive.get(t.id)!,
  }));
  for (const { t, e } of paidTargets) {
    // The page the finder saw decides the kind of alert; a payment or lapse in between sends none.
    if (!isItemPaid(t, now)) continue;
    if (!t.scanAlerts && !t.lost) continue;
    // A paid item's scan alert goes through the alert fan-out (decision 033), which hears of
    // the scan on the event bus inside the transaction that claims it (decision 053).
    if (!(await hasReachableRecipient(db, t.id))) continue;
    const window = t.lost ? LOST_ALERT_WINDOW_MS : SCAN_ALERT_WINDOW_MS;
    const queued = await db.transaction().execute(async (trx) => {
      if (!(await repo.claimAlert(trx, t.id, "scanAlertedAt", now, window))) return 0;
      const announced = {
        itemId: t.id,
        itemName: t.name,
        lost: t.lost,
        at: e.at,
        scanLang: e.lang,
        device: e.device,
        now,
      };
      const r = await deps.events.emit("itemScanned", announced, { ...deps, db: trx });
      return r.mails;
    });
    mails += queued;
  }
  mails += await queueInactiveScanMails(deps, inactiveTargets, now);
  // Every paid item's latest scan of this flush, alerts or not (the webhooks listen).
  for (const [itemId, e] of lastScan) {
    if (!existing.has(itemId)) continue;
    const organisationId = existing.get(itemId) ?? null;
    await deps.events.emit(
      "scanRecorded",
      { itemId, organisationId, at: e.at, scanLang: e.lang, device: e.device, now },
      deps,
    );
  }
  wakeOutbox();
  if (mails) logger.info({ job: "scan-log", mails }, "scan alerts queued");
  return { scans: scans.length, mails };
}

/** An item the user manages (decision 026) in or out of lost mode; its cached finder pages change at once. */
export async function setItemLost(
  deps: Pick<Deps, "db" | "clock" | "events">,
  owner: string,
  id: string,
  lost: boolean,
): Promise<void> {
  const now = deps.clock();
  const changed = await deps.db.transaction().execute(async (trx) => {
    const was = await repo.findLostAt(trx, id);
    if (!(await repo.writeItemLost(trx, owner, id, lost, now))) return false;
    // Only a change is announced: lost mode switched on twice is one event.
    if (was !== undefined && (was !== null) !== lost) {
      await deps.events.emit(lost ? "itemMarkedLost" : "itemFound", { itemId: id, at: now }, { ...deps, db: trx });
    }
    return true;
  });
  if (!changed) throw new ScanError("notFound");
  // After the commit (the update above is its own statement), as payments do.
  await deps.events.emit("itemsChanged", { itemIds: [id] }, deps);
}

/** The last scans of an item, newest first (the caller has checked that the viewer owns it). */
export function listRecentScansOfItem(deps: Pick<Deps, "db">, id: string): Promise<ScanEntry[]> {
  return repo.listRecentScans(deps.db, id, RECENT_SCANS);
}

/** Housekeeping: scans older than SCAN_RETENTION_MS. */
export function deleteOldScans(deps: Pick<Deps, "db" | "clock">): Promise<number> {
  return repo.deleteScansBefore(deps.db, deps.clock() - SCAN_RETENTION_MS);
}
