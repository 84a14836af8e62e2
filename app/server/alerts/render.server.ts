/**
 * What each channel says about an alert, in the recipient's language (decision 033). Email:
 * the texts the relay and scan alerts always had. SMS: one part (lib/domain/sms-text.ts) naming
 * the item, with a link, quoting the finder only as far as it fits. Stored text (item
 * names, the finder's words) is inserted as text: mails are plain text (the HTML part is
 * escaped), an SMS is text.
 */
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/domain/dates";
import { formatFee } from "~/lib/domain/fee";
import { mapsLink } from "~/lib/domain/relay";
import { fitSms, gsmOnly, smsName, type SmsText } from "~/lib/domain/sms-text";
import type { Config } from "../config.server";
import type { PushPayload } from "../push/push-sender.server";
import { replyUrl, stopUrl } from "../trusted-contacts/contact-links.server";
import { scanAlertMail } from "../scans/scan-alert.mail.server";
import type { AlertFacts } from "./alert-facts.server";
import type { RecipientUser } from "./alerts.repository.server";

/** One line, for subjects: stored texts may hold line breaks. */
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

function quote(text: string) {
  return text
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
}

const url = (config: Pick<Config, "baseUrl">, path: string) => new URL(path, config.baseUrl).toString();

/** The link an alert points its owner to. */
function linkOf(config: Pick<Config, "baseUrl">, facts: AlertFacts): string {
  return "conversationId" in facts
    ? url(config, `/messages/${facts.conversationId}`)
    : url(config, `/product/${facts.itemId}`);
}

export function renderEmail(
  config: Pick<Config, "baseUrl">,
  user: RecipientUser,
  facts: AlertFacts,
  now: number,
): { subject: string; text: string } {
  const t = getT(user.language);
  switch (facts.event) {
    case "finderMessage": {
      const location = facts.location
        ? t("relay.mail.owner.location", { url: mapsLink(facts.location) })
        : t("relay.mail.owner.noLocation");
      const contact = facts.smsRef
        ? t("relay.mail.owner.bySms", { ref: facts.smsRef })
        : facts.contact
          ? t("relay.mail.owner.contact", { contact: facts.contact })
          : t("relay.mail.owner.noContact");
      return {
        subject: t(facts.first ? "relay.mail.owner.subject" : "relay.mail.owner.subjectMore", {
          item: oneLine(facts.itemName),
        }),
        text: t("relay.mail.owner.text", {
          item: facts.itemName,
          message: quote(facts.message),
          location,
          contact,
          url: linkOf(config, facts),
          // A lapsed sticker still relays (decision 019): say so, and where to reactivate it.
          inactive: facts.paidNow ? "" : `${t("relay.mail.owner.inactive", { url: url(config, "/order") })}\n\n`,
        }),
      };
    }
    case "reply":
      return {
        subject: t("alerts.mail.reply.subject", { item: oneLine(facts.itemName) }),
        text: t("alerts.mail.reply.text", {
          item: facts.itemName,
          name: facts.byName,
          message: quote(facts.message),
          url: linkOf(config, facts),
        }),
      };
    case "lostScan":
    case "scan":
      return scanAlertMail(config, {
        to: user.email,
        ownerName: user.name,
        ownerLang: user.language,
        itemId: facts.itemId,
        itemName: facts.itemName,
        at: facts.at,
        scanLang: facts.scanLang,
        device: facts.device,
        kind: facts.event === "lostScan" ? "lost" : "scan",
      });
    case "returned":
      return {
        subject: t("relay.mail.returned.subject", { item: oneLine(facts.itemName) }),
        text: t("relay.mail.returned.text", {
          item: facts.itemName,
          date: formatDate(now, user.language),
          fee: formatFee(facts.fee, facts.currency as "SEK" | "EUR"),
          url: linkOf(config, facts),
        }),
      };
  }
}

/** One SMS part for the alert, in `lang`. */
export function renderSms(config: Pick<Config, "baseUrl">, lang: Lang, facts: AlertFacts): SmsText {
  const t = getT(lang);
  const link = linkOf(config, facts);
  const message = "message" in facts ? facts.message : "";
  const name = "byName" in facts ? facts.byName : "";
  // A finder who wrote by SMS (decision 055): the owner may answer by SMS with the reference.
  const ref = facts.event === "finderMessage" ? (facts.smsRef ?? null) : null;
  return fitSms(
    (item, words) =>
      ref
        ? t("smsFinder.alert", { item, quote: words, url: link, ref })
        : t(`alerts.sms.${facts.event}`, { item, quote: words, url: link, name }),
    oneLine(facts.itemName),
    message,
  );
}

/** The mail telling the owner that the cost guard stopped an SMS. */
export function renderGuardNotice(
  config: Pick<Config, "baseUrl" | "sms">,
  user: RecipientUser,
  facts: AlertFacts,
  why: "item" | "account",
): { subject: string; text: string } {
  const t = getT(user.language);
  return {
    subject: t("alerts.mail.guard.subject"),
    text: t(why === "item" ? "alerts.mail.guard.itemText" : "alerts.mail.guard.accountText", {
      item: facts.itemName,
      count: why === "item" ? config.sms.limitPerItemDay : config.sms.limitPerAccountMonth,
      url: linkOf(config, facts),
    }),
  };
}

const PUSH_ITEM_MAX = 60;
const PUSH_EXCERPT_MAX = 120;

function shorten(text: string, max: number): string {
  const line = oneLine(text);
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/**
 * A push notification for the alert, in `lang`: names the item, quotes the start of a
 * message, opens the conversation (or the item); one tag per conversation, so a burst
 * replaces rather than stacks. The service worker shows it as text.
 */
export function renderPush(config: Pick<Config, "baseUrl">, lang: Lang, facts: AlertFacts): PushPayload {
  const t = getT(lang);
  const item = shorten(facts.itemName, PUSH_ITEM_MAX);
  const url = linkOf(config, facts);
  const tag = "conversationId" in facts ? `c-${facts.conversationId}` : `i-${facts.itemId}`;
  switch (facts.event) {
    case "finderMessage":
      return {
        title: t(facts.first ? "push.notice.finderMessage.title" : "push.notice.finderMessage.titleMore", { item }),
        body: shorten(facts.message, PUSH_EXCERPT_MAX),
        url,
        tag,
        lang,
      };
    case "reply":
      return {
        title: t("push.notice.reply.title", { item, name: shorten(facts.byName, PUSH_ITEM_MAX) }),
        body: shorten(facts.message, PUSH_EXCERPT_MAX),
        url,
        tag,
        lang,
      };
    case "lostScan":
    case "scan":
    case "returned":
      return {
        title: t(`push.notice.${facts.event}.title`, { item }),
        body: t(`push.notice.${facts.event}.body`),
        url,
        tag,
        lang,
      };
  }
}

/** A trusted contact (decision 033) as the renderers need them. */
export interface ContactRecipient {
  id: string;
  name: string;
  language: Lang;
}

/** The events a trusted contact gets. */
export type ContactFacts = Exclude<AlertFacts, { event: "reply" } | { event: "returned" }>;

/**
 * The mail to a trusted contact: the finder's words with the contact's private reply link,
 * and the stop link (in every message). Names the owner (by their account name) so the
 * contact knows whose thing it is.
 */
export function renderContactEmail(
  config: Pick<Config, "baseUrl" | "authSecret">,
  contact: ContactRecipient,
  ownerName: string,
  facts: ContactFacts,
): { subject: string; text: string } {
  const t = getT(contact.language);
  const common = { name: contact.name, owner: ownerName, stop: stopUrl(config, contact.id) };
  if (facts.event === "finderMessage") {
    return {
      subject: t("trusted.mail.finderMessage.subject", { owner: oneLine(ownerName), item: oneLine(facts.itemName) }),
      text: t("trusted.mail.finderMessage.text", {
        ...common,
        item: facts.itemName,
        message: quote(facts.message),
        url: replyUrl(config, facts.conversationId, contact.id),
      }),
    };
  }
  return {
    subject: t("trusted.mail.lostScan.subject", { owner: oneLine(ownerName), item: oneLine(facts.itemName) }),
    text: t("trusted.mail.lostScan.text", { ...common, item: facts.itemName }),
  };
}

/** The short links a trusted contact's SMS carries (contact-links.server.ts). */
export interface ContactSmsLinks {
  /** The reply page of the conversation (finder messages only). */
  reply: string | null;
  stop: string;
}

/**
 * One SMS part to a trusted contact: for a finder's message the short reply link, and in
 * every SMS the short stop link (decision 040). Both links and the names are kept GSM-7
 * (anything else is dropped), so the text has 160 characters and the links always fit;
 * the finder's words are cut first, then the item's name.
 */
export function renderContactSms(
  contact: ContactRecipient,
  ownerName: string,
  facts: ContactFacts,
  links: ContactSmsLinks,
): SmsText {
  const t = getT(contact.language);
  const owner = smsName(ownerName);
  if (facts.event === "finderMessage" && links.reply) {
    const url = links.reply;
    return fitSms(
      (item, words) => t("trusted.sms.finderMessage", { owner, item, quote: words, url, stop: links.stop }),
      gsmOnly(oneLine(facts.itemName)),
      gsmOnly(facts.message),
    );
  }
  return fitSms(
    (item) => t("trusted.sms.lostScan", { owner, item, url: links.stop }),
    gsmOnly(oneLine(facts.itemName)),
  );
}
