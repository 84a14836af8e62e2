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
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/domain/dates";
import { renewHref } from "~/lib/domain/one-time-payment";
import { fitSms, type SmsText } from "~/lib/domain/sms-text";
import type { Config } from "../config.server";
import type { PaidYearEnding } from "../domain-events";
import type { PushPayload } from "../push/push-sender.server";
import type { Deps } from "../service-deps.server";
import * as repo from "./alerts.repository.server";
import { alertOwnerBySmsAndPush, deliveryRecorder, type OwnerAlertResult } from "./owner-alert.server";

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

export type YearAlertResult = OwnerAlertResult;

/**
 * Queues the payer's SMS and push for the year's end, as their `renewal` settings say: the
 * steps of every alert to an account's own number and devices (`alertOwnerBySmsAndPush`),
 * with no item's day in the guard. A stopped SMS tells the payer nothing more: the mail went anyway.
 */
export async function alertPayerOfYear(deps: Pick<Deps, "db" | "config">, e: PaidYearEnding): Promise<YearAlertResult> {
  const { db, config } = deps;
  const want = (await repo.readSettings(db, e.userId)).renewal;
  return alertOwnerBySmsAndPush(
    deps,
    {
      userId: e.userId,
      want,
      itemId: null,
      record: deliveryRecorder(db, {
        userId: e.userId,
        itemId: null,
        conversationId: null,
        event: "renewal",
        now: e.now,
      }),
      sms: () => ({ text: renderYearSms(config, e.lang, e).text }),
      push: () => renderYearPush(config, e.lang, e),
    },
    e.now,
  );
}
