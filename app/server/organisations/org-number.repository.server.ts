/**
 * One organisation per organisation number (decision 057): the same invoice country and
 * the same number, compared without spaces, dashes, dots and slashes ("HRB 12345" is
 * "HRB12345"; a Swedish number is stored canonical anyway). Checked in the transaction that
 * writes the organisation, under a lock on the number, instead of a unique index: databases
 * already hold duplicates, which no migration can merge.
 */
import { PostgresAdapter, sql } from "kysely";
import type { DB } from "../db/db.server";

/** The number as compared: upper case letters and digits only. */
export function orgNumberKey(orgNumber: string): string {
  return orgNumber.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/**
 * Serialises the writers of one number for the rest of the transaction: a transaction-level
 * advisory lock on PostgreSQL; SQLite runs one write transaction at a time anyway.
 */
export async function lockOrgNumber(trx: DB, country: string, orgNumber: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtext(${`org-number:${country}:${orgNumberKey(orgNumber)}`}))`.execute(
      trx,
    );
  }
}

/** Whether another organisation (not `exceptId`) has this number in this country. */
export async function orgNumberTaken(
  db: DB,
  country: string,
  orgNumber: string,
  exceptId: string | null = null,
): Promise<boolean> {
  // The stored number compacted as orgNumberKey does (the characters orgNumberFor lets through).
  const compact = sql<string>`upper(replace(replace(replace(replace(${sql.ref("orgNumber")}, ' ', ''), '-', ''), '.', ''), '/', ''))`;
  const row = await db
    .selectFrom("organisations")
    .select("id")
    .where("invoiceCountry", "=", country)
    .where(compact, "=", orgNumberKey(orgNumber))
    .$if(exceptId != null, (q) => q.where("id", "!=", exceptId!))
    .executeTakeFirst();
  return row != null;
}
