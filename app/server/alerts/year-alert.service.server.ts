/**
 * The payer's `renewal` alert (decisions 033, 056): a year paid at once ends soon or has
 * ended. The orders always mail it (a message about the payer's contract and money); this
 * adds the SMS and push the payer chose for `renewal` in their alert settings.
 *
 * To the payer alone: never to a trusted contact, nor to the others who manage the items —
 * it is about the payer's payment. SMS only to the payer's own verified number, through
 * the cost guard and the day's budget (counted against the payer's account; no item's
 * day); push to each device the payer subscribed. The texts are Hittad's own (the date,
 * the count, the renew link): nothing anyone else wrote, no item's name.
 *
 * Called in the transaction that claimed the reminder (`year_reminders`) or the lapse, so
 * however many instances run the billing job, each goes once.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/domain/dates";
import { renewHref } from "~/lib/domain/one-time-payment";
import { maskPhone } from "~/lib/domain/phone";
import { fitSms, type SmsText } from "~/lib/domain/sms-text";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import type { PaidYearEnding } from "../domain-events";
import { enqueuePush, enqueueSms } from "../mail/mail.server";
import type { PushPayload } from "../push/push-sender.server";
import { listSubscriptions } from "../push/push.repository.server";
import type { Deps } from "../service-deps.server";
import { admitSms } from "../sms/sms-guard.server";
import * as repo from "./alerts.repository.server";
import { reportTokenHash } from "./fanout.service.server";

/** What the year's end is about, as the texts need it. */
export type PaidYearFacts = Pick<PaidYearEnding, "orderId" | "kind" | "endsAt" | "itemCount">;

const renewUrl = (config: Pick<Config, "baseUrl">, orderId: string) =>
  new URL(renewHref(orderId), config.baseUrl).toString();

/** One SMS part: the date (a reminder) and the renew link, in `lang`. */
export function renderYearSms(config: Pick<Config, "baseUrl">, lang: Lang, facts: PaidYearFacts): SmsText {
  const t = getT(lang);
  const url = renewUrl(config, facts.orderId);
  return fitSms(() => t(`alerts.sms.renewal.${facts.kind}`, { date: formatDate(facts.endsAt, lang), url }), "");
}

/** The push notification: opens the renew page; one tag per order, so "ended" replaces a reminder. */
export function renderYearPush(config: Pick<Config, "baseUrl">, lang: Lang, facts: PaidYearFacts): PushPayload {
  const t = getT(lang);
  return {
    title: t(`push.notice.renewal.${facts.kind}.title`, { date: formatDate(facts.endsAt, lang) }),
    body: t(`push.notice.renewal.${facts.kind}.body`, { count: facts.itemCount }),
    url: renewUrl(config, facts.orderId),
    tag: `y-${facts.orderId}`,
    lang,
  };
}

export interface YearAlertResult {
  sms: number;
  push: number;
  /** SMS the cost guard or the day's budget stopped. */
  blocked: number;
}

/** Queues the payer's SMS and push for the year's end, as their `renewal` settings say. */
export async function alertPayerOfYear(
  db: DB,
  deps: Pick<Deps, "config">,
  e: PaidYearEnding,
): Promise<YearAlertResult> {
  const { config } = deps;
  const out: YearAlertResult = { sms: 0, push: 0, blocked: 0 };
  const want = (await repo.readSettings(db, e.userId)).renewal;
  const delivery = async (channel: "sms" | "push", label: string, status: "queued" | "blocked", token?: string) => {
    const row: repo.DeliveryRow = {
      id: randomUUID(),
      userId: e.userId,
      itemId: null,
      conversationId: null,
      event: "renewal",
      channel,
      recipientKind: "owner",
      contactId: null,
      recipientLabel: label,
      status,
      createdAt: e.now,
      reportTokenHash: token ? reportTokenHash(token) : null,
    };
    await repo.insertDelivery(db, row);
    return row.id;
  };

  const phone = want.sms ? await repo.verifiedPhoneOf(db, e.userId) : null;
  if (phone) {
    const admitted = await admitSms(db, config, { accountKey: `account:${e.userId}` }, e.now);
    if (!admitted.ok) {
      // The mail went anyway: nothing more to tell the payer.
      await delivery("sms", maskPhone(phone), "blocked");
      out.blocked++;
    } else {
      const token = randomBytes(24).toString("base64url");
      const deliveryId = await delivery("sms", maskPhone(phone), "queued", token);
      await enqueueSms(
        db,
        {
          to: phone,
          text: renderYearSms(config, e.lang, e).text,
          deliveryId,
          reportUrl: new URL(`/api/sms/report/${token}`, config.baseUrl).toString(),
        },
        e.now,
      );
      out.sms++;
    }
  }

  if (want.push) {
    const devices = await listSubscriptions(db, e.userId);
    const payload = JSON.stringify(renderYearPush(config, e.lang, e));
    for (const device of devices) {
      const deliveryId = await delivery("push", device.label, "queued");
      await enqueuePush(db, { subscriptionId: device.id, payload, deliveryId }, config.push.knownHosts, e.now);
      out.push++;
    }
  }
  return out;
}
