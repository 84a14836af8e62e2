/**
 * The reminders before a year paid at once ends (decision 056): 30 and 7 days before, the
 * owner gets a mail in their language naming the items, today's price and the link that
 * opens a one-year checkout for exactly those items. A step of the billing job (under its
 * lock); each reminder is claimed by a row of `year_reminders`, and `paidYearEnding` is
 * announced in the claim's transaction, so several instances, or two runs at once, send it
 * once. What hears of it (decision 053): the orders' `mailOfPaidYear` queues the mail (this
 * reminder's, or the lapse's), the alerts add the SMS and push the payer chose for "renewal".
 * The 30-day mail covers (7, 30] days ahead and the 7-day one (0, 7], so a run never sends both.
 */
import { isLang } from "~/i18n/config";
import { DAY_MS } from "~/lib/domain/dates";
import { YEAR_REMINDER_LEADS } from "~/lib/domain/one-time-payment";
import type { Deps } from "../service-deps.server";
import { listItemsCoveredElsewhere } from "./billing.repository.server";
import { claimYearReminder, listYearsEnding } from "./one-time.repository.server";
import { findUserForReceipt, listOrderItemIds, type Order } from "./orders.repository.server";

/** Sends the due reminders; returns how many this run sent. */
export async function sendYearReminders(deps: Pick<Deps, "db" | "config" | "clock" | "events">): Promise<number> {
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
        const itemCount = ids.length - covered.size;
        // The mail and the payer's alerts hear of it (orders' mailOfPaidYear, alerts' alertOfPaidYear).
        await announcePaidYearEnding(trx, deps, order, { kind: "reminder", endsAt: order.paidUntil!, itemCount, now });
        return true;
      });
      if (sent) count++;
    }
  }
  return count;
}

/**
 * Tells whoever listens (the owner's mail, the payer's alerts) that a paid year ends soon or
 * has ended, in the caller's transaction, in the language of the mail: the payer's saved one,
 * else the order's.
 */
export async function announcePaidYearEnding(
  trx: Deps["db"],
  deps: Pick<Deps, "clock" | "events">,
  order: Order,
  e: { kind: "reminder" | "ended"; endsAt: number; itemCount: number; now: number },
): Promise<void> {
  const payer = await findUserForReceipt(trx, order.userId);
  const lang = isLang(payer?.language) ? payer.language : order.lang;
  await deps.events.emit(
    "paidYearEnding",
    { orderId: order.id, userId: order.userId, lang, ...e },
    { db: trx, clock: deps.clock },
  );
}
