/**
 * The reminders before a year paid at once ends (decision 056): 30 and 7 days before, the
 * owner gets a mail in their language naming the items, today's price and the link that
 * opens a one-year checkout for exactly those items. A step of the billing job (under its
 * lock); each mail is claimed by a row of `year_reminders` inserted in the mail's
 * transaction, so several instances, or two runs at once, send it once. The 30-day mail
 * covers (7, 30] days ahead and the 7-day one (0, 7], so a run never sends both.
 */
import { DAY_MS } from "~/lib/domain/dates";
import { renewHref, YEAR_REMINDER_LEADS } from "~/lib/domain/one-time-payment";
import { orderTotals } from "~/lib/domain/pricing";
import type { Deps } from "../service-deps.server";
import { listItemsCoveredElsewhere } from "./billing.repository.server";
import { enqueueOwnerMail } from "./billing.mail.server";
import { claimYearReminder, listYearsEnding } from "./one-time.repository.server";
import { langOfCurrency } from "./one-time.server";
import { listOrderItemIds, type Order } from "./orders.repository.server";

/** Sends the due reminders; returns how many this run sent. */
export async function sendYearReminders(deps: Pick<Deps, "db" | "config" | "clock">): Promise<number> {
  const now = deps.clock();
  let count = 0;
  for (const [i, lead] of YEAR_REMINDER_LEADS.entries()) {
    const nearer = YEAR_REMINDER_LEADS[i + 1] ?? 0;
    for (const order of await listYearsEnding(deps.db, { from: now + nearer * DAY_MS, to: now + lead * DAY_MS })) {
      const sent = await deps.db.transaction().execute(async (trx) => {
        const ids = await listOrderItemIds(trx, order.id);
        // Every item paid beyond this year by another order (a card subscription since): nothing to renew.
        const covered = await listItemsCoveredElsewhere(trx, ids, order.id, order.paidUntil!);
        if (ids.length === 0 || covered.size >= ids.length) return false;
        if (!(await claimYearReminder(trx, order.id, lead, now))) return false;
        // Claimed even when not mailed: an unverified address is not asked again later.
        await enqueueYearReminderMail(trx, deps, order, ids.length - covered.size);
        return true;
      });
      if (sent) count++;
    }
  }
  return count;
}

function enqueueYearReminderMail(trx: Deps["db"], deps: Pick<Deps, "config">, order: Order, count: number) {
  const price = orderTotals({ lang: langOfCurrency(order.currency), period: "year", count }).minor.total;
  return enqueueOwnerMail(trx, deps.config, order, "yearReminder", (c) => ({
    subject: c.t("swish.mail.reminder.subject", { date: c.date(order.paidUntil!) }),
    body: [
      c.t("swish.mail.reminder.intro", { date: c.date(order.paidUntil!) }),
      c.items.map((i) => `- ${i.name}`).join("\n"),
      c.t("swish.mail.reminder.renew", { amount: c.money(price), url: `${c.origin}${renewHref(order.id)}` }),
      c.t("swish.mail.reminder.early"),
      c.t("swish.mail.reminder.lapse"),
    ],
  }));
}
