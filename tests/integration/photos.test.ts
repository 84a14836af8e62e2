/**
 * Item photos over HTTP against the production server (decision 035): the served bytes, their
 * caching, and who gets a private photo. Uploads through the forms are in the describe
 * blocks below the serving ones.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem } from "../../app/server/items/items.service.server";
import {
  attachPhotos,
  changePhoto,
  listManagedPhotos,
  preparePhotos,
  type PreparedPhoto,
} from "../../app/server/photos/photos.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { phonePhotoWithGps, webpMetadataChunks } from "../support/images";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
let owner: TestUser;
let stranger: TestUser;
let prepared: PreparedPhoto;

beforeAll(async () => {
  db = await createTestDatabase("photos");
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  owner = await createUser(rt, { name: "Photo Owner" });
  stranger = await createUser(rt, { name: "Photo Stranger" });
  prepared = (
    await preparePhotos(depsOf(rt), owner.id, [await phonePhotoWithGps()], { newItem: { organisationId: null } })
  )[0]!;
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

async function itemWithPhoto(name = "Black phone") {
  const deps = depsOf(rt);
  const id = await createItem(
    deps,
    owner.id,
    { name, findFee: 100, prodType: "mobile", contactInfo: "Call me", payment: "year", intent: "payLater" },
    "en",
  );
  await rt.database.db.updateTable("products").set({ payed: 1, paidUntil: null }).where("id", "=", id).execute();
  await attachPhotos(deps, owner.id, id, [prepared]);
  const [photo] = await listManagedPhotos(deps, owner.id, id);
  return { id, photo: photo! };
}

describe("serving item photos", () => {
  it("serves WebP without any EXIF or GPS, immutable, the 320 px variant within 20 KB", async () => {
    const { photo } = await itemWithPhoto();
    const http = httpClient(server.url);
    for (const v of [photo.thumb, photo.small, photo.medium, photo.large]) {
      const res = await http.get(v.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/webp");
      expect(res.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.exif, meta.xmp, meta.icc]).toEqual([
        "webp",
        v.width,
        undefined,
        undefined,
        undefined,
      ]);
      expect(webpMetadataChunks(bytes)).toEqual([]);
      expect(bytes.includes("Hittad Test Phone")).toBe(false);
      if (v === photo.small) expect(bytes.length).toBeLessThanOrEqual(20 * 1024);
    }
    const again = await http.get(photo.small.url, {
      headers: { "If-None-Match": (await http.get(photo.small.url)).headers.get("etag")! },
    });
    expect(again.status).toBe(304);
  });

  it("serves a private photo only to its owner: 404 for a finder and for another user", async () => {
    const { id, photo } = await itemWithPhoto();
    await changePhoto(depsOf(rt), owner.id, id, photo.id, { kind: "private", value: true });
    const http = httpClient(server.url);
    expect((await http.get(photo.small.url)).status).toBe(404);
    expect((await http.get(photo.small.url, { cookie: stranger.cookie })).status).toBe(404);
    const mine = await http.get(photo.small.url, { cookie: owner.cookie });
    expect(mine.status).toBe(200);
    // The owner's browser may keep it (its name is its content), shared caches not.
    expect(mine.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
  });

  it("answers 404 for a photo of another item, an unknown hash and a malformed name", async () => {
    const { photo } = await itemWithPhoto();
    const { id: other } = await itemWithPhoto("Other");
    const http = httpClient(server.url);
    const hash = /([0-9a-f]{64})\.webp$/.exec(photo.small.url)![1]!;
    expect((await http.get(`/product/${other}/photo/${"0".repeat(64)}.webp`)).status).toBe(404);
    expect((await http.get(`/product/${"A".repeat(10)}/photo/${hash}.webp`)).status).toBe(404);
    expect((await http.get(`/product/${other}/photo/${hash}.png`)).status).toBe(404);
  });
});
