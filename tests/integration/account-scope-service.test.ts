/**
 * Exports and photo storage follow what the account's data is (decision 050), on SQLite
 * and (DATABASE_URL=postgres://…) PostgreSQL: "Download my data" carries the photos of the
 * same items as its `items` — the account's personal ones — never an organisation's,
 * whether the member still manages them or not; an organisation item's photos count
 * against the organisation's storage, whoever uploads them, never against the member who
 * registered the item.
 */
import { strFromU8, unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import type { ProductInput } from "../../app/lib/forms/product-form";
import { exportUserData } from "../../app/server/account/privacy.service.server";
import { createItem } from "../../app/server/items/items.service.server";
import { removeMember } from "../../app/server/organisations/organisations.service.server";
import { attachPhotos, preparePhotos, type PreparedPhoto } from "../../app/server/photos/photos.service.server";
import { createTestDatabase, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { phonePhotoWithGps } from "../support/images";
import { createServiceDeps, type ServiceTestDeps } from "../support/service-db";
import { createTestOrganisation, joinOrganisation, signUpOwner, type TestOwner } from "../support/service-fixtures";

const ITEM: ProductInput = {
  name: "Laptop",
  findFee: 100,
  prodType: "laptop",
  contactInfo: "Desk 3",
  contactVisibility: "private",
  payment: "year",
  intent: "payLater",
};

let tdb: TestDatabase;
let deps: ServiceTestDeps;
let photo: PreparedPhoto;
/** A small photo for the checks that process one (a phone's takes seconds of CPU). */
let small: Uint8Array;

beforeAll(async () => {
  tdb = await createTestDatabase("account_scope");
  // 1 MB each (the smallest bound): two photos fit, a third does not.
  deps = await createServiceDeps({
    ...testEnv(tdb),
    RATE_LIMIT_DISABLED: "1",
    PHOTO_STORAGE_MB: "1",
    PHOTO_STORAGE_ORGANISATION_MB: "1",
  });
  photo = (await preparePhotos(deps, "nobody", [await phonePhotoWithGps()], { newItem: { organisationId: null } }))[0]!;
  small = new Uint8Array(
    await sharp({ create: { width: 300, height: 200, channels: 3, background: "#345" } })
      .jpeg()
      .toBuffer(),
  );
}, 60_000);
afterAll(async () => {
  await deps?.close();
  await tdb?.drop();
});

/** An organisation with its admin and a member, and an item the member registered (assigned to them). */
async function organisation() {
  const admin = await signUpOwner(deps, { prefix: "scope-admin" });
  const member = await signUpOwner(deps, { prefix: "scope-member" });
  const org = await createTestOrganisation(deps, admin);
  await joinOrganisation(deps, org, member, "member");
  const orgItem = await createItem(deps, member.id, { ...ITEM, name: "Company laptop" }, "en", org);
  return { admin, member, org, orgItem };
}

async function exported(user: TestOwner) {
  const out = await exportUserData(deps, user, { consentCookie: false });
  const files = out.zip ? unzipSync(out.zip.bytes) : {};
  const json = JSON.parse(out.json) as {
    items: Array<{ id: string }>;
    photos?: Array<{ itemId: string; file: string }>;
  };
  // The ZIP's JSON is the same document.
  const inZip = Object.keys(files).find((f) => f.endsWith(".json"));
  if (inZip) expect(JSON.parse(strFromU8(files[inZip]!))).toEqual(json);
  return { json, photoFiles: Object.keys(files).filter((f) => f.startsWith("photos/")) };
}

/** The item's scope holds its whole bound (1 MB): one variant's recorded size, as if stored. */
async function fillStorage(itemId: string) {
  await deps.db
    .insertInto("item_photos")
    .values({ id: `full-${itemId}`, itemId, position: 9, private: 1, createdAt: deps.clock() })
    .execute();
  await deps.db
    .insertInto("photo_variants")
    .values({ photoId: `full-${itemId}`, nominal: 1280, width: 1, height: 1, hash: "f".repeat(64), size: 1024 * 1024 })
    .execute();
}

async function codeOf(p: Promise<unknown>) {
  return p.then(
    () => "stored",
    (err: { code?: string }) => err.code ?? String(err),
  );
}

describe(`what the account's data is, on ${usingPostgres() ? "PostgreSQL" : "SQLite"}`, () => {
  it("the data export carries the photos of the account's own items only, never an organisation item's private photo", async () => {
    const { member, admin, org, orgItem } = await organisation();
    const own = await createItem(deps, member.id, { ...ITEM, name: "My bike" }, "en");
    await attachPhotos(deps, member.id, own, [photo]);
    await attachPhotos(deps, member.id, orgItem, [photo], { private: true });

    // While they manage it, and after they no longer do: the organisation's data, not theirs.
    for (const step of ["manages", "removed"] as const) {
      if (step === "removed") await removeMember(deps, admin.id, org, member.id);
      const { json, photoFiles } = await exported(member);
      expect(
        json.items.map((i) => i.id),
        step,
      ).toEqual([own]);
      expect(
        json.photos?.map((p) => p.itemId),
        step,
      ).toEqual([own]);
      expect(photoFiles, step).toEqual([`photos/${own}-1.webp`]);
    }
    // Nor the admin's: the organisation's CSV export is where its items are.
    expect((await exported(admin)).json.photos).toBeUndefined();
  });

  it("an admin's upload to a member's item counts against the organisation, not the member", async () => {
    const { admin, member, org, orgItem } = await organisation();
    await attachPhotos(deps, admin.id, orgItem, [photo, photo]);
    // The member's own storage is untouched: their personal items still take two photos.
    const own = await createItem(deps, member.id, ITEM, "en");
    expect(await codeOf(attachPhotos(deps, member.id, own, [photo, photo]))).toBe("stored");
    // The organisation's is full, whichever of its people uploads, to whichever of its items.
    const another = await createItem(deps, admin.id, ITEM, "en", org);
    expect(await codeOf(attachPhotos(deps, member.id, orgItem, [photo]))).toBe("organisationStorageFull");
    expect(await codeOf(attachPhotos(deps, admin.id, another, [photo]))).toBe("organisationStorageFull");
    // And the member's personal storage fills on its own.
    expect(await codeOf(attachPhotos(deps, member.id, own, [photo]))).toBe("storageFull");
  });

  it("photos are checked before anything is saved against the storage of the scope they go to", async () => {
    const { admin, org, orgItem } = await organisation();
    await fillStorage(orgItem);
    const scopes = [{ newItem: { organisationId: org } }, { itemId: orgItem }, { newItem: { organisationId: null } }];
    const codes = [];
    for (const target of scopes) codes.push(await codeOf(preparePhotos(deps, admin.id, [small], target)));
    expect(codes).toEqual(["organisationStorageFull", "organisationStorageFull", "stored"]);
  });

  it("photos for an item the user does not manage are refused before any work", async () => {
    const { orgItem } = await organisation();
    const stranger = await signUpOwner(deps, { prefix: "scope-stranger" });
    expect(await codeOf(preparePhotos(deps, stranger.id, [new Uint8Array(10)], { itemId: orgItem }))).toBe("notFound");
  });
});
