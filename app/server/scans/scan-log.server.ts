/**
 * The scan log's write buffer (decision 014). A finder page only
 * pushes an event onto an in-memory list (no promise, no database), so the page and the
 * cache hit that serves it are not slowed; the list is written in one batch at least
 * every second and on shutdown. A crash loses at most the last second. A failed write
 * (database down) keeps its events for the next flush, up to MAX_PENDING.
 */
import type { Lang } from "~/i18n/config";
import type { DeviceClass } from "~/lib/domain/scans";
import { logger } from "../logger.server";

export interface ScanEvent {
  itemId: string;
  at: number;
  lang: Lang;
  device: DeviceClass;
  /** The page showed the paid item (a scan); false: the 'not paid' page (inactive sticker). */
  paid: boolean;
  /**
   * Set once the event's row is in the log: a flush that failed after that (in its mails)
   * is retried without writing the row again.
   */
  logged?: boolean;
}

export const FLUSH_INTERVAL_MS = 1000;
/** Beyond this (a long database outage under load) the oldest events are dropped. */
export const MAX_PENDING = 50_000;

export type FlushScans = (events: ScanEvent[]) => Promise<void>;

export class ScanLog {
  private pending: ScanEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private writer: FlushScans | undefined;

  constructor(private readonly intervalMs = FLUSH_INTERVAL_MS) {}

  record(event: ScanEvent) {
    if (this.pending.length >= MAX_PENDING) this.pending.shift();
    this.pending.push(event);
  }

  get size() {
    return this.pending.length;
  }

  /** Starts the periodic flush with `writer` (server start-up). */
  start(writer: FlushScans) {
    this.writer = writer;
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** Writes what is pending now; waits for a flush already running first. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    const writer = this.writer;
    if (!writer || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = writer(batch)
      .catch((err: unknown) => {
        // Database trouble: keep the events (oldest first) for the next flush.
        this.pending = batch.concat(this.pending).slice(-MAX_PENDING);
        logger.warn(
          { job: "scan-log", err: err instanceof Error ? err.message : String(err) },
          "scan log flush failed",
        );
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  /** Stops the timer and writes what is left (graceful shutdown). */
  async stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    this.writer = undefined;
  }
}

/** The process's scan log: finder pages record into it, server start-up starts it. */
export const scanLog = new ScanLog();
