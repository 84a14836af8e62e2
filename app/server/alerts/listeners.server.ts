/**
 * What the alerts hear on the event bus (decision 053), subscribed by runtime.server.ts:
 * the features that announce never import the fan-out.
 */
import type { ItemScanned, PaidYearEnding } from "../domain-events";
import type { Deps } from "../service-deps.server";
import { fanOutAlert } from "./fanout.service.server";
import { alertPayerOfYear } from "./year-alert.service.server";

/**
 * A paid item's scan alert (decision 033): each person who manages the item, by the
 * channels they chose for "scan" or "lost-mode scan". `deps.db` is the scans' transaction
 * that claimed the alert, so the deliveries commit with the claim.
 */
export async function alertOfScan(e: ItemScanned, deps: Pick<Deps, "db" | "config">): Promise<{ mails: number }> {
  const r = await fanOutAlert(
    deps,
    {
      event: e.lost ? "lostScan" : "scan",
      itemId: e.itemId,
      itemName: e.itemName,
      at: e.at,
      scanLang: e.scanLang,
      device: e.device,
    },
    e.now,
  );
  return { mails: r.email };
}

/**
 * A year paid at once ends soon or has ended (decision 056): the payer's SMS and push, as
 * they chose for "renewal" (the orders' `mailOfPaidYear` queues the mail). `deps.db` is the transaction that
 * claimed the reminder or the lapse, so it goes once.
 */
export async function alertOfPaidYear(e: PaidYearEnding, deps: Pick<Deps, "db" | "config">): Promise<void> {
  await alertPayerOfYear(deps, e);
}
