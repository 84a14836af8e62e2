/**
 * Outgoing mail — and, since decision 034, every other channel an alert goes by (SMS, push:
 * decisions 033 and 040): one durable outbox (`mail_outbox.channel`). Callers enqueue (one INSERT, in their own
 * request or transaction); a worker delivers with retries and exponential backoff.
 * Without SMTP_URL each mail becomes an .eml file in MAIL_OUTBOX_DIR (SMS: see
 * sms/elks.server.ts). Several app instances may run workers: a row is claimed with a
 * conditional UPDATE, so each message is sent by one of them. A row that carries an
 * alert delivery (`deliveryId`) updates the delivery's record as it goes.
 */
import { randomUUID } from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { logger } from "../logger.server";
import { markDeliveryFailed, markDeliverySent } from "../alerts/alerts.repository.server";
import type { OutboxRow, ChannelSender } from "../alerts/channel.server";
import { writeOutboxFile } from "../alerts/outbox-file.server";
import { createSmsSender } from "../sms/elks.server";

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text part; always sent. */
  text: string;
  /** Optional HTML part; without it one is made from the text (escaped, links kept). */
  html?: string;
  replyTo?: string;
  /** The alert delivery this mail carries (alerts/fanout.service.server.ts). */
  deliveryId?: string;
}

/** An SMS for the outbox: E.164 number, one part (lib/sms-text.ts), the report URL. */
export interface SmsMessage {
  to: string;
  text: string;
  deliveryId?: string;
  /** 46elks' `whendelivered`: where the delivery report is posted. */
  reportUrl?: string;
}

/** A push notice for the outbox: the device (push_subscriptions.id) and what it shows. */
export interface PushMessage {
  subscriptionId: string;
  /** JSON of push-sender.server.ts' PushPayload. */
  payload: string;
  deliveryId?: string;
}

export const MAX_ATTEMPTS = 8;
/** Rows sent at once by one worker: a provider that hangs until its deadline holds up one lane. */
const LANES = 4;
const LOCK_MS = 60_000;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 60 * 60_000;

/** Delay before retry number `attempts` (1-based): 5 s, 10 s, 20 s, … capped at 1 h. */
export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
}

const wakers = new Set<() => void>();

/** Wake this process's worker at once (after a transaction that queued rows committed). */
export function wakeOutbox(): void {
  for (const wake of wakers) wake();
}

/** Store a mail for delivery. Returns its outbox id. */
export async function enqueueMail(db: DB, msg: MailMessage): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db
    .insertInto("mail_outbox")
    .values({
      id,
      to: msg.to,
      replyTo: msg.replyTo ?? null,
      subject: msg.subject,
      text: msg.text,
      html: msg.html ?? null,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      lockedUntil: null,
      lastError: null,
      createdAt: now,
      sentAt: null,
      channel: "email",
      deliveryId: msg.deliveryId ?? null,
      meta: null,
    })
    .execute();
  wakeOutbox();
  return id;
}

/** Store an SMS for delivery (the same outbox, retries and claims as mail). Returns its outbox id. */
export async function enqueueSms(db: DB, msg: SmsMessage): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db
    .insertInto("mail_outbox")
    .values({
      id,
      to: msg.to,
      replyTo: null,
      subject: "",
      text: msg.text,
      html: null,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      lockedUntil: null,
      lastError: null,
      createdAt: now,
      sentAt: null,
      channel: "sms",
      deliveryId: msg.deliveryId ?? null,
      meta: msg.reportUrl ? JSON.stringify({ whendelivered: msg.reportUrl }) : null,
    })
    .execute();
  wakeOutbox();
  return id;
}

/** Store a push notice for delivery (the same outbox, retries and claims as mail). Returns its outbox id. */
export async function enqueuePush(db: DB, msg: PushMessage): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db
    .insertInto("mail_outbox")
    .values({
      id,
      to: msg.subscriptionId,
      replyTo: null,
      subject: "",
      text: msg.payload,
      html: null,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      lockedUntil: null,
      lastError: null,
      createdAt: now,
      sentAt: null,
      channel: "push",
      deliveryId: msg.deliveryId ?? null,
      meta: null,
    })
    .execute();
  wakeOutbox();
  return id;
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A simple HTML part from plain text: escaped, paragraphs kept, http(s) links clickable. */
/** A text with e-mail addresses replaced, for log lines. */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, "[address]");
}

export function textToHtml(text: string): string {
  const body = text
    .split(/\n{2,}/)
    .map((p) => {
      const escaped = escapeHtml(p).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
      return `<p>${escaped.replace(/\n/g, "<br>")}</p>`;
    })
    .join("\n");
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${body}</body></html>`;
}

/**
 * Every mail ends with the seller and a link to the privacy notice, in
 * both languages: the outbox row does not record the mail's language. Added at delivery,
 * so no sender can forget it.
 */
export function mailFooter(config: Pick<Config, "company" | "baseUrl">): { text: string; html: string } {
  const privacy = new URL("/privacy", config.baseUrl).href;
  const label = "Integritetspolicy / Privacy policy";
  return {
    text: `-- \n${config.company.name} · ${label}: ${privacy}`,
    html:
      `<p style="font-size:small;color:#555">${escapeHtml(config.company.name)} · ${label}: ` +
      `<a href="${escapeHtml(privacy)}">${escapeHtml(privacy)}</a></p>`,
  };
}

function withFooter(row: { text: string; html: string | null }, config: Config) {
  const footer = mailFooter(config);
  const text = `${row.text}\n\n${footer.text}`;
  const html = row.html
    ? row.html.includes("</body>")
      ? row.html.replace("</body>", `${footer.html}</body>`)
      : row.html + footer.html
    : textToHtml(row.text).replace("</body>", `${footer.html}</body>`);
  return { text, html };
}

type Deliver = (row: Pick<OutboxRow, "id" | "to" | "replyTo" | "subject" | "text" | "html">) => Promise<void>;

function createDeliver(config: Config): { deliver: Deliver; close(): void } {
  if (config.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(config.smtpUrl);
    return {
      deliver: async (row) => {
        await transport.sendMail({
          from: config.mailFrom,
          to: row.to,
          replyTo: row.replyTo ?? undefined,
          subject: row.subject,
          ...withFooter(row, config),
          messageId: `<${row.id}@${config.baseUrl.hostname}>`,
        });
      },
      close: () => transport.close(),
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    deliver: async (row) => {
      const info = await stream.sendMail({
        from: config.mailFrom,
        to: row.to,
        replyTo: row.replyTo ?? undefined,
        subject: row.subject,
        ...withFooter(row, config),
        messageId: `<${row.id}@${config.baseUrl.hostname}>`,
      });
      const file = await writeOutboxFile(config.mailOutboxDir, `${Date.now()}-${row.id}.eml`, info.message as Buffer);
      // No recipient or subject in the logs (a subject can carry a name): the id finds the row.
      logger.info({ mailId: row.id, file }, "mail written to outbox folder (no SMTP_URL)");
    },
    close: () => stream.close(),
  };
}

/** Claim one due mail for this worker, or undefined. Safe with concurrent workers. */
async function claimNext(db: DB) {
  const now = Date.now();
  const due = await db
    .selectFrom("mail_outbox")
    .select(["id", "attempts"])
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("nextAttemptAt", "<=", now)]),
        eb.and([eb("status", "=", "sending"), eb("lockedUntil", "<", now)]),
      ]),
    )
    .orderBy("nextAttemptAt")
    .limit(5)
    .execute();
  for (const candidate of due) {
    const res = await db
      .updateTable("mail_outbox")
      .set({ status: "sending", lockedUntil: now + LOCK_MS, attempts: candidate.attempts + 1 })
      .where("id", "=", candidate.id)
      .where("attempts", "=", candidate.attempts)
      .where((eb) =>
        eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "sending"), eb("lockedUntil", "<", now)])]),
      )
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) {
      return db.selectFrom("mail_outbox").selectAll().where("id", "=", candidate.id).executeTakeFirstOrThrow();
    }
  }
  return undefined;
}

/** The outbox at a glance, for the metrics: waiting or sending, failed, and the oldest waiting. */
export async function mailQueueStats(db: DB, now: number) {
  const rows = await db
    .selectFrom("mail_outbox")
    .select((eb) => ["status", eb.fn.countAll<number | string>().as("n"), eb.fn.min("createdAt").as("oldest")])
    .where("status", "in", ["pending", "sending", "failed"])
    .groupBy("status")
    .execute();
  let depth = 0;
  let failed = 0;
  let oldest: number | null = null;
  for (const r of rows) {
    const n = Number(r.n);
    if (r.status === "failed") {
      failed += n;
      continue;
    }
    depth += n;
    const at = r.oldest === null ? null : Number(r.oldest);
    if (at !== null && (oldest === null || at < oldest)) oldest = at;
  }
  return { queue: "mail", depth, failed, oldestAgeSeconds: oldest === null ? 0 : Math.max(0, (now - oldest) / 1000) };
}

export interface MailWorker {
  /** Deliver everything that is due now; resolves when nothing is left. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The outbox worker. `channels`: senders for the other channels (SMS defaults to 46elks
 * or the SMS outbox folder; push is push/push-channel.server.ts, given by server/app.ts:
 * importing it here would close an import cycle through Deps). A row whose channel has
 * no sender waits and is retried like a failed one.
 * LANES rows are sent at once, each claimed first.
 */
export function startMailWorker(
  db: DB,
  config: Config,
  channels: Partial<Record<"sms" | "push", ChannelSender>> = {},
): MailWorker {
  const { deliver, close } = createDeliver(config);
  const senders: Record<string, ChannelSender | undefined> = {
    email: { send: async (row) => void (await deliver(row)) },
    sms: channels.sms ?? createSmsSender(config),
    push: channels.push,
  };
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function runOnce() {
    for (;;) {
      if (stopped) return;
      let row;
      try {
        row = await claimNext(db);
      } catch (err) {
        logger.warn({ err }, "mail worker could not read the outbox");
        return;
      }
      if (!row) return;
      const sender = senders[row.channel];
      try {
        if (!sender) throw new Error(`no sender for channel ${row.channel}`);
        const result = await sender.send(row);
        const sentAt = Date.now();
        await db
          .updateTable("mail_outbox")
          .set({ status: "sent", sentAt, lockedUntil: null, lastError: null })
          .where("id", "=", row.id)
          .execute();
        if (row.deliveryId)
          await markDeliverySent(db, row.deliveryId, sentAt, row.attempts, result?.providerId ?? null);
      } catch (err) {
        // A refusal no retry can change (an invalid number, a gone push endpoint): failed now.
        const failed =
          row.attempts >= (sender?.maxAttempts ?? MAX_ATTEMPTS) || (err as { permanent?: boolean }).permanent === true;
        const wait = Math.max(backoffMs(row.attempts), (err as { retryAfterMs?: number }).retryAfterMs ?? 0);
        const message = err instanceof Error ? err.message : String(err);
        if (row.deliveryId) {
          await markDeliveryFailed(db, row.deliveryId, withoutAddresses(message), row.attempts, failed).catch(() => {});
        }
        logger.warn(
          // SMTP errors quote the recipient ("550 <a@b.se>: no such user"): not in the logs.
          { mailId: row.id, channel: row.channel, attempts: row.attempts, err: withoutAddresses(message) },
          failed ? "mail failed for good" : "mail delivery failed; will retry",
        );
        await db
          .updateTable("mail_outbox")
          .set({
            status: failed ? "failed" : "pending",
            nextAttemptAt: Date.now() + wait,
            lockedUntil: null,
            lastError: message.slice(0, 1000),
          })
          .where("id", "=", row.id)
          .execute()
          .catch(() => {});
      }
    }
  }

  function kick(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await Promise.all(Array.from({ length: LANES }, runOnce));
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  const wake = () => void kick();
  wakers.add(wake);
  const timer = setInterval(wake, config.mailPollMs);
  timer.unref();
  void kick();

  return {
    drain: kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      wakers.delete(wake);
      await running;
      close();
    },
  };
}
