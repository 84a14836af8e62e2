/**
 * SQL of the CSV import and export (issue #20 point 3): many items in one transaction,
 * a scope's items for the export, and the count of one import for its result page.
 * The same queries on SQLite and PostgreSQL.
 */
import type { Insertable } from "kysely";
import type { DB } from "../db/db.server";
import type { ProductTable } from "../db/schema";
import { toProduct, type Product } from "./items.repository.server";

/**
 * Rows per INSERT: 500 rows of 16 columns is 8,000 parameters, far under SQLite's 32,766
 * and PostgreSQL's 65,535, and few enough statements that 10,000 rows take well under a
 * second on either database.
 */
const INSERT_CHUNK = 500;

export type NewProduct = Omit<Product, "lostAt" | "lastScannedAt">;

/** All rows or none: one transaction, in chunks. */
export async function insertProducts(db: DB, rows: NewProduct[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const values: Insertable<ProductTable>[] = rows.slice(i, i + INSERT_CHUNK).map((r) => ({
        ...r,
        payed: r.payed ? 1 : 0,
        active: r.active ? 1 : 0,
        scanAlerts: r.scanAlerts ? 1 : 0,
      }));
      await trx.insertInto("products").values(values).execute();
    }
  });
}

/** Where an import or export looks: the user's own items. */
export interface ScopeFilter {
  owner: string;
}

/** The scope's items, oldest first (the order they were created or imported in). */
export async function listScopeProducts(db: DB, scope: ScopeFilter): Promise<(Product & { assignedEmail: null })[]> {
  const rows = await db
    .selectFrom("products")
    .selectAll()
    .where("owner", "=", scope.owner)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ ...toProduct(r), assignedEmail: null }));
}

/** How many of the scope's items one import made (they share their creation time). */
export async function countImported(db: DB, scope: ScopeFilter, createdAt: number): Promise<number> {
  const r = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("owner", "=", scope.owner)
    .where("createdAt", "=", createdAt)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
