/**
 * The mail before a prepaid sticker's months end (decision 036): 30 and 7 days before,
 * the owner is offered a subscription (in their language, linking to /order). Run by the
 * billing job; each mail is claimed by a row of `prepaid_reminders` inserted in the
 * mail's transaction, so several instances on one database send it once.
 */
import { DEFAULT_LANG } from "~/i18n/config";
import { DAY_MS, formatDate } from "~/lib/domain/dates";
import { prepaidOfferHref } from "~/lib/domain/prepaid";
import type { Deps } from "../service-deps.server";
import { enqueueAccountMail } from "./billing.mail.server";
import { claimPrepaidReminder, listPrepaidEnding } from "../stickers/stickers.repository.server";

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
        // Claimed even when not mailed: an unverified address is not asked again later.
        return enqueueAccountMail(
          trx,
          item.owner,
          DEFAULT_LANG,
          { item: item.id, kind: "prepaid" },
          now,
          ({ t, lang }) => {
            const date = formatDate(item.paidUntil, lang);
            return {
              subject: t("billing.mail.prepaid.subject", { date }),
              body: [
                t("billing.mail.prepaid.intro", { name: item.name, date }),
                t("billing.mail.prepaid.offer", { url: `${deps.config.baseUrl.origin}${prepaidOfferHref()}`, date }),
              ],
            };
          },
        );
      });
      if (sent) count++;
    }
  }
  return count;
}
