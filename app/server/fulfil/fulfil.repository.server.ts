/**
 * SQL for sticker fulfilment (decision 015): the staff queue over order shipments and
 * replacement shipments, marking them shipped, typeable-code lookups, replacements and
 * retired stickers. One query per function, the same on SQLite and PostgreSQL.
 */
import { sql } from "kysely";
import type { Lang } from "~/i18n/config";
import { isLang } from "~/i18n/config";
import { parseStoredAddress, type Address } from "~/lib/domain/address";
import { readBool, type DB } from "../db/db.server";

/** dropped: an order shipment never to be posted, its account deleted (decision 051). */
export type ShipmentStatus = "pending" | "shipped" | "dropped";
export type ShipmentKind = "order" | "replacement";
export type ReplacementMode = "reprint" | "newCode";

export function toShipmentStatus(v: string): ShipmentStatus {
  return v === "shipped" || v === "dropped" ? v : "pending";
}

export function toReplacementMode(v: string): ReplacementMode {
  return v === "newCode" ? "newCode" : "reprint";
}

export interface ShipmentRow {
  id: string;
  kind: ShipmentKind;
  orderId: string | null;
  /** Replacement shipments: the item. */
  productId: string | null;
  mode: ReplacementMode | null;
  userId: string;
  ownerName: string;
  ownerEmail: string;
  ownerEmailVerified: boolean;
  /** The owner's language for stickers and mail: their saved one, else the order's, else English. */
  lang: Lang;
  address: Address | null;
  /** The order's package: 1 (single) or 3 (tripple); null for a replacement. */
  count: number | null;
  status: ShipmentStatus;
  createdAt: number;
  shippedAt: number | null;
  shippedBy: string | null;
  trackingNumber: string | null;
  /** Dropped from the queue (decision 051): when, and why ("accountDeleted"). */
  droppedAt: number | null;
  note: string | null;
}

const num = (v: unknown) => (v == null ? null : Number(v));
const langOf = (user: string | null, order: string | null): Lang =>
  isLang(user) ? user : isLang(order) ? order : "en";

function orderShipments(db: DB) {
  return db
    .selectFrom("sticker_shipments as s")
    .innerJoin("orders as o", "o.id", "s.orderId")
    .innerJoin("user as u", "u.id", "s.userId")
    .select([
      "s.id",
      "s.orderId",
      "s.userId",
      "s.adress",
      "s.status",
      "s.createdAt",
      "s.shippedAt",
      "s.shippedBy",
      "s.trackingNumber",
      "s.droppedAt",
      "s.note",
      "o.count",
      "o.lang as orderLang",
      "u.name as ownerName",
      "u.email as ownerEmail",
      "u.emailVerified as ownerEmailVerified",
      "u.language as userLang",
    ]);
}

function replacementShipments(db: DB) {
  return db
    .selectFrom("sticker_replacements as r")
    .leftJoin("orders as o", "o.id", "r.orderId")
    .innerJoin("user as u", "u.id", "r.userId")
    .select([
      "r.id",
      "r.orderId",
      "r.productId",
      "r.mode",
      "r.userId",
      "r.adress",
      "r.status",
      "r.createdAt",
      "r.shippedAt",
      "r.shippedBy",
      "r.trackingNumber",
      "o.lang as orderLang",
      "u.name as ownerName",
      "u.email as ownerEmail",
      "u.emailVerified as ownerEmailVerified",
      "u.language as userLang",
    ]);
}

type OrderShipmentSelect = Awaited<ReturnType<ReturnType<typeof orderShipments>["execute"]>>[number];
type ReplacementSelect = Awaited<ReturnType<ReturnType<typeof replacementShipments>["execute"]>>[number];

function fromOrderShipment(r: OrderShipmentSelect): ShipmentRow {
  return {
    id: r.id,
    kind: "order",
    orderId: r.orderId,
    productId: null,
    mode: null,
    userId: r.userId,
    ownerName: r.ownerName,
    ownerEmail: r.ownerEmail,
    ownerEmailVerified: readBool(r.ownerEmailVerified),
    lang: langOf(r.userLang, r.orderLang),
    address: parseStoredAddress(r.adress),
    count: Number(r.count),
    status: toShipmentStatus(r.status),
    createdAt: Number(r.createdAt),
    shippedAt: num(r.shippedAt),
    shippedBy: r.shippedBy,
    trackingNumber: r.trackingNumber,
    droppedAt: num(r.droppedAt),
    note: r.note,
  };
}

function fromReplacement(r: ReplacementSelect): ShipmentRow {
  return {
    id: r.id,
    kind: "replacement",
    orderId: r.orderId,
    productId: r.productId,
    mode: toReplacementMode(r.mode),
    userId: r.userId,
    ownerName: r.ownerName,
    ownerEmail: r.ownerEmail,
    ownerEmailVerified: readBool(r.ownerEmailVerified),
    lang: langOf(r.userLang, r.orderLang ?? null),
    address: parseStoredAddress(r.adress),
    count: null,
    status: toShipmentStatus(r.status),
    createdAt: Number(r.createdAt),
    shippedAt: num(r.shippedAt),
    shippedBy: r.shippedBy,
    trackingNumber: r.trackingNumber,
    // A replacement goes with the deleted account's own records (deleteReplacements).
    droppedAt: null,
    note: null,
  };
}

/**
 * Shipments with `status`, both kinds. Pending: oldest first (the queue's order of work);
 * shipped: most recently shipped first. Capped at `limit`.
 */
export async function listShipmentsByStatus(db: DB, status: ShipmentStatus, limit: number): Promise<ShipmentRow[]> {
  const pending = status === "pending";
  const [orders, replacements] = await Promise.all([
    orderShipments(db)
      .where("s.status", "=", status)
      .orderBy(pending ? "s.createdAt" : status === "dropped" ? "s.droppedAt" : "s.shippedAt", pending ? "asc" : "desc")
      .orderBy("s.id")
      .limit(limit)
      .execute(),
    replacementShipments(db)
      .where("r.status", "=", status)
      .orderBy(pending ? "r.createdAt" : "r.shippedAt", pending ? "asc" : "desc")
      .orderBy("r.id")
      .limit(limit)
      .execute(),
  ]);
  const rows = [...orders.map(fromOrderShipment), ...replacements.map(fromReplacement)];
  const latest = (r: ShipmentRow) => r.droppedAt ?? r.shippedAt ?? 0;
  rows.sort((a, b) =>
    pending ? a.createdAt - b.createdAt || a.id.localeCompare(b.id) : latest(b) - latest(a) || a.id.localeCompare(b.id),
  );
  return rows.slice(0, limit);
}

export async function countShipmentsByStatus(db: DB, status: ShipmentStatus): Promise<number> {
  const [a, b] = await Promise.all([
    db
      .selectFrom("sticker_shipments")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("status", "=", status)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("sticker_replacements")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("status", "=", status)
      .executeTakeFirstOrThrow(),
  ]);
  return Number(a.n) + Number(b.n);
}

/** Shipments by id, and the order shipments of the given order ids. */
export async function findShipments(db: DB, ids: string[], orderIds: string[]): Promise<ShipmentRow[]> {
  const [orders, replacements] = await Promise.all([
    ids.length + orderIds.length === 0
      ? []
      : orderShipments(db)
          .where((eb) =>
            eb.or([
              ...(ids.length ? [eb("s.id", "in", ids)] : []),
              ...(orderIds.length ? [eb("s.orderId", "in", orderIds)] : []),
            ]),
          )
          .execute(),
    ids.length === 0 ? [] : replacementShipments(db).where("r.id", "in", ids).execute(),
  ]);
  const rows = [...orders.map(fromOrderShipment), ...replacements.map(fromReplacement)];
  rows.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  return rows;
}

export interface StickerItem {
  id: string;
  code: string;
  name: string;
}

/** The items on each order (order id → items), oldest item first. */
export async function listOrderItems(db: DB, orderIds: string[]): Promise<Map<string, StickerItem[]>> {
  const out = new Map<string, StickerItem[]>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .selectFrom("order_items")
    .innerJoin("products", "products.id", "order_items.productId")
    .select(["order_items.orderId", "products.id", "products.code", "products.name"])
    .where("order_items.orderId", "in", orderIds)
    .orderBy("products.createdAt")
    .orderBy("products.id")
    .execute();
  for (const r of rows) {
    const list = out.get(r.orderId) ?? [];
    list.push({ id: r.id, code: r.code, name: r.name });
    out.set(r.orderId, list);
  }
  return out;
}

export async function listItemsById(db: DB, ids: string[]): Promise<Map<string, StickerItem>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("products").select(["id", "code", "name"]).where("id", "in", ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Marks the pending ones of `ids` shipped; returns the ids that changed. The status
 * condition makes a repeated or concurrent submit change (and mail) nothing twice.
 */
export async function markShipmentsShipped(
  db: DB,
  ids: string[],
  by: string,
  trackingNumber: string | null,
  now: number,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const changes = { status: "shipped", shippedAt: now, shippedBy: by, trackingNumber };
  const [a, b] = await Promise.all([
    db
      .updateTable("sticker_shipments")
      .set(changes)
      .where("id", "in", ids)
      .where("status", "=", "pending")
      .returning("id")
      .execute(),
    db
      .updateTable("sticker_replacements")
      .set(changes)
      .where("id", "in", ids)
      .where("status", "=", "pending")
      .returning("id")
      .execute(),
  ]);
  return [...a, ...b].map((r) => r.id);
}

/** The owner's shipments, newest first, for the dashboard. */
export async function listShipmentsOfUser(db: DB, userId: string, limit: number): Promise<ShipmentRow[]> {
  const [orders, replacements] = await Promise.all([
    orderShipments(db).where("s.userId", "=", userId).orderBy("s.createdAt", "desc").limit(limit).execute(),
    replacementShipments(db).where("r.userId", "=", userId).orderBy("r.createdAt", "desc").limit(limit).execute(),
  ]);
  const rows = [...orders.map(fromOrderShipment), ...replacements.map(fromReplacement)];
  rows.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
  return rows.slice(0, limit);
}

/** The item with this typeable code, or the current id of a retired one. */
export async function findByCode(
  db: DB,
  code: string,
): Promise<{ kind: "item"; id: string } | { kind: "retired"; id: string } | null> {
  const item = await db.selectFrom("products").select("id").where("code", "=", code).executeTakeFirst();
  if (item) return { kind: "item", id: item.id };
  const retired = await db.selectFrom("retired_stickers").select("id").where("code", "=", code).executeTakeFirst();
  return retired ? { kind: "retired", id: retired.id } : null;
}

export async function isRetiredStickerId(db: DB, id: string): Promise<boolean> {
  const row = await db.selectFrom("retired_stickers").select("id").where("id", "=", id).executeTakeFirst();
  return row !== undefined;
}

/** The last replacement of the item created at or after `since`, if any. */
export async function findReplacementSince(db: DB, itemId: string, since: number) {
  const row = await db
    .selectFrom("sticker_replacements")
    .select(["id", "createdAt"])
    .where("productId", "=", itemId)
    .where("createdAt", ">=", since)
    .orderBy("createdAt", "desc")
    .executeTakeFirst();
  return row && { id: row.id, createdAt: Number(row.createdAt) };
}

/** The latest paid order that covers the item (its address is where a replacement goes). */
export async function findLatestPaidOrderOfItem(db: DB, itemId: string) {
  const row = await db
    .selectFrom("order_items")
    .innerJoin("orders", "orders.id", "order_items.orderId")
    .select(["orders.id", "orders.adress"])
    .where("order_items.productId", "=", itemId)
    .where("orders.paidAt", "is not", null)
    .orderBy("orders.paidAt", "desc")
    .executeTakeFirst();
  return row && { id: row.id, address: parseStoredAddress(row.adress) };
}

export function insertReplacement(
  db: DB,
  row: {
    id: string;
    productId: string;
    userId: string;
    orderId: string | null;
    address: Address | null;
    mode: ReplacementMode;
    createdAt: number;
  },
) {
  const { address, ...rest } = row;
  return db
    .insertInto("sticker_replacements")
    .values({
      ...rest,
      adress: JSON.stringify(address),
      status: "pending",
      shippedAt: null,
      shippedBy: null,
      trackingNumber: null,
    })
    .execute();
}

/**
 * Takes the item's row lock until the transaction ends (a write that changes nothing);
 * false when there is no such item.
 */
export async function lockItem(trx: DB, id: string): Promise<boolean> {
  const r = await trx
    .updateTable("products")
    .set({ owner: sql<string>`"owner"` })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * A replaced item's sticker record follows its new id (moveItemToNewId). Here, not in the
 * stickers' repository: the stickers call moveItemToNewId, so fulfil never imports them
 * (decision 053).
 */
async function moveStickerOfItem(trx: DB, oldId: string, newId: string): Promise<void> {
  await trx.updateTable("stickers").set({ productId: newId }).where("productId", "=", oldId).execute();
}

/**
 * Gives the item `newId` and `newCode` (a new sticker): a copy of the row under the new
 * id, every reference moved to it, the old id and code kept as a retired sticker, the old
 * row deleted. Insert-then-delete rather than updating the primary key, because the
 * references have no ON UPDATE CASCADE. A table that references products.id must be
 * moved here too (docs/decisions/015-sticker-fulfilment.md), and so must `item_scans`,
 * whose rows name an item without a foreign key (migration 0047): the old row's deletion
 * would delete the scans not moved.
 */
export async function moveItemToNewId(
  trx: DB,
  oldId: string,
  newId: string,
  newCode: string,
  now: number,
): Promise<void> {
  // nameFolded is the database's to compute (migration 0046): never written.
  const { nameFolded: _folded, ...row } = await trx
    .selectFrom("products")
    .selectAll()
    .where("id", "=", oldId)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("products")
    .values({ ...row, id: newId, code: `~${newId}`, updatedAt: now })
    .execute();
  await trx.updateTable("order_items").set({ productId: newId }).where("productId", "=", oldId).execute();
  await trx.updateTable("order_drafts").set({ buy: newId }).where("buy", "=", oldId).execute();
  await trx.updateTable("sticker_replacements").set({ productId: newId }).where("productId", "=", oldId).execute();
  await trx.updateTable("retired_stickers").set({ productId: newId }).where("productId", "=", oldId).execute();
  // The item's scan log and finder conversations (decision 014) stay with it.
  await trx.updateTable("item_scans").set({ productId: newId }).where("productId", "=", oldId).execute();
  await trx.updateTable("conversations").set({ itemId: newId }).where("itemId", "=", oldId).execute();
  await trx.updateTable("relay_digests").set({ itemId: newId }).where("itemId", "=", oldId).execute();
  // Its photos too (decision 035); their URLs name the item, so they change with it.
  await trx.updateTable("item_photos").set({ itemId: newId }).where("itemId", "=", oldId).execute();
  // The claimed sticker it came from (decision 036): its prepaid record stays with it.
  await moveStickerOfItem(trx, oldId, newId);
  await trx.deleteFrom("products").where("id", "=", oldId).execute();
  await trx.updateTable("products").set({ code: newCode }).where("id", "=", newId).execute();
  await trx
    .insertInto("retired_stickers")
    .values({ id: oldId, code: row.code, productId: newId, retiredAt: now })
    .execute();
}
