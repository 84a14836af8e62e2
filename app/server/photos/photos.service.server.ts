/**
 * Rules of item photos (decision 035). No HTTP here (decision 011).
 *
 * Upload is two steps so that a refused photo costs the owner nothing they typed: the
 * route first calls `preparePhotos` (content checks, processing; nothing stored), saves the
 * item, then `attachPhotos` (stores, under the item's lock, with the per-item count and the
 * storage bound of the item's scope checked again). Each file was counted against the
 * upload limit as it arrived (`countPhotoUpload`, from the upload intake, decision 050).
 */
import { randomId } from "~/lib/domain/ids";
import { MAX_PHOTOS_PER_ITEM, photoUrl, type PhotoView } from "~/lib/domain/photos";
import type { Deps } from "../service-deps.server";
import { mayManageItem } from "../access/item-access.repository.server";
import { rateLimits, type RateRule } from "../rate-limit/rate-limit.server";
import { ServiceError } from "../service-error.server";
import {
  PhotoInputError,
  processPhoto,
  type PhotoProblem,
  type PhotoSource,
  type ProcessedPhoto,
} from "./image.server";
import * as repo from "./photos.repository.server";
import { sha256Hex } from "./sigv4.server";

export type PhotoErrorCode =
  | PhotoProblem
  | "noFile"
  | "tooMany"
  | "storageFull"
  | "organisationStorageFull"
  | "rateLimited"
  /** The account's (or the instance's) uploads are in flight: refused before anything was read. */
  | "busy"
  | "unverified"
  | "notFound";
export class PhotoError extends ServiceError<PhotoErrorCode> {}

/** Uploads per user: each file is decoded and encoded four times, so a bound on CPU (and disk). */
export const PHOTO_UPLOAD_LIMIT: RateRule = { name: "photo:user", limit: 30, windowMs: 60 * 60_000 };
/** Unused bytes younger than this may belong to an upload in flight: the sweep leaves them. */
export const ORPHAN_GRACE_MS = 15 * 60_000;

export interface PreparedPhoto {
  variants: Array<ProcessedPhoto["variants"][number] & { hash: string }>;
  size: number;
}

type PhotoDeps = Pick<Deps, "db" | "config" | "clock" | "events" | "photos">;

function mb(bytes: number) {
  return Math.round(bytes / (1024 * 1024));
}

/** Where photos being prepared go: a new item (in an organisation's scope or not), or an item the user manages. */
export type PhotoTarget = { newItem: { organisationId: string | null } } | { itemId: string };

/**
 * Refuses photos that would take the scope past its bound: an organisation's
 * (PHOTO_STORAGE_ORGANISATION_MB) or a person's (PHOTO_STORAGE_MB), decision 050.
 */
async function checkStorage(deps: PhotoDeps, db: PhotoDeps["db"], scope: repo.StorageScope, adding: number) {
  const organisation = "organisationId" in scope;
  const bound = organisation ? deps.config.photos.organisationStorageBytes : deps.config.photos.storageBytes;
  if ((await repo.storageUsedIn(db, scope)) + adding > bound) {
    throw new PhotoError(organisation ? "organisationStorageFull" : "storageFull", { mb: mb(bound) });
  }
}

/**
 * One photo arriving, counted against the upload limit before any of it is read (decision
 * 050: the upload intake asks as each file begins). The refusal, or null.
 */
export async function countPhotoUpload(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
): Promise<PhotoError | null> {
  const hit = await rateLimits(deps.config, deps.db).hit(PHOTO_UPLOAD_LIMIT, userId, deps.clock());
  return hit.ok ? null : new PhotoError("rateLimited", { minutes: hit.retryAfterMinutes });
}

/**
 * Checks and processes the files the owner sent (nothing stored); each was counted against
 * the upload limit as it arrived (countPhotoUpload). PhotoError notFound when the target
 * item is not one the user manages; the storage checked is the target's scope.
 */
export async function preparePhotos(
  deps: PhotoDeps,
  userId: string,
  files: PhotoSource[],
  target: PhotoTarget,
): Promise<PreparedPhoto[]> {
  if (files.length === 0) return [];
  let scope: repo.StorageScope;
  let existing = 0;
  if ("itemId" in target) {
    const found = await repo.findManagedItemScope(deps.db, userId, target.itemId);
    if (!found) throw new PhotoError("notFound");
    scope = found;
    existing = await repo.countPhotosOfItem(deps.db, target.itemId);
  } else {
    scope = repo.storageScopeOf({ owner: userId, organisationId: target.newItem.organisationId });
  }
  if (existing + files.length > MAX_PHOTOS_PER_ITEM) throw new PhotoError("tooMany", { max: MAX_PHOTOS_PER_ITEM });
  const out: PreparedPhoto[] = [];
  for (const file of files) {
    let processed: ProcessedPhoto;
    try {
      processed = await processPhoto(file);
    } catch (err) {
      if (err instanceof PhotoInputError) throw new PhotoError(err.problem, { max: 15 });
      throw err;
    }
    const variants = processed.variants.map((v) => ({ ...v, hash: sha256Hex(v.bytes) }));
    out.push({ variants, size: variants.reduce((n, v) => n + v.bytes.length, 0) });
  }
  await checkStorage(
    deps,
    deps.db,
    scope,
    out.reduce((n, p) => n + p.size, 0),
  );
  return out;
}

/**
 * Stores prepared photos on an item the user manages, after the ones it has. PhotoError
 * notFound (not theirs), tooMany, storageFull or organisationStorageFull; nothing is kept then.
 */
export async function attachPhotos(
  deps: PhotoDeps,
  userId: string,
  itemId: string,
  photos: PreparedPhoto[],
  options: { private?: boolean } = {},
): Promise<void> {
  if (photos.length === 0) return;
  const store = deps.photos;
  const now = deps.clock();
  const hashes = photos.flatMap((p) => p.variants.map((v) => v.hash));
  // The bytes first, outside the transaction (S3 is a network round trip per file); until
  // the rows below exist, the sweep's grace keeps them.
  for (const p of photos) for (const v of p.variants) await store.put(deps.db, { hash: v.hash, bytes: v.bytes }, now);
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (!(await repo.lockManagedItem(trx, userId, itemId, now))) throw new PhotoError("notFound");
      const count = await repo.countPhotosOfItem(trx, itemId);
      if (count + photos.length > MAX_PHOTOS_PER_ITEM) throw new PhotoError("tooMany", { max: MAX_PHOTOS_PER_ITEM });
      const scope = (await repo.findItemScope(trx, itemId))!;
      await checkStorage(
        deps,
        trx,
        scope,
        photos.reduce((n, p) => n + p.size, 0),
      );
      let position = await repo.nextPosition(trx, itemId);
      for (const p of photos) {
        await repo.insertPhoto(
          trx,
          { id: randomId(16), itemId, position: position++, private: options.private ?? false, createdAt: now },
          p.variants.map((v) => ({
            nominal: v.nominal,
            width: v.width,
            height: v.height,
            hash: v.hash,
            size: v.bytes.length,
          })),
        );
      }
    });
  } catch (err) {
    await store.deleteUnused(deps.db, hashes);
    throw err;
  }
  await deps.events.emit("itemsChanged", { itemIds: [itemId] }, deps);
}

/** A photo as pages show it (its variants by width, the largest standing in for a missing one). */
export function photoViewOf(itemId: string, p: repo.PhotoRow): PhotoView {
  const of = (nominal: number) => {
    const v = p.variants.find((x) => x.nominal === nominal) ?? p.variants[p.variants.length - 1]!;
    return { url: photoUrl(itemId, v.hash), width: v.width, height: v.height };
  };
  return { id: p.id, private: p.private, thumb: of(160), small: of(320), medium: of(640), large: of(1280) };
}

/** The photos of items, by item id, in their order; `publicOnly` for anyone but a manager. */
export async function photosOfItems(
  deps: Pick<Deps, "db">,
  itemIds: string[],
  publicOnly: boolean,
): Promise<Map<string, PhotoView[]>> {
  const out = new Map<string, PhotoView[]>();
  for (const row of await repo.listPhotosOfItems(deps.db, itemIds, publicOnly)) {
    const list = out.get(row.itemId) ?? [];
    list.push(photoViewOf(row.itemId, row));
    out.set(row.itemId, list);
  }
  return out;
}

/** The photos of an item the user manages (PhotoError notFound otherwise). */
export async function listManagedPhotos(deps: Pick<Deps, "db">, userId: string, itemId: string): Promise<PhotoView[]> {
  if (!(await mayManageItem(deps.db, userId, itemId))) throw new PhotoError("notFound");
  return (await photosOfItems(deps, [itemId], false)).get(itemId) ?? [];
}

/** The item's name and photos for its photo page (PhotoError notFound unless the user manages it). */
export async function getPhotoPage(
  deps: Pick<Deps, "db">,
  userId: string,
  itemId: string,
): Promise<{ name: string; photos: PhotoView[] }> {
  const name = await repo.findManagedItemName(deps.db, userId, itemId);
  if (name === undefined) throw new PhotoError("notFound");
  return { name, photos: (await photosOfItems(deps, [itemId], false)).get(itemId) ?? [] };
}

/**
 * Photos added to an item the user manages (the item's photo page, decision 035): checked,
 * processed and stored. PhotoError for a refused file or limit, nothing stored then.
 */
export async function addPhotos(
  deps: PhotoDeps,
  userId: string,
  itemId: string,
  files: PhotoSource[],
  options: { private?: boolean } = {},
): Promise<void> {
  if (!(await mayManageItem(deps.db, userId, itemId))) throw new PhotoError("notFound");
  if (files.length === 0) throw new PhotoError("noFile");
  const prepared = await preparePhotos(deps, userId, files, { itemId });
  await attachPhotos(deps, userId, itemId, prepared, options);
}

/** Photos per item (the CSV export's column, decision 035); items without are absent. */
export async function countPhotosOfItems(deps: Pick<Deps, "db">, itemIds: string[]): Promise<Map<string, number>> {
  return repo.countPhotosByItem(deps.db, itemIds);
}

/**
 * The bytes of a photo variant served at /product/{itemId}/photo/{hash}.webp, or null
 * (answered 404): unknown, not this item's, or private and the viewer does not manage it.
 */
export async function readServedPhoto(
  deps: PhotoDeps,
  /** Who asks (null: nobody signed in); only asked for a private photo. */
  viewer: () => Promise<string | null>,
  itemId: string,
  hash: string,
): Promise<{ bytes: Buffer; private: boolean } | null> {
  const variant = await repo.findVariantOfItem(deps.db, itemId, hash);
  if (!variant) return null;
  if (variant.private) {
    const viewerId = await viewer();
    if (viewerId === null || !(await mayManageItem(deps.db, viewerId, itemId))) return null;
  }
  const bytes = await deps.photos.get(deps.db, hash);
  return bytes && { bytes, private: variant.private };
}

export type PhotoChange = { kind: "private"; value: boolean } | { kind: "move"; by: -1 | 1 } | { kind: "delete" };

/** The owner's changes to one photo: public/private, order, delete. PhotoError notFound. */
export async function changePhoto(
  deps: PhotoDeps,
  userId: string,
  itemId: string,
  photoId: string,
  change: PhotoChange,
): Promise<void> {
  const now = deps.clock();
  let gone: string[] = [];
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.lockManagedItem(trx, userId, itemId, now))) throw new PhotoError("notFound");
    if (!(await repo.findPhotoOfItem(trx, itemId, photoId))) throw new PhotoError("notFound");
    if (change.kind === "private") {
      await repo.setPhotoPrivate(trx, photoId, change.value);
    } else if (change.kind === "delete") {
      gone = await repo.hashesOfPhoto(trx, photoId);
      await repo.deletePhotoRow(trx, photoId);
    } else {
      const ids = await repo.listPhotoIdsOfItem(trx, itemId);
      const from = ids.indexOf(photoId);
      const to = from + change.by;
      if (to >= 0 && to < ids.length) [ids[from], ids[to]] = [ids[to]!, ids[from]!];
      for (let i = 0; i < ids.length; i++) await repo.setPhotoPosition(trx, ids[i]!, i);
    }
  });
  if (gone.length) await deps.photos.deleteUnused(deps.db, gone);
  await deps.events.emit("itemsChanged", { itemIds: [itemId] }, deps);
}

/** Call before deleting items: the hashes whose bytes may go with them (see forgetPhotoBytes). */
export async function photoHashesOfItems(deps: Pick<Deps, "db">, itemIds: string[]): Promise<string[]> {
  return repo.hashesOfItems(deps.db, itemIds);
}

/** Call before erasing an account: the hashes of the photos of every item it created. */
export async function photoHashesOfOwner(deps: Pick<Deps, "db">, userId: string): Promise<string[]> {
  return repo.hashesOfOwner(deps.db, userId);
}

/** After items went (their photo rows with them, ON DELETE CASCADE): their bytes too. */
export async function forgetPhotoBytes(deps: Pick<Deps, "db" | "photos">, hashes: string[]): Promise<void> {
  if (hashes.length) await deps.photos.deleteUnused(deps.db, hashes);
}

/** Housekeeping: bytes no photo uses (an upload that failed half way, a crash between steps). */
export async function sweepOrphanPhotos(deps: PhotoDeps): Promise<number> {
  const hashes = await repo.listOrphanBlobs(deps.db, deps.clock() - ORPHAN_GRACE_MS);
  await forgetPhotoBytes(deps, hashes);
  return hashes.length;
}

/**
 * The bytes of the photos of these items (largest variant), for "Download my data": the
 * account's items, chosen by the privacy service's one rule.
 */
export async function photosForExport(
  deps: PhotoDeps,
  itemIds: string[],
): Promise<Array<{ itemId: string; position: number; private: boolean; bytes: Buffer }>> {
  const rows = await repo.listPhotosOfItems(deps.db, itemIds, false);
  const store = deps.photos;
  const out = [];
  for (const r of rows) {
    const largest = r.variants[r.variants.length - 1]!;
    const bytes = await store.get(deps.db, largest.hash);
    if (bytes) out.push({ itemId: r.itemId, position: r.position, private: r.private, bytes });
  }
  return out;
}
