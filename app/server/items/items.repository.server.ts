/** SQL for the products table: one query per method, the same on SQLite and PostgreSQL. */
import type { Insertable, Selectable } from "kysely";
import type { DB } from "../db/db.server";
import type { ProductTable } from "../db/schema";

export type ProductRow = Selectable<ProductTable>;

export function insertProduct(db: DB, row: Insertable<ProductTable>) {
  return db.insertInto("products").values(row).execute();
}

export function findProductById(db: DB, id: string): Promise<ProductRow | undefined> {
  return db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
}

export function findProductOfOwner(db: DB, owner: string, id: string): Promise<ProductRow | undefined> {
  return db.selectFrom("products").selectAll().where("id", "=", id).where("owner", "=", owner).executeTakeFirst();
}

export function listProductsOfOwner(db: DB, owner: string): Promise<ProductRow[]> {
  return db
    .selectFrom("products")
    .selectAll()
    .where("owner", "=", owner)
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .execute();
}

/** Updates only the owner's row; the number of rows changed tells whether it was theirs. */
export async function updateProductOfOwner(
  db: DB,
  owner: string,
  id: string,
  changes: Partial<Pick<ProductRow, "name" | "findFee" | "prodType" | "contactInfo" | "payment" | "updatedAt">>,
): Promise<boolean> {
  const r = await db
    .updateTable("products")
    .set(changes)
    .where("id", "=", id)
    .where("owner", "=", owner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** What decides whether a stored finder page is still current (see item-page-cache.server.ts). */
export function findProductVersion(
  db: DB,
  id: string,
): Promise<Pick<ProductRow, "payed" | "paidUntil" | "updatedAt"> | undefined> {
  return db.selectFrom("products").select(["payed", "paidUntil", "updatedAt"]).where("id", "=", id).executeTakeFirst();
}
