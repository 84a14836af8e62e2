/**
 * Credit notes (kreditfakturor, decision 051): a refund on withdrawal corrects the receipt
 * of the payment it gives back, so the books get a document of its own, numbered from its
 * own counter ("credit-note", migration 0056) and naming the receipt it corrects. Issued in
 * the withdrawal's transaction, once per order (the order id is unique). SQL and the
 * amounts only; the page and PDF are credit-note.service.server.ts.
 */
import { randomUUID } from "node:crypto";
import type { Currency } from "~/lib/domain/currency";
import { toCurrency } from "~/lib/domain/currency";
import type { DB } from "../db/db.server";
import { findReceiptOfOrder, nextCounter } from "./billing.repository.server";
import type { Order } from "./orders.repository.server";

export interface CreditNote {
  id: string;
  number: number;
  orderId: string;
  receiptNumber: number | null;
  userId: string;
  currency: Currency;
  /** What went back, VAT included (minor units, positive). */
  totalAmount: number;
  vatAmount: number;
  reverseCharge: boolean;
  items: Array<{ name: string }>;
  createdAt: number;
}

/**
 * The VAT in a refund: the receipt's VAT in the same share as the refund is of what was
 * paid, rounded to the öre, so a full refund credits exactly the VAT charged.
 */
export function vatOfRefund(refund: number, paid: { totalAmount: number; vatAmount: number }): number {
  if (paid.totalAmount <= 0) return 0;
  return Math.round((paid.vatAmount * refund) / paid.totalAmount);
}

/** Issues the order's credit note for `refund` (minor units); null when nothing went back. */
export async function issueCreditNote(
  trx: DB,
  order: Pick<Order, "id" | "userId" | "currency" | "totalAmount" | "vatAmount" | "reverseCharge">,
  refund: number,
  now: number,
): Promise<CreditNote | null> {
  if (refund <= 0) return null;
  const receipt = await findReceiptOfOrder(trx, order.id, null, "first");
  const paid = receipt ?? order;
  const note: CreditNote = {
    id: randomUUID(),
    number: await nextCounter(trx, "credit-note"),
    orderId: order.id,
    receiptNumber: receipt?.number ?? null,
    userId: order.userId,
    currency: order.currency,
    totalAmount: refund,
    vatAmount: paid.reverseCharge ? 0 : vatOfRefund(refund, paid),
    reverseCharge: paid.reverseCharge,
    items: receipt?.items ?? [],
    createdAt: now,
  };
  await trx
    .insertInto("credit_notes")
    .values({ ...note, reverseCharge: note.reverseCharge ? 1 : 0, items: JSON.stringify(note.items) })
    .execute();
  return note;
}

function parseItems(json: string): Array<{ name: string }> {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v)
      ? v.filter((x): x is { name: string } => !!x && typeof (x as { name?: unknown }).name === "string")
      : [];
  } catch {
    return [];
  }
}

export async function findCreditNoteOfOrder(db: DB, orderId: string): Promise<CreditNote | undefined> {
  const row = await db.selectFrom("credit_notes").selectAll().where("orderId", "=", orderId).executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    number: Number(row.number),
    receiptNumber: row.receiptNumber == null ? null : Number(row.receiptNumber),
    currency: toCurrency(row.currency),
    totalAmount: Number(row.totalAmount),
    vatAmount: Number(row.vatAmount),
    reverseCharge: Number(row.reverseCharge) === 1,
    items: parseItems(row.items),
    createdAt: Number(row.createdAt),
  };
}
