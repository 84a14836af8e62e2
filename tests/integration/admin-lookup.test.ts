/**
 * Staff look-up of a handed-in item (decision 030): a typed sticker code (tolerant,
 * like /find), an item id or the sticker's URL finds the item and its owner's email and
 * contact; every look-up, found or not, is logged with who, when and what; the log is
 * deleted by housekeeping after RETENTION_MS.lookups. Who may use the page at all is in the
 * authorization matrix (tests/quality/route-table.ts). SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RETENTION_MS } from "../../app/lib/domain/retention";
import { formatStickerCode } from "../../app/lib/domain/sticker-code";
import { createItem } from "../../app/server/items/items.service.server";
import { runHousekeeping } from "../../app/server/jobs/jobs.service.server";
import { lookupItem, LookupError, recentLookups } from "../../app/server/lookup/lookup.service.server";
import { eraseUserData, exportUserData } from "../../app/server/account/privacy.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { createUser, type TestUser } from "../support/users";

const NOW = Date.UTC(2026, 10, 26, 12);

let tdb: TestDatabase;
let rt: Runtime;
let owner: TestUser;
let item: string;
let code: string;
const staff = { id: "staff-1", email: "staff@example.test" };
const deps = (now = NOW) => ({ ...depsOf(rt), clock: () => now });

beforeAll(async () => {
  tdb = await createTestDatabase("lookup");
  rt = await createTestRuntime(testEnv(tdb));
  owner = await createUser(rt, { name: "Olle Owner" });
  item = await createItem(
    depsOf(rt),
    owner.id,
    {
      name: "Olle's bag",
      findFee: 50,
      prodType: "other",
      contactInfo: "070-123 45 67",
      payment: "year",
      intent: "payLater",
    },
    "en",
  );
  code = (await rt.database.db.selectFrom("products").select("code").where("id", "=", item).executeTakeFirstOrThrow())
    .code;
});
afterAll(async () => {
  await rt?.database.close();
  await tdb?.drop();
});

describe("staff look-up", () => {
  it("finds the item by its code typed loosely (lower case, spaces, dashes) and shows the owner's email and contact", async () => {
    const typed = ` ${formatStickerCode(code).toLowerCase().replace("-", " ")} `;
    const found = await lookupItem(deps(), staff, typed);
    expect(found).toMatchObject({
      id: item,
      ownerEmail: owner.email,
      ownerName: "Olle Owner",
      contactInfo: "070-123 45 67",
    });
  });

  it("finds the item by its id and by the sticker's URL", async () => {
    expect((await lookupItem(deps(), staff, item)).id).toBe(item);
    expect((await lookupItem(deps(), staff, `https://hittad.se/product/${item}?x=1`)).id).toBe(item);
    expect((await lookupItem(deps(), staff, `hittad.se/${item}/`)).id).toBe(item);
  });

  it("refuses what is neither a code nor an id, and says so when nothing has the code", async () => {
    await expect(lookupItem(deps(), staff, "hello")).rejects.toEqual(new LookupError("query.invalid"));
    await expect(lookupItem(deps(), staff, "")).rejects.toEqual(new LookupError("query.invalid"));
    const unknown = code === "222222222" ? "333333333" : "222222222";
    await expect(lookupItem(deps(), staff, unknown)).rejects.toEqual(new LookupError("notFound"));
  });

  it("logs every look-up, found or not, with who, when and what was typed", async () => {
    const before = (await recentLookups(deps())).length;
    await lookupItem(deps(NOW + 5_000), { id: "staff-2", email: "second@example.test" }, item);
    await expect(lookupItem(deps(NOW + 6_000), staff, "ZZZZZZZZZ")).rejects.toBeInstanceOf(LookupError);
    const log = await recentLookups(deps());
    expect(log.length).toBe(before + 2);
    expect(log[0]).toMatchObject({ staffId: "staff-1", query: "ZZZZZZZZZ", productId: null, lookedUpAt: NOW + 6_000 });
    expect(log[1]).toMatchObject({
      staffId: "staff-2",
      staffEmail: "second@example.test",
      query: item,
      productId: item,
      lookedUpAt: NOW + 5_000,
    });
  });

  it("housekeeping deletes look-ups older than their retention and keeps younger ones", async () => {
    await lookupItem(deps(NOW - RETENTION_MS.lookups - 1_000), staff, item);
    await lookupItem(deps(NOW - RETENTION_MS.lookups + 60_000), staff, item);
    const result = await runHousekeeping(deps(), rt.database.dialect);
    expect(result?.lookups).toBe(1);
    const times = (await recentLookups(deps())).map((r) => r.lookedUpAt);
    expect(times).not.toContain(NOW - RETENTION_MS.lookups - 1_000);
    expect(times).toContain(NOW - RETENTION_MS.lookups + 60_000);
  });

  it("a staff member's own look-ups are in their data export, and stay in the log when their account is erased", async () => {
    const member = await createUser(rt, { name: "Sara Staff", email: "sara.staff@example.test" });
    const subject = { id: member.id, email: member.email, emailVerified: true };
    await lookupItem(deps(NOW + 9_000), { id: member.id, email: member.email }, item);
    const exported = JSON.parse((await exportUserData(deps(), subject, { consentCookie: false })).json) as {
      staffLookups: Array<{ lookedUpAt: string; typed: string; itemId: string | null; staffEmail: string }>;
    };
    expect(exported.staffLookups).toEqual([
      { lookedUpAt: new Date(NOW + 9_000).toISOString(), typed: item, itemId: item, staffEmail: member.email },
    ]);
    // Another staff member's look-ups are not in it.
    expect(exported.staffLookups.every((l) => l.staffEmail === member.email)).toBe(true);
    await eraseUserData(deps(), subject);
    const kept = (await recentLookups(deps())).filter((l) => l.staffId === member.id);
    // Kept for owners' "who looked at my details?" until housekeeping's year (decision 041, /privacy).
    expect(kept).toHaveLength(1);
    expect(kept[0]!.staffEmail).toBe(member.email);
  });
});
