/**
 * The mail before a prepaid sticker's months end (decision 036): 30 and 7 days before,
 * the owner is offered a subscription (in their language, linking to /order). Run by the
 * billing job; each mail is claimed by a row of `prepaid_reminders` inserted in the
 * mail's transaction, so several instances on one database send it once.
 */
import { DEFAULT_LANG, isLang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/dates";
import { prepaidOfferHref } from "~/lib/prepaid";
import type { Deps } from "../service-deps.server";
import { enqueueMail } from "../mail/mail.server";
import { findUserForReceipt } from "../orders/orders.repository.server";
import { claimPrepaidReminder, listPrepaidEnding } from "./stickers.repository.server";

const DAY_MS = 24 * 60 * 60_000;
/** Days before the prepaid end; the nearer lead's window stops where the farther's starts. */
export const PREPAID_REMINDER_LEADS = [30, 7] as const;

/** Sends the due reminders; returns how many were sent by this run. */
export async function sendPrepaidReminders(deps: Pick<Deps, "db" | "config" | "clock">): Promise<number> {
  const now = deps.clock();
  let count = 0;
  for (const [i, lead] of PREPAID_REMINDER_LEADS.entries()) {
    const nearer = PREPAID_REMINDER_LEADS[i + 1] ?? 0;
    const window = { from: now + nearer * DAY_MS, to: now + lead * DAY_MS, now };
    for (const item of await listPrepaidEnding(deps.db, window, lead)) {
      const sent = await deps.db.transaction().execute(async (trx) => {
        if (!(await claimPrepaidReminder(trx, item.id, lead, now))) return false;
        const user = await findUserForReceipt(trx, item.owner);
        // Claimed even when not mailed: an unverified address is not asked again later.
        if (!user?.emailVerified) return false;
        const lang = isLang(user.language) ? user.language : DEFAULT_LANG;
        const t = getT(lang);
        const date = formatDate(item.paidUntil, lang);
        const url = `${deps.config.baseUrl.origin}${prepaidOfferHref()}`;
        const text = [
          t("billing.mail.greeting", { name: user.name.trim().split(/\s+/)[0] || user.email }),
          t("billing.mail.prepaid.intro", { name: item.name, date }),
          t("billing.mail.prepaid.offer", { url, date }),
          t("billing.mail.signature"),
        ].join("\n\n");
        await enqueueMail(trx, { to: user.email, subject: t("billing.mail.prepaid.subject", { date }), text });
        return true;
      });
      if (sent) count++;
    }
  }
  return count;
}
