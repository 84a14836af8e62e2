/**
 * SQL of the CSV import and export (decision 023): many items in one transaction,
 * a scope's items for the export, and the count of one import for its result page.
 * The same queries on SQLite and PostgreSQL.
 */
import type { ExpressionBuilder, Insertable } from "kysely";
import type { DB } from "../db/db.server";
import type { Database, ProductTable } from "../db/schema";
import { toItem, type Item } from "../access/items.repository.server";

/**
 * Rows per INSERT: 500 rows of 19 columns is 9,500 parameters, far under SQLite's 32,766
 * and PostgreSQL's 65,535, and few enough statements that 10,000 rows take well under a
 * second on either database.
 */
const INSERT_CHUNK = 500;

export type NewItem = Omit<Item, "lostAt" | "lastScannedAt">;

/** All rows or none: in chunks, in the caller's transaction (`trx`), with its sticker claims. */
export async function insertItems(trx: DB, rows: NewItem[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const values: Insertable<ProductTable>[] = rows.slice(i, i + INSERT_CHUNK).map((r) => ({
      ...r,
      payed: r.payed ? 1 : 0,
      active: r.active ? 1 : 0,
      scanAlerts: r.scanAlerts ? 1 : 0,
    }));
    await trx.insertInto("products").values(values).execute();
  }
}

/**
 * Where an import or export looks: the user's personal items (`owner`, not in an
 * organisation), or all items of one organisation, whoever created them.
 */
export type ScopeFilter = { owner: string; organisationId: null } | { organisationId: string };

function inScope(scope: ScopeFilter) {
  return (eb: ExpressionBuilder<Database, "products">) =>
    scope.organisationId === null
      ? eb.and([eb("products.owner", "=", scope.owner), eb("products.organisationId", "is", null)])
      : eb("products.organisationId", "=", scope.organisationId);
}

/** Where a page of the export ends: the next page starts after this item. */
export interface ExportCursor {
  createdAt: number;
  id: string;
}

/**
 * One page of the scope's items, oldest first (the order they were created or imported
 * in), after `after`, with the email of the member each is assigned to. The export reads
 * page after page (keyset, on the scope's index): a 50,000-item organisation is never in
 * memory at once (decision 042).
 */
export async function listScopeItemsPage(
  db: DB,
  scope: ScopeFilter,
  after: ExportCursor | null,
  limit: number,
): Promise<(Item & { assignedEmail: string | null })[]> {
  let query = db
    .selectFrom("products")
    .leftJoin("user", "user.id", "products.assignedTo")
    .selectAll("products")
    .select("user.email as assignedEmail")
    .where(inScope(scope));
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb("products.createdAt", ">", after.createdAt),
        eb.and([eb("products.createdAt", "=", after.createdAt), eb("products.id", ">", after.id)]),
      ]),
    );
  const rows = await query.orderBy("products.createdAt").orderBy("products.id").limit(limit).execute();
  return rows.map(({ assignedEmail, ...r }) => ({ ...toItem(r), assignedEmail: assignedEmail ?? null }));
}

/** How many of the scope's items one import made (they share their creation time). */
export async function countImported(db: DB, scope: ScopeFilter, createdAt: number): Promise<number> {
  const r = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where(inScope(scope))
    .where("products.createdAt", "=", createdAt)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
