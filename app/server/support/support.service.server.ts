/**
 * The contact form and the support inbox (decision 011). No HTTP here: routes parse input,
 * call these functions and map ContactError codes through contact.http.server.ts.
 */
import { randomUUID } from "node:crypto";
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { REPLY_MAX, type ContactInput } from "~/lib/domain/contact";
import type { CaptchaFailure, Deps } from "../service-deps.server";
import { enqueueMail } from "../mail/mail.server";
import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import { ServiceError } from "../service-error.server";
import * as repo from "./support.repository.server";

/** Per client IP: enough for a person with follow-ups, too few for a spam run. */
export const CONTACT_RATE_RULE: RateRule = { name: "contact:ip", limit: 5, windowMs: 15 * 60_000 };
export const INBOX_PAGE_SIZE = 25;

export type ContactErrorCode =
  | `captcha.${CaptchaFailure}`
  /** No solution sent while reCAPTCHA is the configured captcha (its own wording). */
  | "captcha.missingRecaptcha"
  | "rateLimited"
  | "notFound"
  | "replyEmpty"
  | "replyTooLong";

/** `params.count`: minutes to wait (rateLimited). */
export class ContactError extends ServiceError<ContactErrorCode> {}

/**
 * Store a contact message and queue the notification to support (reply-to the sender).
 * The rate limit is counted first, so refused captchas count too.
 */
export async function submitContactMessage(
  { config, db, clock, captcha: captchas }: Pick<Deps, "config" | "db" | "clock" | "captcha">,
  input: ContactInput,
  /** userId: the signed-in sender, whose message it then is (decision 028); null when signed out. */
  meta: { ip: string; lang: Lang; userId: string | null },
): Promise<{ id: string }> {
  const now = clock();
  const limit = await rateLimiter(config, db)(CONTACT_RATE_RULE, meta.ip, now);
  if (!limit.ok) throw new ContactError("rateLimited", { count: limit.retryAfterMinutes });
  const captcha = await captchas.verify(input.captchaToken, meta.ip, now);
  if (!captcha.ok) {
    const recaptchaMissing = captcha.reason === "missing" && config.captcha === "recaptcha";
    throw new ContactError(recaptchaMissing ? "captcha.missingRecaptcha" : `captcha.${captcha.reason}`);
  }

  const id = randomUUID();
  await repo.insertMessage(db, {
    id,
    name: input.name,
    email: input.email,
    message: input.message,
    lang: meta.lang,
    createdAt: now,
    userId: meta.userId,
  });
  // Support is staffed in Sweden: the mail is in Swedish, with an English summary for
  // staff who read English (decision 038); the sender's language is written out.
  // The name is the visitor's text: keep line breaks out of the mail's subject line.
  const name = input.name.replace(/\s+/g, " ");
  const from = name ? `${name} <${input.email}>` : input.email;
  const url = new URL(`/admin/messages/${id}`, config.baseUrl).toString();
  const language = (t: ReturnType<typeof getT>) => t(meta.lang === "sv" ? "layout.swedish" : "layout.english");
  const swedish = (t: ReturnType<typeof getT>) => ({
    subject: t("contact.mail.support.subject", { from: name || input.email }),
    text: t("contact.mail.support.text", { from, lang: language(t), message: input.message, url }),
  });
  const englishSummary = (t: ReturnType<typeof getT>) =>
    t("contact.mail.support.summary", { from, lang: language(t), url });
  const sv = swedish(getT("sv"));
  await enqueueMail(
    db,
    {
      to: config.supportEmail,
      replyTo: input.email,
      subject: sv.subject,
      text: [sv.text, "", "---", englishSummary(getT("en"))].join("\n"),
    },
    now,
  );
  return { id };
}

export async function inboxPage({ db }: Pick<Deps, "db">, page: number) {
  const counts = await repo.countMessages(db);
  const pages = Math.max(1, Math.ceil(counts.total / INBOX_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const rows = await repo.listMessages(db, INBOX_PAGE_SIZE, (current - 1) * INBOX_PAGE_SIZE);
  return {
    ...counts,
    page: current,
    pages,
    messages: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      excerpt: r.message.length > 140 ? `${r.message.slice(0, 140)}…` : r.message,
      createdAt: Number(r.createdAt),
      unread: r.readAt === null,
      handled: r.handledAt !== null,
    })),
  };
}

/** Open a message: marks it read the first time staff see it. */
export async function openMessage({ db, clock }: Pick<Deps, "db" | "clock">, id: string) {
  const now = clock();
  const m = await repo.findMessage(db, id);
  if (!m) throw new ContactError("notFound");
  if (m.readAt === null) await repo.markRead(db, id, now);
  const replies = await repo.listReplies(db, id);
  return {
    id: m.id,
    name: m.name,
    email: m.email,
    message: m.message,
    lang: m.lang,
    createdAt: Number(m.createdAt),
    readAt: m.readAt === null ? now : Number(m.readAt),
    handledAt: m.handledAt === null ? null : Number(m.handledAt),
    handledBy: m.handledBy,
    replies: replies.map((r) => ({ ...r, createdAt: Number(r.createdAt) })),
  };
}

export async function markHandled({ db, clock }: Pick<Deps, "db" | "clock">, id: string, handled: boolean, by: string) {
  const now = clock();
  const m = await repo.findMessage(db, id);
  if (!m) throw new ContactError("notFound");
  await repo.setHandled(db, id, handled ? { at: now, by } : null);
}

/**
 * Answer a message: the mail goes through the outbox in the sender's language, with
 * replies directed to the support address, and is recorded on the message.
 */
export async function replyToMessage(
  { config, db, clock }: Pick<Deps, "config" | "db" | "clock">,
  id: string,
  text: string,
  author: { email: string },
) {
  const now = clock();
  const body = text.trim();
  if (!body) throw new ContactError("replyEmpty");
  if (body.length > REPLY_MAX) throw new ContactError("replyTooLong");
  const m = await repo.findMessage(db, id);
  if (!m) throw new ContactError("notFound");
  const lang: Lang = m.lang === "sv" ? "sv" : "en";
  const t = getT(lang);
  const quoted = m.message
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
  const mailId = await enqueueMail(
    db,
    {
      to: m.email,
      replyTo: config.supportEmail,
      subject: t("contact.mail.reply.subject"),
      text: t("contact.mail.reply.text", { reply: body, quoted }),
    },
    now,
  );
  await repo.insertReply(db, {
    id: randomUUID(),
    messageId: id,
    authorEmail: author.email,
    text: body,
    mailId,
    createdAt: now,
  });
  // Answering is handling it, unless staff reopen it.
  if (m.handledAt === null) await repo.setHandled(db, id, { at: now, by: author.email });
}
