/**
 * Outgoing mail — and, since decision 034, every other channel an alert goes by (SMS, push:
 * decisions 033 and 040): one durable outbox (`mail_outbox.channel`). Callers enqueue (one
 * INSERT, in their own request or transaction); the outbox worker (outbox/outbox-worker.server.ts)
 * delivers each channel in a lane of its own, with retries and exponential backoff, and no
 * recipient, account or push host taking more than its share of a lane (decision 049).
 * Without SMTP_URL each mail becomes an .eml file in MAIL_OUTBOX_DIR (SMS: see
 * sms/elks.server.ts). A row that carries an alert delivery (`deliveryId`) updates the
 * delivery's record as it goes.
 */
import { randomUUID } from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { logger } from "../logger.server";
import type { OutboxRow, ChannelSender } from "../channels/channel.server";
import { writeOutboxFile } from "../channels/outbox-file.server";
import { insertOutboxRow } from "../outbox/outbox.repository.server";
import { startOutboxWorker, wakeOutbox, type OutboxWorker } from "../outbox/outbox-worker.server";
import { pushTargetOf } from "../push/push-target.server";
import { findSubscription } from "../push/push.repository.server";
import { systemClock, type Clock } from "../clock.server";
import type { Deps } from "../service-deps.server";

export { wakeOutbox };

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text part; always sent. */
  text: string;
  /** Optional HTML part; without it one is made from the text (escaped, links kept). */
  html?: string;
  replyTo?: string;
  /** The alert delivery this mail carries (alerts/fanout.service.server.ts); its recipient's account shares the lane. */
  deliveryId?: string;
}

/** An SMS for the outbox: E.164 number, one part (lib/domain/sms-text.ts), the report URL. */
export interface SmsMessage {
  to: string;
  text: string;
  deliveryId?: string;
  /** 46elks' `whendelivered`: where the delivery report is posted. */
  reportUrl?: string;
  /** The sender, when not SMS_FROM: SMS_NUMBER for an SMS its reader may answer (decision 055). */
  from?: string;
}

/** A push notice for the outbox: the device (push_subscriptions.id) and what it shows. */
export interface PushMessage {
  subscriptionId: string;
  /** JSON of push-sender.server.ts' PushPayload. */
  payload: string;
  deliveryId?: string;
}

/** Store a mail for delivery, due at `now` (the caller's `deps.clock()`). Returns its outbox id. */
export async function enqueueMail(db: DB, msg: MailMessage, now: number): Promise<string> {
  const id = randomUUID();
  await insertOutboxRow(
    db,
    {
      id,
      channel: "email",
      to: msg.to,
      replyTo: msg.replyTo ?? null,
      subject: msg.subject,
      text: msg.text,
      html: msg.html ?? null,
      meta: null,
      target: msg.to.trim().toLowerCase(),
      deliveryId: msg.deliveryId,
    },
    now,
  );
  wakeOutbox("email");
  return id;
}

/**
 * Store an SMS for delivery (the same outbox, retries and claims as mail), due at `now` (the
 * caller's `deps.clock()`). Returns its outbox id.
 */
export async function enqueueSms(db: DB, msg: SmsMessage, now: number): Promise<string> {
  const id = randomUUID();
  await insertOutboxRow(
    db,
    {
      id,
      channel: "sms",
      to: msg.to,
      replyTo: null,
      subject: "",
      text: msg.text,
      html: null,
      meta:
        msg.reportUrl || msg.from
          ? JSON.stringify({
              ...(msg.reportUrl ? { whendelivered: msg.reportUrl } : {}),
              ...(msg.from ? { from: msg.from } : {}),
            })
          : null,
      target: msg.to,
      deliveryId: msg.deliveryId,
    },
    now,
  );
  wakeOutbox("sms");
  return id;
}

/**
 * Store a push notice for delivery (the same outbox, retries and claims as mail). Its
 * target is the push service's registrable domain, hosts outside the known services in a
 * shared pool (pushTargetOf, decision 058), so one host's share of the lane is bounded
 * whatever its port or name. `knownHosts`: PUSH_KNOWN_HOSTS; due at `now` (the caller's
 * `deps.clock()`). Returns its outbox id.
 */
export async function enqueuePush(
  db: DB,
  msg: PushMessage,
  knownHosts: readonly string[],
  now: number,
): Promise<string> {
  const id = randomUUID();
  const sub = await findSubscription(db, msg.subscriptionId);
  const target = sub ? pushTargetOf(sub.endpoint, knownHosts) : null;
  await insertOutboxRow(
    db,
    {
      id,
      channel: "push",
      to: msg.subscriptionId,
      replyTo: null,
      subject: "",
      text: msg.payload,
      html: null,
      meta: null,
      // A device removed meanwhile fails at once without a request: its own id will do.
      target: target ?? msg.subscriptionId,
      deliveryId: msg.deliveryId,
    },
    now,
  );
  wakeOutbox("push");
  return id;
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A simple HTML part from plain text: escaped, paragraphs kept, http(s) links clickable. */
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

/**
 * The mail channel's sender (decision 039: made once at start-up, runtime.server.ts, and
 * carried by Deps as `senders.email`): SMTP_URL's server, or without it an .eml file in
 * MAIL_OUTBOX_DIR. The footer is added here, at delivery.
 */
export function createMailSender(config: Config, clock: Clock = systemClock): ChannelSender {
  const message = (row: OutboxRow) => ({
    from: config.mailFrom,
    to: row.to,
    replyTo: row.replyTo ?? undefined,
    subject: row.subject,
    ...withFooter(row, config),
    messageId: `<${row.id}@${config.baseUrl.hostname}>`,
  });
  if (config.smtpUrl) {
    // nodemailer waits minutes by default; a hung mail server must free the lane's slot well
    // inside the worker's deadline (SEND_DEADLINE_MS). Settings in SMTP_URL's query win.
    const transport: Transporter = nodemailer.createTransport({
      url: config.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      send: async (row) => void (await transport.sendMail(message(row))),
      close: () => transport.close(),
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    send: async (row) => {
      const info = await stream.sendMail(message(row));
      const file = await writeOutboxFile(config.mailOutboxDir, `${clock()}-${row.id}.eml`, info.message as Buffer);
      // No recipient or subject in the logs (a subject can carry a name): the id finds the row.
      logger.info({ mailId: row.id, file }, "mail written to outbox folder (no SMTP_URL)");
    },
    close: () => stream.close(),
  };
}

export type MailWorker = OutboxWorker;

/**
 * The outbox worker with the channels' senders of `deps.senders` (made once at start-up,
 * runtime.server.ts): mail, SMS, push notices and webhooks, a lane each. A test passes its
 * own senders in their place; a channel without a sender has no lane here: its rows wait.
 */
export function startMailWorker(deps: Pick<Deps, "db" | "config" | "senders" | "clock">): MailWorker {
  return startOutboxWorker(deps, deps.senders, { pollMs: deps.config.mailPollMs });
}
