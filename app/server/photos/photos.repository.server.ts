/**
 * SQL of item photos (decision 035, migration 0031): photos, their variants and the bytes by
 * content hash. One query per function; the rules are in photos.service.server.ts.
 */
import { sql } from "kysely";
import type { DB } from "../db/db.server";
import { canManage } from "../access/item-access.repository.server";

export interface VariantRow {
  nominal: number;
  width: number;
  height: number;
  hash: string;
  size: number;
}

export interface PhotoRow {
  id: string;
  itemId: string;
  position: number;
  private: boolean;
  createdAt: number;
  variants: VariantRow[];
}

/** The photos of these items in their order, each with its variants (smallest first). */
export async function listPhotosOfItems(db: DB, itemIds: string[], publicOnly = false): Promise<PhotoRow[]> {
  if (itemIds.length === 0) return [];
  const out: PhotoRow[] = [];
  for (let i = 0; i < itemIds.length; i += 500) {
    let q = db
      .selectFrom("item_photos as p")
      .innerJoin("photo_variants as v", "v.photoId", "p.id")
      .select([
        "p.id",
        "p.itemId",
        "p.position",
        "p.private",
        "p.createdAt",
        "v.nominal",
        "v.width",
        "v.height",
        "v.hash",
        "v.size",
      ])
      .where("p.itemId", "in", itemIds.slice(i, i + 500));
    if (publicOnly) q = q.where("p.private", "=", 0);
    const rows = await q.orderBy("p.itemId").orderBy("p.position").orderBy("p.id").orderBy("v.nominal").execute();
    let current: PhotoRow | undefined;
    for (const r of rows) {
      if (current?.id !== r.id) {
        current = {
          id: r.id,
          itemId: r.itemId,
          position: Number(r.position),
          private: Number(r.private) === 1,
          createdAt: Number(r.createdAt),
          variants: [],
        };
        out.push(current);
      }
      current.variants.push({
        nominal: Number(r.nominal),
        width: Number(r.width),
        height: Number(r.height),
        hash: r.hash,
        size: Number(r.size),
      });
    }
  }
  return out;
}

/**
 * Takes the item's row lock (PostgreSQL; SQLite's write transactions are serial anyway) and
 * marks it changed, so its cached finder pages are rendered again on every instance.
 * False when the user may not manage the item.
 */
export async function lockManagedItem(db: DB, userId: string, itemId: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable("products")
    .set({ updatedAt: now })
    .where("id", "=", itemId)
    .where(canManage(userId))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The item's creator, whose storage its photos count against (the account bound). */
export async function countPhotosOfItem(db: DB, itemId: string): Promise<number> {
  const row = await db
    .selectFrom("item_photos")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("itemId", "=", itemId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Whose photo storage an item's photos count against (decision 050): an organisation
 * item's, the organisation's (whichever member or admin uploads); a personal item's, its owner's.
 */
export type StorageScope = { organisationId: string } | { ownerId: string };

export function storageScopeOf(item: { owner: string; organisationId: string | null }): StorageScope {
  return item.organisationId !== null ? { organisationId: item.organisationId } : { ownerId: item.owner };
}

/** The storage scope of an item the user may manage; undefined for anything else. */
export async function findManagedItemScope(db: DB, userId: string, itemId: string): Promise<StorageScope | undefined> {
  const row = await db
    .selectFrom("products")
    .select(["owner", "organisationId"])
    .where("id", "=", itemId)
    .where(canManage(userId))
    .executeTakeFirst();
  return row && storageScopeOf(row);
}

export async function findItemScope(db: DB, itemId: string): Promise<StorageScope | undefined> {
  const row = await db
    .selectFrom("products")
    .select(["owner", "organisationId"])
    .where("id", "=", itemId)
    .executeTakeFirst();
  return row && storageScopeOf(row);
}

/** Bytes of every variant of every photo on the scope's items. */
export async function storageUsedIn(db: DB, scope: StorageScope): Promise<number> {
  const row = await db
    .selectFrom("photo_variants as v")
    .innerJoin("item_photos as p", "p.id", "v.photoId")
    .innerJoin("products as i", "i.id", "p.itemId")
    .select(sql<number>`coalesce(sum(${sql.ref("v.size")}), 0)`.as("bytes"))
    .where((eb) =>
      "organisationId" in scope
        ? eb("i.organisationId", "=", scope.organisationId)
        : eb.and([eb("i.owner", "=", scope.ownerId), eb("i.organisationId", "is", null)]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

export async function nextPosition(db: DB, itemId: string): Promise<number> {
  const row = await db
    .selectFrom("item_photos")
    .select(sql<number>`coalesce(max(${sql.ref("position")}), -1)`.as("p"))
    .where("itemId", "=", itemId)
    .executeTakeFirstOrThrow();
  return Number(row.p) + 1;
}

export async function insertPhoto(
  db: DB,
  photo: { id: string; itemId: string; position: number; private: boolean; createdAt: number },
  variants: VariantRow[],
): Promise<void> {
  await db
    .insertInto("item_photos")
    .values({ ...photo, private: photo.private ? 1 : 0 })
    .execute();
  await db
    .insertInto("photo_variants")
    .values(variants.map((v) => ({ ...v, photoId: photo.id })))
    .execute();
}

/** Bytes by hash; a hash already stored is left as it is. `data` null: the bytes are in S3. */
export async function insertBlob(db: DB, blob: { hash: string; size: number; data: Buffer | null; createdAt: number }) {
  await db
    .insertInto("photo_blobs")
    .values(blob)
    .onConflict((oc) => oc.column("hash").doNothing())
    .execute();
}

/** A variant of a photo of this item, with whether the photo is private; undefined: none. */
export async function findVariantOfItem(db: DB, itemId: string, hash: string) {
  const row = await db
    .selectFrom("photo_variants as v")
    .innerJoin("item_photos as p", "p.id", "v.photoId")
    .select(["p.private", "v.size"])
    .where("p.itemId", "=", itemId)
    .where("v.hash", "=", hash)
    .orderBy("p.private")
    .executeTakeFirst();
  return row && { private: Number(row.private) === 1, size: Number(row.size) };
}

/** The stored bytes (null: in S3), or undefined when the hash is unknown. */
export async function readBlob(db: DB, hash: string): Promise<{ data: Buffer | null } | undefined> {
  const row = await db.selectFrom("photo_blobs").select("data").where("hash", "=", hash).executeTakeFirst();
  if (!row) return undefined;
  return { data: row.data === null ? null : Buffer.from(row.data) };
}

/** The hashes of a photo's variants, before the photo goes. */
export async function hashesOfPhoto(db: DB, photoId: string): Promise<string[]> {
  const rows = await db.selectFrom("photo_variants").select("hash").where("photoId", "=", photoId).execute();
  return rows.map((r) => r.hash);
}

/** The hashes of every photo of these items (their bytes may go when the items go). */
export async function hashesOfItems(db: DB, itemIds: string[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < itemIds.length; i += 500) {
    const rows = await db
      .selectFrom("photo_variants as v")
      .innerJoin("item_photos as p", "p.id", "v.photoId")
      .select("v.hash")
      .where("p.itemId", "in", itemIds.slice(i, i + 500))
      .execute();
    out.push(...rows.map((r) => r.hash));
  }
  return out;
}

/** The hashes of every photo of the items the user created. */
export async function hashesOfOwner(db: DB, ownerId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("photo_variants as v")
    .innerJoin("item_photos as p", "p.id", "v.photoId")
    .innerJoin("products as i", "i.id", "p.itemId")
    .select("v.hash")
    .where("i.owner", "=", ownerId)
    .execute();
  return rows.map((r) => r.hash);
}

export async function findPhotoOfItem(db: DB, itemId: string, photoId: string) {
  return db
    .selectFrom("item_photos")
    .selectAll()
    .where("itemId", "=", itemId)
    .where("id", "=", photoId)
    .executeTakeFirst();
}

export async function deletePhotoRow(db: DB, photoId: string): Promise<void> {
  await db.deleteFrom("item_photos").where("id", "=", photoId).execute();
}

export async function setPhotoPrivate(db: DB, photoId: string, isPrivate: boolean): Promise<void> {
  await db
    .updateTable("item_photos")
    .set({ private: isPrivate ? 1 : 0 })
    .where("id", "=", photoId)
    .execute();
}

/** The item's photo ids in their order. */
export async function listPhotoIdsOfItem(db: DB, itemId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("item_photos")
    .select("id")
    .where("itemId", "=", itemId)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}

export async function setPhotoPosition(db: DB, photoId: string, position: number): Promise<void> {
  await db.updateTable("item_photos").set({ position }).where("id", "=", photoId).execute();
}

/**
 * Of these hashes, the ones no variant uses any more: their rows deleted, answered with
 * whether the bytes are in S3 (to be deleted there by the caller).
 */
export async function deleteUnusedBlobs(db: DB, hashes: string[]): Promise<Array<{ hash: string; inS3: boolean }>> {
  const unique = [...new Set(hashes)];
  const out: Array<{ hash: string; inS3: boolean }> = [];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .deleteFrom("photo_blobs")
      .where("hash", "in", unique.slice(i, i + 500))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("photo_variants").select("photoId").whereRef("photo_variants.hash", "=", "photo_blobs.hash"),
          ),
        ),
      )
      .returning(["hash", sql<number>`case when ${sql.ref("data")} is null then 1 else 0 end`.as("inS3")])
      .execute();
    out.push(...rows.map((r) => ({ hash: r.hash, inS3: Number(r.inS3) === 1 })));
  }
  return out;
}

/** Hashes no variant uses, stored before `before` (the housekeeping sweep; uploads in flight are younger). */
export async function listOrphanBlobs(db: DB, before: number, limit = 500): Promise<string[]> {
  const rows = await db
    .selectFrom("photo_blobs")
    .select("hash")
    .where("createdAt", "<", before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom("photo_variants").select("photoId").whereRef("photo_variants.hash", "=", "photo_blobs.hash")),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => r.hash);
}

/** Photos per item (the CSV export's count). */
export async function countPhotosByItem(db: DB, itemIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < itemIds.length; i += 500) {
    const rows = await db
      .selectFrom("item_photos")
      .select(["itemId", (eb) => eb.fn.countAll<number>().as("n")])
      .where("itemId", "in", itemIds.slice(i, i + 500))
      .groupBy("itemId")
      .execute();
    for (const r of rows) out.set(r.itemId, Number(r.n));
  }
  return out;
}

/** The name of an item the user may manage; undefined for anything else. */
export async function findManagedItemName(db: DB, userId: string, itemId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("products")
    .select("name")
    .where("id", "=", itemId)
    .where(canManage(userId))
    .executeTakeFirst();
  return row?.name;
}
