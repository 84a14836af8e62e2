/**
 * The checks an invoice order must pass before it is stored (decisions 027, 028): SQL,
 * run inside insertOrder's transaction under its lock.
 */
import { PostgresAdapter, sql } from "kysely";
import type { DB } from "../db/db.server";

/** Why an invoice order was not stored (insertOrder). */
export type InvoiceRefusal =
  { reason: "alreadyInvoiced" } | { reason: "overdue" } | { reason: "creditLimit"; used: number; max: number };

/** What an invoice order is checked against (decision 028). */
export interface InvoiceGuard {
  /** The buyer's organisation number: every organisation with it shares the checks. */
  orgNumber: string;
  /** INVOICE_CREDIT_ITEMS. */
  creditItems: number;
  now: number;
}

/**
 * An unpaid invoice of the organisation, or of any with the same organisation number, past
 * its due date or lapsed, that staff have not cleared (decision 028).
 */
async function hasOverdueInvoice(trx: DB, organisationId: string, guard: InvoiceGuard): Promise<boolean> {
  const row = await trx
    .selectFrom("orders")
    .leftJoin("organisations", "organisations.id", "orders.organisationId")
    .select("orders.id")
    .where((eb) =>
      eb.or([eb("orders.organisationId", "=", organisationId), eb("organisations.orgNumber", "=", guard.orgNumber)]),
    )
    .where("orders.method", "=", "invoice")
    .where("orders.status", "!=", "paid")
    .where("orders.creditClearedAt", "is", null)
    .where((eb) =>
      eb.or([
        eb.and([eb("orders.status", "=", "invoiced"), eb("orders.dueAt", "<", guard.now)]),
        eb("orders.lapsedAt", "is not", null),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Items on credit: until an invoice of the organisation (or of one with the same number)
 * has been paid, the items on its open invoices (being issued or unpaid). Null once one is
 * paid: no limit then.
 */
async function itemsOnCredit(trx: DB, organisationId: string, guard: InvoiceGuard): Promise<number | null> {
  const sameBuyer = (eb: any) =>
    eb.or([eb("orders.organisationId", "=", organisationId), eb("organisations.orgNumber", "=", guard.orgNumber)]);
  const paid = await trx
    .selectFrom("orders")
    .leftJoin("organisations", "organisations.id", "orders.organisationId")
    .select("orders.id")
    .where(sameBuyer)
    .where("orders.method", "=", "invoice")
    .where("orders.status", "=", "paid")
    .limit(1)
    .executeTakeFirst();
  if (paid) return null;
  const open = await trx
    .selectFrom("orders")
    .leftJoin("organisations", "organisations.id", "orders.organisationId")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("orders.count"), eb.lit(0)).as("items"))
    .where(sameBuyer)
    .where("orders.method", "=", "invoice")
    .where("orders.status", "in", ["pending", "invoiced"])
    .where("orders.lapsedAt", "is", null)
    .executeTakeFirst();
  return Number(open?.items ?? 0);
}

/**
 * Checks an invoice order against decision 028 inside insertOrder's transaction: none of
 * its items already on another open invoice (pending or invoiced, not lapsed), no overdue
 * or lapsed invoice of the buyer that staff have not cleared, and the credit limit before
 * the buyer's first paid invoice. Null: it may be stored. Card orders are never refused.
 */
export async function invoiceRefusal(
  trx: DB,
  order: { method: string; organisationId: string | null; userId: string; count: number },
  itemIds: string[],
  guard: InvoiceGuard | null,
): Promise<InvoiceRefusal | null> {
  if (order.method !== "invoice") return null;
  const buyer = guard?.orgNumber ?? order.organisationId ?? order.userId;
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtext(${`invoice:${buyer}`}))`.execute(trx);
  }
  for (let i = 0; i < itemIds.length; i += 1000) {
    const open = await trx
      .selectFrom("order_items")
      .innerJoin("orders", "orders.id", "order_items.orderId")
      .select("orders.id")
      .where("order_items.productId", "in", itemIds.slice(i, i + 1000))
      .where("orders.method", "=", "invoice")
      .where("orders.status", "in", ["pending", "invoiced"])
      .where("orders.lapsedAt", "is", null)
      .limit(1)
      .executeTakeFirst();
    if (open) return { reason: "alreadyInvoiced" };
  }
  if (guard && order.organisationId) {
    if (await hasOverdueInvoice(trx, order.organisationId, guard)) return { reason: "overdue" };
    const used = await itemsOnCredit(trx, order.organisationId, guard);
    if (used !== null && used + order.count > guard.creditItems) {
      return { reason: "creditLimit", used, max: guard.creditItems };
    }
  }
  return null;
}
