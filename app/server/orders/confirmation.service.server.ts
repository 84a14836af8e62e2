/**
 * Receipts and order confirmations that waited for a verified address (decision 051). A distance sale needs its confirmation, with the withdrawal form, on a
 * durable medium; the receipt mail is that confirmation, and it goes only to a verified
 * address (decision 012). An order paid before the address was verified is marked
 * (`orders.confirmationPendingAt`, by enqueueReceiptMail); when the account's email becomes
 * verified (the auth hook, whatever path verified it: the link, an email change, a linked
 * provider) each marked order's mail is queued once, claimed by a conditional update.
 */
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { wakeOutbox } from "../mail/mail.server";
import { findReceiptOfOrder } from "./billing.repository.server";
import { findOrder, findUserForReceipt } from "./orders.repository.server";
import { enqueueReceiptMail } from "./receipt.mail.server";

/** The user's orders whose receipt mail waits for the verified address. */
async function listPendingConfirmations(db: Deps["db"], userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("orders")
    .select("id")
    .where("userId", "=", userId)
    .where("confirmationPendingAt", "is not", null)
    .execute();
  return rows.map((r) => r.id);
}

/** Claims one order's waiting mail: true for exactly one caller. */
async function claimPendingConfirmation(db: Deps["db"], orderId: string): Promise<boolean> {
  const r = await db
    .updateTable("orders")
    .set({ confirmationPendingAt: null })
    .where("id", "=", orderId)
    .where("confirmationPendingAt", "is not", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Queues the receipt and order confirmation of every order of `userId` that waited for the
 * verified address; a no-op while it is still unverified. An order withdrawn meanwhile gets
 * none: its offer to withdraw would be stale, and its receipt and credit note are on its
 * withdraw page. Returns how many were queued.
 */
export async function sendPendingConfirmations(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
): Promise<number> {
  const user = await findUserForReceipt(deps.db, userId);
  if (!user?.emailVerified) return 0;
  let sent = 0;
  for (const id of await listPendingConfirmations(deps.db, userId)) {
    const queued = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimPendingConfirmation(trx, id))) return false;
      const order = await findOrder(trx, id);
      if (!order || order.withdrawnAt != null) return false;
      // The first payment's receipt (renewals come later and were mailed on their own).
      const receipt = (await findReceiptOfOrder(trx, id, null, "first")) ?? null;
      await enqueueReceiptMail(trx, deps.config, order, receipt, deps.clock());
      return true;
    });
    if (queued) sent += 1;
  }
  if (sent > 0) {
    logger.info({ user: userId, orders: sent }, "receipts that waited for the verified address queued");
    wakeOutbox();
  }
  return sent;
}
