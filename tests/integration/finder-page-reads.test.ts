/**
 * Finder pages that miss the cache at the same moment read their items together (decision
 * 045, point 6; finder-page-reads.server.ts): one statement reads up to 16 items. Each
 * item's read must be what a read of it alone gives (its own photo, organisation, lapsed
 * relay and flood counter, nothing of another item's), an id without an item must read as
 * none, and many misses at once must take a few statements, not one each.
 * Runs on SQLite and PostgreSQL (the batched statement is the same SQL on both).
 */
import { createHash } from "node:crypto";
import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { batchedFinderPageReads } from "../../app/server/items/finder-page-reads.server";
import { readFinderPages } from "../../app/server/items/finder-page.repository.server";
import { RELAY_FLOOD_KEY_PREFIX, relayFloodKey } from "../../app/server/relay/relay-limits.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { insertItemRow, testStickerCode } from "../support/item-rows";
import { createUser, type TestUser } from "../support/users";

let tdb: TestDatabase;
let rt: Runtime;
let owner: TestUser;
const DAY = 86_400_000;

beforeAll(async () => {
  tdb = await createTestDatabase("finderreads");
  rt = await createTestRuntime(testEnv(tdb));
  owner = await createUser(rt, { name: "Batch Owner" });
  await rt.database.db
    .insertInto("organisations")
    .values({
      id: "batch-org",
      name: "Hotel Öresund",
      orgNumber: "556677-8899",
      billingEmail: "billing@hotel.example",
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "11122",
      invoiceCity: "Stockholm",
      deskContact: "Reception, floor 2",
      createdAt: Date.now(),
      updatedAt: Date.now(),
    } as never)
    .execute();
});
afterAll(async () => {
  await rt?.database.close();
  await tdb?.drop();
});

let n = 0;
async function item(row: Record<string, unknown> = {}): Promise<string> {
  n++;
  return insertItemRow(
    rt,
    {
      // Mixed case: the flood key holds the id in lower case.
      id: `BaTch${String(n).padStart(5, "0")}`,
      code: testStickerCode("ZB", n, 7),
      owner: owner.id,
      name: `Umbrella ${n}`,
      findFee: 100 + n,
      contactInfo: `Call ${n}`,
    },
    row,
  );
}

async function withPhoto(id: string, nominals: number[]) {
  await rt.database.db
    .insertInto("item_photos")
    .values({ id: `photo-${id}`, itemId: id, position: 0, private: 0, createdAt: Date.now() })
    .execute();
  for (const nominal of nominals)
    await rt.database.db
      .insertInto("photo_variants")
      .values({
        photoId: `photo-${id}`,
        nominal,
        width: nominal,
        height: nominal,
        hash: createHash("sha256").update(`${id}-${nominal}`).digest("hex"),
        size: nominal * 10,
      })
      .execute();
}

async function flooded(id: string, count: number) {
  await rt.database.db
    .insertInto("app_rate_limits")
    .values({ key: relayFloodKey(id), windowStart: Date.now(), count })
    .execute();
}

it("a read of several items gives each exactly what a read of it alone gives, and none for an id without an item", async () => {
  const photographed = await item();
  await withPhoto(photographed, [640, 160, 320]);
  const otherPhoto = await item({ organisationId: "batch-org" });
  await withPhoto(otherPhoto, [1280]);
  const ofOrganisation = await item({ organisationId: "batch-org" });
  const floodedItem = await item();
  await flooded(floodedItem, 11);
  const plain = await item({ payed: 0, paidUntil: Date.now() - DAY });
  const ids = [photographed, otherPhoto, ofOrganisation, floodedItem, plain];

  const alone = new Map(
    await Promise.all(
      ids.map(
        async (id) => [id, (await readFinderPages(rt.database.db, [id], RELAY_FLOOD_KEY_PREFIX)).get(id)] as const,
      ),
    ),
  );
  // Sizes 4 and 16 of the statement, an id twice and one without an item among them.
  for (const batch of [
    [...ids.slice(0, 3), "NoSuchItem1"],
    [...ids, "NoSuchItem1", photographed],
  ]) {
    const together = await readFinderPages(rt.database.db, batch, RELAY_FLOOD_KEY_PREFIX);
    expect(together.has("NoSuchItem1")).toBe(false);
    for (const id of batch.filter((id) => id !== "NoSuchItem1")) expect(together.get(id)).toEqual(alone.get(id));
  }

  expect(alone.get(photographed)!.photo!.variants.map((v) => v.nominal)).toEqual([160, 320, 640]);
  expect(alone.get(otherPhoto)!.photo!.variants.map((v) => v.nominal)).toEqual([1280]);
  expect(alone.get(ofOrganisation)!.organisation).toEqual({ name: "Hotel Öresund", deskContact: "Reception, floor 2" });
  expect(alone.get(ofOrganisation)!.photo).toBeNull();
  expect(alone.get(floodedItem)!.floodCounter?.count).toBe(11);
  expect(alone.get(plain)!.floodCounter).toBeNull();
  expect(alone.get(plain)!.item.name).toBe(`Umbrella ${n}`);

  // More than one statement holds: read in several.
  const many = [...ids, ...(await Promise.all(Array.from({ length: 15 }, () => item())))];
  const all = await readFinderPages(rt.database.db, many, RELAY_FLOOD_KEY_PREFIX);
  expect([...all.keys()].sort()).toEqual([...many].sort());
  expect(all.get(floodedItem)).toEqual(alone.get(floodedItem));
});

it("finder pages that miss at the same moment share statements: forty at once take three reads, each page its own item", async () => {
  const ids = await Promise.all(Array.from({ length: 40 }, () => item()));
  let statements = 0;
  const counting: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      statements++;
      return args.result;
    },
  };
  const read = batchedFinderPageReads(rt.database.db.withPlugin(counting), RELAY_FLOOD_KEY_PREFIX, 2);
  const reads = await Promise.all([...ids.map((id) => read(id)), read("NoSuchItem2")]);
  expect(reads.map((r) => r?.item.id ?? null)).toEqual([...ids, null]);
  // Two batches of 16 run at once; the other nine wait for one of them and go together.
  expect(statements).toBe(3);

  // A miss alone is read at once, alone.
  statements = 0;
  expect((await read(ids[7]!))?.item.name).toBe(`Umbrella ${n - 40 + 8}`);
  expect(statements).toBe(1);
});
