/**
 * SMS to a finder who wrote by SMS (decision 055): the owner's side's answers, from
 * SMS_NUMBER so the finder can text back. Each passes what every SMS passes: the country
 * (SMS_COUNTRIES), the suppression list (a STOP), and the cost guard counted against the
 * item's day and its paying account (sms/sms-guard.server.ts). The finder's number is read
 * from the conversation and goes only into the outbox row; no text carries either side's
 * number.
 */
import { getT } from "~/i18n/i18n";
import type { Lang } from "~/i18n/config";
import { toGsmWherePossible } from "~/lib/domain/sms-text";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import type { Item } from "../access/items.repository.server";
import { enqueueSms } from "../mail/mail.server";
import { fingerprintsOf, isSuppressed } from "../recipients/recipients.repository.server";
import { admitSms, smsCountryAllowed } from "../sms/sms-guard.server";

/** An answer longer than this is cut (about four SMS parts): a reply is bounded in money too. */
export const FINDER_SMS_TEXT_MAX = 600;

/** The finder's language: Swedish for a Swedish number, English otherwise (decision 055). */
export function finderSmsLang(e164: string): Lang {
  return e164.startsWith("+46") ? "sv" : "en";
}

/** The key the cost guard counts an item's SMS under: its organisation's, or its owner's. */
export function payerOf(item: Pick<Item, "owner" | "organisationId">): string {
  return item.organisationId ? `org:${item.organisationId}` : `account:${item.owner}`;
}

/** Whether an SMS may go to this number at all: an allowed country, not on the suppression list. */
export async function maySmsFinder(db: DB, config: Pick<Config, "sms">, e164: string): Promise<boolean> {
  return smsCountryAllowed(config, e164) && !(await isSuppressed(db, fingerprintsOf("sms", e164)));
}

function bounded(text: string): string {
  const line = toGsmWherePossible(text);
  return line.length <= FINDER_SMS_TEXT_MAX ? line : `${line.slice(0, FINDER_SMS_TEXT_MAX - 1).trimEnd()}…`;
}

/**
 * Queues the owner's side's answer to a finder who wrote by SMS; nothing for a conversation
 * opened on the web or without SMS_NUMBER. Returns whether it was queued (false: the number
 * stopped SMS, or a guard refused it).
 */
export async function smsFinderReply(
  deps: { db: DB; config: Pick<Config, "sms"> },
  conversation: { finderPhone?: string | null },
  item: Pick<Item, "id" | "owner" | "organisationId">,
  text: string,
  now: number,
): Promise<boolean> {
  const { db, config } = deps;
  const to = conversation.finderPhone;
  const from = config.sms.number;
  if (!to || !from || !(await maySmsFinder(db, config, to))) return false;
  const t = getT(finderSmsLang(to));
  return db.transaction().execute(async (trx) => {
    const admitted = await admitSms(trx, config, { itemId: item.id, accountKey: payerOf(item) }, now);
    if (!admitted.ok) return false;
    await enqueueSms(trx, { to, from, text: t("smsFinder.ownerAnswer", { message: bounded(text) }) }, now);
    return true;
  });
}
