/**
 * Item photo rules (decision 035) on an in-memory SQLite through the real migrations: who
 * sees a private photo, the per-item count, the per-account storage bound, the upload
 * limit counted before any work, and bytes that go when nothing uses them — in the
 * database and in S3-compatible storage (a local stand-in checking SigV4).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProductInput } from "~/lib/forms/product-form";
import { phonePhotoWithGps } from "../../../tests/support/images";
import { startS3StandIn, type S3StandIn } from "../../../tests/support/s3";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { eraseUserData } from "../account/privacy.service.server";
import { createItem, deleteOwnedItem } from "../items/items.service.server";
import {
  attachPhotos,
  changePhoto,
  countPhotoUpload,
  listManagedPhotos,
  photosOfItems,
  PhotoError,
  preparePhotos,
  readServedPhoto,
  sweepOrphanPhotos,
  type PreparedPhoto,
} from "./photos.service.server";

const ITEM: ProductInput = {
  contactVisibility: "public",
  name: "Black phone",
  findFee: 100,
  prodType: "mobile",
  contactInfo: "Call 070-123",
  payment: "month",
  intent: "payLater",
};

let prepared: PreparedPhoto;
let deps: ServiceTestDeps;
let s3: S3StandIn;
let n = 0;

beforeAll(async () => {
  s3 = await startS3StandIn();
  const d = await createServiceDeps();
  prepared = (await preparePhotos(d, "nobody", [await phonePhotoWithGps()], { newItem: { organisationId: null } }))[0]!;
  await d.close();
}, 30_000);
afterAll(async () => {
  await s3.close();
});
afterEach(async () => {
  await deps?.close();
});

async function user() {
  const email = `photos-${++n}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({
    body: { name: "Anna Svensson", email, password: "pw-Secret-123!" },
  });
  return user.id;
}

const anonymous = async () => null;
const as = (id: string) => async () => id;
const hashOf = (url: string) => /([0-9a-f]{64})\.webp$/.exec(url)![1]!;

async function codeOf(p: Promise<unknown>) {
  try {
    await p;
    return "ok";
  } catch (err) {
    if (err instanceof PhotoError) return err.code;
    throw err;
  }
}

describe("item photos (database storage)", () => {
  it("serves a public photo to anyone and a private one only to the owner (404 for a stranger)", async () => {
    deps = await createServiceDeps();
    const owner = await user();
    const stranger = await user();
    const item = await createItem(deps, owner, ITEM, "en");
    await attachPhotos(deps, owner, item, [prepared]);
    const [photo] = await listManagedPhotos(deps, owner, item);
    const hash = hashOf(photo!.small.url);
    expect(photo!.small.url).toBe(`/product/${item}/photo/${hash}.webp`);
    expect((await readServedPhoto(deps, anonymous, item, hash))?.bytes.toString("latin1", 8, 12)).toBe("WEBP");

    await changePhoto(deps, owner, item, photo!.id, { kind: "private", value: true });
    expect(await readServedPhoto(deps, anonymous, item, hash)).toBeNull();
    expect(await readServedPhoto(deps, as(stranger), item, hash)).toBeNull();
    expect(await readServedPhoto(deps, as(owner), item, hash)).not.toBeNull();
    expect((await photosOfItems(deps, [item], true)).get(item)).toBeUndefined();
    // Another item's id in the URL serves nothing.
    const other = await createItem(deps, stranger, ITEM, "en");
    expect(await readServedPhoto(deps, as(stranger), other, hash)).toBeNull();
  });

  it("a stranger can neither add, change nor list photos of someone else's item", async () => {
    deps = await createServiceDeps();
    const owner = await user();
    const stranger = await user();
    const item = await createItem(deps, owner, ITEM, "en");
    await attachPhotos(deps, owner, item, [prepared]);
    const [photo] = await listManagedPhotos(deps, owner, item);
    expect(await codeOf(attachPhotos(deps, stranger, item, [prepared]))).toBe("notFound");
    expect(await codeOf(changePhoto(deps, stranger, item, photo!.id, { kind: "delete" }))).toBe("notFound");
    expect(await codeOf(listManagedPhotos(deps, stranger, item))).toBe("notFound");
    expect(await listManagedPhotos(deps, owner, item)).toHaveLength(1);
  });

  it("takes at most three photos per item", async () => {
    deps = await createServiceDeps();
    const owner = await user();
    const item = await createItem(deps, owner, ITEM, "en");
    await attachPhotos(deps, owner, item, [prepared, prepared]);
    expect(await codeOf(attachPhotos(deps, owner, item, [prepared, prepared]))).toBe("tooMany");
    await attachPhotos(deps, owner, item, [prepared]);
    expect(await codeOf(preparePhotos(deps, owner, [new Uint8Array(1)], { itemId: item }))).toBe("tooMany");
    expect(await listManagedPhotos(deps, owner, item)).toHaveLength(3);
  });

  it("bounds an account's photo storage (PHOTO_STORAGE_MB)", async () => {
    deps = await createServiceDeps({ PHOTO_STORAGE_MB: "1" });
    const owner = await user();
    const perPhoto = prepared.size;
    const fits = Math.floor((1024 * 1024) / perPhoto);
    let stored = 0;
    while (stored < fits) {
      const item = await createItem(deps, owner, ITEM, "en");
      const batch = Math.min(3, fits - stored);
      await attachPhotos(
        deps,
        owner,
        item,
        Array.from({ length: batch }, () => prepared),
      );
      stored += batch;
    }
    const item = await createItem(deps, owner, ITEM, "en");
    const err = await attachPhotos(deps, owner, item, [prepared]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PhotoError);
    expect((err as PhotoError).code).toBe("storageFull");
    expect((err as PhotoError).params).toEqual({ mb: 1 });
    // Someone else's account is not full.
    const other = await user();
    await attachPhotos(deps, other, await createItem(deps, other, ITEM, "en"), [prepared]);
  });

  it("counts every photo as it arrives against the per-user limit (30 an hour)", async () => {
    deps = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" });
    const owner = await user();
    for (let i = 0; i < 30; i++) expect(await countPhotoUpload(deps, owner)).toBeNull();
    expect(await countPhotoUpload(deps, owner)).toMatchObject({ code: "rateLimited", params: { minutes: 60 } });
    // Another user's count is their own.
    expect(await countPhotoUpload(deps, await user())).toBeNull();
  });

  it("reorders and deletes; the bytes go once no photo uses them", async () => {
    deps = await createServiceDeps();
    const owner = await user();
    const item = await createItem(deps, owner, ITEM, "en");
    await attachPhotos(deps, owner, item, [prepared]);
    const small = await preparePhotos(
      deps,
      owner,
      [
        await (
          await import("sharp")
        )
          .default({ create: { width: 300, height: 200, channels: 3, background: "#123" } })
          .png()
          .toBuffer(),
      ],
      { itemId: item },
    );
    await attachPhotos(deps, owner, item, small);
    const [a, b] = await listManagedPhotos(deps, owner, item);
    await changePhoto(deps, owner, item, b!.id, { kind: "move", by: -1 });
    expect((await listManagedPhotos(deps, owner, item)).map((p) => p.id)).toEqual([b!.id, a!.id]);
    await changePhoto(deps, owner, item, b!.id, { kind: "delete" });
    expect((await listManagedPhotos(deps, owner, item)).map((p) => p.id)).toEqual([a!.id]);
    const blobs = await deps.db.selectFrom("photo_blobs").select("hash").execute();
    expect(blobs).toHaveLength(prepared.variants.length);
  });

  it("deletes the photos' bytes with the item and with the account", async () => {
    deps = await createServiceDeps();
    const owner = await user();
    const item = await createItem(deps, owner, ITEM, "en");
    await attachPhotos(deps, owner, item, [prepared]);
    await deleteOwnedItem(deps, owner, item);
    expect(await deps.db.selectFrom("photo_blobs").select("hash").execute()).toEqual([]);
    expect(await deps.db.selectFrom("item_photos").select("id").execute()).toEqual([]);

    const leaver = await user();
    const kept = await user();
    await attachPhotos(deps, leaver, await createItem(deps, leaver, ITEM, "en"), [prepared]);
    const keptItem = await createItem(deps, kept, ITEM, "en");
    await attachPhotos(deps, kept, keptItem, [prepared]);
    await eraseUserData(deps, { id: leaver, email: "x@example.test", emailVerified: true });
    // The same bytes on someone else's item stay.
    expect(await deps.db.selectFrom("photo_blobs").select("hash").execute()).toHaveLength(prepared.variants.length);
    const [photo] = await listManagedPhotos(deps, kept, keptItem);
    expect(await readServedPhoto(deps, anonymous, keptItem, hashOf(photo!.large.url))).not.toBeNull();
  });

  it("sweeps bytes no photo uses once they are older than an upload can take", async () => {
    deps = await createServiceDeps();
    const now = deps.clock();
    await deps.db
      .insertInto("photo_blobs")
      .values({ hash: "a".repeat(64), size: 1, data: Buffer.from("x"), createdAt: now })
      .execute();
    expect(await sweepOrphanPhotos(deps)).toBe(0);
    deps.setNow(now + 16 * 60_000);
    expect(await sweepOrphanPhotos(deps)).toBe(1);
  });
});

describe("item photos in S3-compatible storage", () => {
  it("stores, serves and deletes the bytes in the bucket, signed requests only", async () => {
    deps = await createServiceDeps(s3.env);
    const owner = await user();
    const item = await createItem(deps, owner, ITEM, "en");
    await attachPhotos(deps, owner, item, [prepared]);
    const [photo] = await listManagedPhotos(deps, owner, item);
    const hash = hashOf(photo!.medium.url);
    expect(s3.objects.get(`photos/${hash}.webp`)).toBeDefined();
    const row = await deps.db
      .selectFrom("photo_blobs")
      .select("data")
      .where("hash", "=", hash)
      .executeTakeFirstOrThrow();
    expect(row.data).toBeNull();
    const served = await readServedPhoto(deps, anonymous, item, hash);
    expect(served!.bytes.equals(s3.objects.get(`photos/${hash}.webp`)!)).toBe(true);
    expect(s3.requests.every((r) => r.status < 300)).toBe(true);

    await deleteOwnedItem(deps, owner, item);
    expect(s3.objects.has(`photos/${hash}.webp`)).toBe(false);
  });
});
