/** SQL of the staff look-up (decision 030). One query per function. */
import type { DB } from "../db/db.server";

export interface LookedUpItem {
  id: string;
  code: string;
  name: string;
  contactInfo: string;
  paidUntil: number | null;
  payed: boolean;
  active: boolean;
  lostAt: number | null;
  ownerName: string;
  ownerEmail: string;
  organisationName: string | null;
  deskContact: string | null;
}

/** The item with this id, with its owner's account and its organisation, if any. */
export async function findItemForStaff(db: DB, id: string): Promise<LookedUpItem | null> {
  const row = await db
    .selectFrom("products")
    .innerJoin("user", "user.id", "products.owner")
    .leftJoin("organisations", "organisations.id", "products.organisationId")
    .select([
      "products.id",
      "products.code",
      "products.name",
      "products.contactInfo",
      "products.paidUntil",
      "products.payed",
      "products.active",
      "products.lostAt",
      "user.name as ownerName",
      "user.email as ownerEmail",
      "organisations.name as organisationName",
      "organisations.deskContact",
    ])
    .where("products.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    ...row,
    paidUntil: row.paidUntil === null ? null : Number(row.paidUntil),
    lostAt: row.lostAt === null ? null : Number(row.lostAt),
    payed: Number(row.payed) === 1,
    active: Number(row.active) === 1,
  };
}

/** The id of the item whose sticker (current or replaced) carries this code. */
export async function findItemIdByCode(db: DB, code: string): Promise<string | null> {
  const item = await db.selectFrom("products").select("id").where("code", "=", code).executeTakeFirst();
  if (item) return item.id;
  const retired = await db
    .selectFrom("retired_stickers")
    .select("productId")
    .where("code", "=", code)
    .executeTakeFirst();
  return retired?.productId ?? null;
}

/** The id of the item, also when `id` is the short URL of a replaced sticker. */
export async function findItemIdById(db: DB, id: string): Promise<string | null> {
  const item = await db.selectFrom("products").select("id").where("id", "=", id).executeTakeFirst();
  if (item) return item.id;
  const retired = await db.selectFrom("retired_stickers").select("productId").where("id", "=", id).executeTakeFirst();
  return retired?.productId ?? null;
}

export interface LookupLogRow {
  id: string;
  staffId: string;
  staffEmail: string;
  query: string;
  productId: string | null;
  lookedUpAt: number;
}

export async function insertLookup(db: DB, row: LookupLogRow): Promise<void> {
  await db.insertInto("admin_lookups").values(row).execute();
}

/** The latest look-ups, newest first. */
export async function listLookups(db: DB, limit: number): Promise<LookupLogRow[]> {
  const rows = await db
    .selectFrom("admin_lookups")
    .selectAll()
    .orderBy("lookedUpAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, lookedUpAt: Number(r.lookedUpAt) }));
}

/** A staff member's own look-ups, oldest first (their data export). */
export async function listLookupsByStaff(db: DB, staffId: string): Promise<LookupLogRow[]> {
  const rows = await db
    .selectFrom("admin_lookups")
    .selectAll()
    .where("staffId", "=", staffId)
    .orderBy("lookedUpAt")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ ...r, lookedUpAt: Number(r.lookedUpAt) }));
}

/** Look-ups logged before `before` (past their retention). */
export async function deleteLookupsBefore(db: DB, before: number): Promise<number> {
  const r = await db.deleteFrom("admin_lookups").where("lookedUpAt", "<", before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
