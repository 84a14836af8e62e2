/**
 * THE access rule for items (decision 026): "may this user manage this
 * item". Every item check (edit, delete, lost mode, QR, replacement, scans, relay threads,
 * paying, the scoped lists) goes through `canManage`, as SQL, so a list, a lookup and a
 * conditional UPDATE all ask the same question in the same statement:
 *
 * - a personal item (`organisationId` null): its owner;
 * - an organisation item: the organisation's admins (every item of it) and the member it
 *   is assigned to — both read from `organisation_members` at that moment, so an
 *   ex-member loses access with the same statement that ends the membership.
 *
 * `products.owner` is who created the item (and pays for it when they order it); for an
 * organisation item it grants nothing by itself.
 *
 * The bottom layer of the features (decision 053): every feature may import this module,
 * and it imports none.
 */
import { sql, type Expression, type SqlBool } from "kysely";
import { readBool, type DB } from "../db/db.server";

/**
 * The rule as a WHERE condition on a products row. `table`: the alias the query gives the
 * products table ("products" or "p").
 */
export function canManage(userId: string, table: "products" | "p" = "products"): Expression<SqlBool> {
  const col = (c: "organisationId" | "owner" | "assignedTo") => sql.ref(`${table}.${c}`);
  return sql<SqlBool>`((${col("organisationId")} is null and ${col("owner")} = ${userId}) or exists (select 1 from ${sql.table("organisation_members")} as ${sql.id("acc")} where ${sql.ref("acc.organisationId")} = ${col("organisationId")} and ${sql.ref("acc.userId")} = ${userId} and (${sql.ref("acc.role")} = 'admin' or ${col("assignedTo")} = ${userId})))`;
}

/**
 * The same rule for the items of one known organisation (the scoped lists, where the query
 * also says `products.organisationId = organisationId`): its admins, and the member an item
 * is assigned to. Written without a reference to the row inside the membership lookups, so
 * the database reads the membership once per query instead of once per item (50,000 for a
 * large organisation's admin; decision 042).
 */
export function canManageInOrganisation(userId: string, organisationId: string): Expression<SqlBool> {
  const membership = (adminOnly: boolean) =>
    sql<SqlBool>`exists (select 1 from ${sql.table("organisation_members")} as ${sql.id("acc")} where ${sql.ref("acc.organisationId")} = ${organisationId} and ${sql.ref("acc.userId")} = ${userId}${adminOnly ? sql` and ${sql.ref("acc.role")} = 'admin'` : sql``})`;
  return sql<SqlBool>`(${membership(true)} or (${sql.ref("products.assignedTo")} = ${userId} and ${membership(false)}))`;
}

/** Whether the user may manage the item (false: no such item, or not theirs to manage). */
export async function mayManageItem(db: DB, userId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom("products")
    .select("id")
    .where("id", "=", id)
    .where(canManage(userId))
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of these items the user may manage (a page that names items shows only these). */
export async function listManagedIds(db: DB, userId: string, ids: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .selectFrom("products")
      .select("id")
      .where("id", "in", ids.slice(i, i + 1000))
      .where(canManage(userId))
      .execute();
    for (const r of rows) out.add(r.id);
  }
  return out;
}

/**
 * Everyone who hears about an organisation item: its assigned member (while a member) and
 * every admin of the organisation (the lost-and-found desk). Empty for a personal item.
 * One row per person, so someone who is both gets one mail.
 */
export async function listItemManagers(db: DB, id: string): Promise<string[]> {
  const rows = await db
    .selectFrom("products as p")
    .innerJoin("organisation_members as m", "m.organisationId", "p.organisationId")
    .select("m.userId")
    .distinct()
    .where("p.id", "=", id)
    .where((eb) => eb.or([eb("m.role", "=", "admin"), eb("m.userId", "=", eb.ref("p.assignedTo"))]))
    .orderBy("m.userId")
    .execute();
  return rows.map((r) => r.userId);
}

/** Who paid for the item (orders covering it): their renewals stop when it is deleted. */
export async function listPayersOfItem(db: DB, id: string): Promise<string[]> {
  const rows = await db
    .selectFrom("orders")
    .innerJoin("order_items", "order_items.orderId", "orders.id")
    .select("orders.userId")
    .distinct()
    .where("order_items.productId", "=", id)
    .execute();
  return rows.map((r) => r.userId);
}

/**
 * Who hears about an item (relay mails, scan alerts, lost-mode notices): the owner of a
 * personal item; for an organisation item its managers (listItemManagers), never its
 * creator as such. Empty when there is no such item.
 */
export async function listItemRecipients(db: DB, id: string): Promise<string[]> {
  const item = await db
    .selectFrom("products")
    .select(["owner", "organisationId"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!item) return [];
  return item.organisationId == null ? [item.owner] : listItemManagers(db, id);
}

/**
 * Whether anyone who manages the item can be reached at all (a verified address or
 * number): a throttled alert is not claimed for nobody (an owner who verifies their
 * address later gets the next one). Asked by the scans before they announce a scan
 * (decision 053), so it lives here rather than in the alerts.
 */
export async function hasReachableRecipient(db: DB, itemId: string): Promise<boolean> {
  for (const userId of await listItemRecipients(db, itemId)) {
    const user = await db.selectFrom("user").select("emailVerified").where("id", "=", userId).executeTakeFirst();
    if (user && readBool(user.emailVerified)) return true;
    const phone = await db
      .selectFrom("user_phones")
      .select(["phone", "verifiedAt"])
      .where("userId", "=", userId)
      .executeTakeFirst();
    if (phone?.phone && phone.verifiedAt !== null) return true;
  }
  return false;
}
