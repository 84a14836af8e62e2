/**
 * SQL for the products table: one query per function, the same on SQLite and PostgreSQL.
 * Rows are converted here (decision 004): 0/1 → boolean, text → the literal unions of
 * app/lib, so services never see `payed === 1`.
 */
import { sql, type Expression, type ExpressionBuilder, type Insertable, type Selectable, type SqlBool } from "kysely";
import type { ItemFilter } from "~/lib/domain/item-filter";
import { toCurrency, type Currency } from "~/lib/domain/currency";
import { toPeriod, type Period } from "~/lib/domain/pricing";
import { toItemType, type ItemType } from "~/lib/forms/product-form";
import { toContactVisibility, type ContactVisibility } from "~/lib/domain/relay";
import type { DB } from "../db/db.server";
import type { Database, ProductTable } from "../db/schema";
import { canManage, canManageInOrganisation } from "./item-access.repository.server";

export interface Item {
  id: string;
  /** The typeable sticker code, canonical form (app/lib/domain/sticker-code.ts). */
  code: string;
  owner: string;
  name: string;
  findFee: number;
  currency: Currency;
  prodType: ItemType;
  contactInfo: string;
  contactVisibility: ContactVisibility;
  payment: Period;
  payed: boolean;
  paidUntil: number | null;
  createdAt: number;
  updatedAt: number;
  /** False once the owner deactivated it (decision 017). */
  active: boolean;
  /** Mail the owner when the item is scanned (decision 014). */
  scanAlerts: boolean;
  /** Lost mode since (decision 014); null = not lost. */
  lostAt: number | null;
  lastScannedAt: number | null;
  /** The owner's approximate value (decision 019); private to the owner, never on the finder page. */
  approxValue: number | null;
  /** The organisation the item belongs to (decision 022); null = a personal item. */
  organisationId: string | null;
  /** The organisation member the item is assigned to; null = the organisation's own. */
  assignedTo: string | null;
}

export function toItem(row: Selectable<ProductTable>): Item {
  return {
    id: row.id,
    code: row.code,
    owner: row.owner,
    name: row.name,
    findFee: Number(row.findFee),
    currency: toCurrency(row.currency),
    prodType: toItemType(row.prodType),
    contactInfo: row.contactInfo,
    contactVisibility: toContactVisibility(row.contactVisibility),
    payment: toPeriod(row.payment),
    payed: Number(row.payed) === 1,
    paidUntil: row.paidUntil == null ? null : Number(row.paidUntil),
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
    active: Number(row.active) !== 0,
    scanAlerts: Number(row.scanAlerts) === 1,
    lostAt: row.lostAt == null ? null : Number(row.lostAt),
    lastScannedAt: row.lastScannedAt == null ? null : Number(row.lastScannedAt),
    approxValue: row.approxValue == null ? null : Number(row.approxValue),
    organisationId: row.organisationId ?? null,
    assignedTo: row.assignedTo ?? null,
  };
}

export function insertItem(
  db: DB,
  // Without contactVisibility the column's default applies: public, the spec's behaviour.
  row: Omit<
    Item,
    | "active"
    | "lostAt"
    | "lastScannedAt"
    | "scanAlerts"
    | "contactVisibility"
    | "approxValue"
    | "organisationId"
    | "assignedTo"
  > &
    Partial<Pick<Item, "contactVisibility" | "approxValue" | "organisationId" | "assignedTo">> & {
      active?: boolean;
      scanAlerts?: boolean;
    },
) {
  const values: Insertable<ProductTable> = {
    ...row,
    payed: row.payed ? 1 : 0,
    active: row.active === false ? 0 : 1,
    scanAlerts: row.scanAlerts ? 1 : 0,
  };
  return db.insertInto("products").values(values).execute();
}

export async function findItemById(db: DB, id: string): Promise<Item | undefined> {
  const row = await db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toItem(row);
}

/** The item, when the user may manage it (decision 026); undefined otherwise. */
export async function findManagedItem(db: DB, userId: string, id: string): Promise<Item | undefined> {
  const row = await db
    .selectFrom("products")
    .selectAll()
    .where("id", "=", id)
    .where(canManage(userId))
    .executeTakeFirst();
  return row && toItem(row);
}

export async function listItemsOfOwner(db: DB, owner: string): Promise<Item[]> {
  const rows = await db
    .selectFrom("products")
    .selectAll()
    .where("owner", "=", owner)
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toItem);
}

/** An organisation's desk items (its items assigned to nobody, decision 026), newest first. */
export async function listDeskItems(db: DB, organisationId: string, limit: number): Promise<Item[]> {
  const rows = await db
    .selectFrom("products")
    .selectAll()
    .where("organisationId", "=", organisationId)
    .where("assignedTo", "is", null)
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(toItem);
}

/** Updates the row only if the user may manage it; the number of rows changed tells. */
export async function updateManagedItem(
  db: DB,
  userId: string,
  id: string,
  changes: Partial<
    Pick<
      Item,
      | "name"
      | "findFee"
      | "prodType"
      | "contactInfo"
      | "contactVisibility"
      | "payment"
      | "updatedAt"
      | "scanAlerts"
      | "approxValue"
      | "assignedTo"
    >
  >,
): Promise<boolean> {
  const { scanAlerts, ...rest } = changes;
  const r = await db
    .updateTable("products")
    .set(scanAlerts === undefined ? rest : { ...rest, scanAlerts: scanAlerts ? 1 : 0 })
    .where("id", "=", id)
    .where(canManage(userId))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Deactivates or reactivates an item; false when the user may not manage it. */
export async function writeItemActive(db: DB, userId: string, id: string, active: boolean, now: number) {
  const r = await db
    .updateTable("products")
    .set({ active: active ? 1 : 0, updatedAt: now })
    .where("id", "=", id)
    .where(canManage(userId))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Deletes the owner's item (decision 017). Its finder conversations and their messages,
 * replacement stickers, retired sticker codes and order lines go with it (ON DELETE
 * CASCADE, migrations 0006–0010), its scans by the trigger of migration 0047; the order
 * itself keeps its count and totals.
 * False when the user may not manage it (nothing deleted).
 */
export async function deleteManagedItem(db: DB, userId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom("products").where("id", "=", id).where(canManage(userId)).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** What decides whether a stored finder page is still current (see item-page-cache.server.ts). */
export async function findItemVersion(
  db: DB,
  id: string,
): Promise<Pick<Item, "payed" | "paidUntil" | "updatedAt"> | undefined> {
  const row = await db
    .selectFrom("products")
    .select(["payed", "paidUntil", "updatedAt"])
    .where("id", "=", id)
    .executeTakeFirst();
  return (
    row && {
      payed: Number(row.payed) === 1,
      paidUntil: row.paidUntil == null ? null : Number(row.paidUntil),
      updatedAt: Number(row.updatedAt),
    }
  );
}

/**
 * The same for many items in one query (the finder-page cache's periodic check); items
 * that no longer exist are missing from the map.
 */
export async function findItemVersions(
  db: DB,
  ids: string[],
): Promise<Map<string, Pick<Item, "payed" | "paidUntil" | "updatedAt">>> {
  const out = new Map<string, Pick<Item, "payed" | "paidUntil" | "updatedAt">>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom("products")
    .select(["id", "payed", "paidUntil", "updatedAt"])
    .where("id", "in", ids)
    .execute();
  for (const row of rows) {
    out.set(row.id, {
      payed: Number(row.payed) === 1,
      paidUntil: row.paidUntil == null ? null : Number(row.paidUntil),
      updatedAt: Number(row.updatedAt),
    });
  }
  return out;
}

/** Whether an item (or a retired sticker) already has this id or this code. */
export async function idOrCodeTaken(db: DB, id: string, code: string): Promise<boolean> {
  const [item, retired, sticker] = await Promise.all([
    db
      .selectFrom("products")
      .select("id")
      .where((eb) => eb.or([eb("id", "=", id), eb("code", "=", code)]))
      .executeTakeFirst(),
    db
      .selectFrom("retired_stickers")
      .select("id")
      .where((eb) => eb.or([eb("id", "=", id), eb("code", "=", code)]))
      .executeTakeFirst(),
    db
      .selectFrom("stickers")
      .select("id")
      .where((eb) => eb.or([eb("id", "=", id), eb("code", "=", code)]))
      .executeTakeFirst(),
  ]);
  return item !== undefined || retired !== undefined || sticker !== undefined;
}

/**
 * The filter of the dashboard and the order page as SQL (decision 021). "Paid" is
 * app/lib/domain/paid.ts's rule: payed and the paid period not ended (no end = no end). The name
 * search is a case-insensitive substring of `nameFolded`, lower(name) kept by the database
 * (migration 0046; lower() folds every letter on both databases: db.server.ts gives SQLite
 * JavaScript's); % and _ in the text are matched literally.
 */
/**
 * Whose items a list shows: the user's personal items (organisationId null), or the items
 * of one organisation the user may manage (decision 026: an admin all of them,
 * a member those assigned to them).
 */
export interface ItemListScope {
  owner: string;
  organisationId: string | null;
}

/** The items of the scope the user may manage (canManage, written for the index that serves it). */
function whereScope(scope: ItemListScope) {
  return (eb: ExpressionBuilder<Database, "products">) =>
    // The personal scope is canManage's first case written out, so the owner index
    // (products_owner_idx) serves it; an organisation's scope narrows by its index first.
    scope.organisationId === null
      ? eb.and([eb("owner", "=", scope.owner), eb("organisationId", "is", null)])
      : eb.and([
          eb("organisationId", "=", scope.organisationId),
          canManageInOrganisation(scope.owner, scope.organisationId),
        ]);
}

/** The filter's conditions alone (without the scope); an empty filter is `true`. */
function whereOnlyFilter(filter: ItemFilter, now: number) {
  return (eb: ExpressionBuilder<Database, "products">) => {
    const parts: Expression<SqlBool>[] = [];
    if (filter.type) parts.push(eb("prodType", "=", filter.type));
    if (filter.lost) parts.push(eb("lostAt", "is not", null));
    const paid = eb.and([eb("payed", "=", 1), eb.or([eb("paidUntil", "is", null), eb("paidUntil", ">", now)])]);
    if (filter.paid === "paid") parts.push(paid);
    if (filter.paid === "unpaid") parts.push(eb.not(paid));
    if (filter.q) {
      const pattern = `%${filter.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      parts.push(eb("nameFolded", "like", sql<string>`${pattern} escape '\\'`));
    }
    return eb.and(parts);
  };
}

function whereFilter(scope: ItemListScope, filter: ItemFilter, now: number) {
  return (eb: ExpressionBuilder<Database, "products">) =>
    eb.and([whereScope(scope)(eb), whereOnlyFilter(filter, now)(eb)]);
}

/**
 * One page of the owner's items matching the filter, newest first. The page's ids first,
 * then their rows: an organisation's filter and search are answered from its covering
 * index alone (migration 0046), so only the page's rows are read from the table, not
 * every row the filter looked at (decision 042).
 */
export async function listItemsOfOwnerPage(
  db: DB,
  owner: ItemListScope,
  filter: ItemFilter,
  now: number,
  page: { limit: number; offset: number },
): Promise<Item[]> {
  const ids = db
    .selectFrom("products")
    .select(["id", "createdAt"])
    .where(whereFilter(owner, filter, now))
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .limit(page.limit)
    .offset(page.offset)
    .as("page");
  const rows = await db
    .selectFrom(ids)
    .innerJoin("products", "products.id", "page.id")
    .selectAll("products")
    .orderBy("page.createdAt", "desc")
    .orderBy("page.id")
    .execute();
  return rows.map(toItem);
}

/** How many of the owner's items match the filter (all pages). */
export async function countItemsOfOwner(
  db: DB,
  owner: ItemListScope,
  filter: ItemFilter,
  now: number,
): Promise<number> {
  const r = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where(whereFilter(owner, filter, now))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Several counts of the scope's items in one pass (the dashboard's and the order page's
 * "matching", "all" and "unpaid"): one read of the items instead of one per count.
 */
export async function countItemsOfOwnerBy<K extends string>(
  db: DB,
  owner: ItemListScope,
  filters: Record<K, ItemFilter>,
  now: number,
): Promise<Record<K, number>> {
  const keys = Object.keys(filters) as K[];
  const r = await db
    .selectFrom("products")
    .select((eb) =>
      keys.map((k, i) =>
        eb.fn.countAll<number | string>().filterWhere(whereOnlyFilter(filters[k], now)(eb)).as(`c${i}`),
      ),
    )
    .where(whereScope(owner))
    .executeTakeFirstOrThrow();
  const row = r as Record<string, number | string>;
  return Object.fromEntries(keys.map((k, i) => [k, Number(row[`c${i}`])])) as Record<K, number>;
}

/** The ids of the owner's items matching the filter (the order page's "all unpaid"). */
export async function listFilteredItemIds(
  db: DB,
  owner: ItemListScope,
  filter: ItemFilter,
  now: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom("products")
    .select("id")
    .where(whereFilter(owner, filter, now))
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}

/**
 * A page of the scope's items matching the filter after a position (the REST API's cursor,
 * decision 054): newest first as the dashboard, then by id; `after` is the last item of the
 * previous page. Keyset, not offset, so a page stays cheap however deep, and an item added
 * meanwhile does not shift the next page.
 */
export async function listItemsOfScopeAfter(
  db: DB,
  scope: ItemListScope,
  filter: ItemFilter,
  now: number,
  after: { createdAt: number; id: string } | null,
  limit: number,
): Promise<Item[]> {
  let q = db
    .selectFrom("products")
    .selectAll()
    .where(whereFilter(scope, filter, now));
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb("createdAt", "<", after.createdAt),
        eb.and([eb("createdAt", "=", after.createdAt), eb("id", ">", after.id)]),
      ]),
    );
  }
  const rows = await q.orderBy("createdAt", "desc").orderBy("id").limit(limit).execute();
  return rows.map(toItem);
}
