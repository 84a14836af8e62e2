/**
 * Scan log, scan alerts and lost mode on an in-memory SQLite through the real migrations
 * (decisions 011 and 014). The HTTP side (cache hits, the owner's views, both
 * databases) is in tests/integration/scans.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createItem, getItemPageView } from "../items/items.service.server";
import { createTestOrganisation, joinOrganisation } from "../../../tests/support/service-fixtures";
import { ScanLog, type ScanEvent } from "./scan-log.server";
import { deleteScansBefore } from "./scans.repository.server";
import {
  INACTIVE_ALERT_WINDOW_MS,
  LOST_ALERT_WINDOW_MS,
  recordItemPageVisit,
  SCAN_ALERT_WINDOW_MS,
  ScanError,
  setItemLost,
  writeScanEvents,
} from "./scans.service.server";

const ITEM: ProductInput = {
  name: "Black phone",
  findFee: 100,
  prodType: "mobile",
  contactInfo: "Call 070-123",
  contactVisibility: "public",
  payment: "month",
  intent: "payLater",
};
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";
const MINUTE = 60_000;

let deps: ServiceTestDeps;
let n = 0;

async function owner(language: "en" | "sv" = "en", verified = true) {
  const email = `scans-${++n}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({
    body: { name: "Anna Svensson", email, password: "pw-Secret-123!" },
  });
  await deps.db
    .updateTable("user")
    .set({ language, emailVerified: verified ? 1 : 0 })
    .where("id", "=", user.id)
    .execute();
  return user.id;
}

async function paidItem(userId: string, item: Partial<ProductInput> = {}) {
  const id = await createItem(deps, userId, { ...ITEM, ...item }, "en");
  await deps.db.updateTable("products").set({ payed: 1, paidUntil: null }).where("id", "=", id).execute();
  return id;
}

const scan = (itemId: string, over: Partial<ScanEvent> = {}): ScanEvent => ({
  itemId,
  at: deps.clock(),
  lang: "sv",
  device: "phone",
  paid: true,
  ...over,
});

const mails = () => deps.db.selectFrom("mail_outbox").select(["to", "subject", "text"]).orderBy("createdAt").execute();
const scanRows = (id: string) =>
  deps.db.selectFrom("item_scans").select(["lang", "device", "scannedAt"]).where("productId", "=", id).execute();

beforeEach(async () => {
  deps = await createServiceDeps();
});
afterEach(async () => {
  await deps.close();
});

describe("what counts as a scan", () => {
  it("the owner's own views and bots are not recorded; other people's views are, without the user agent", () => {
    const log = new ScanLog();
    const visit = { itemId: "AbCdEfGh12", paid: true, lang: "en" as const, at: 1 };
    recordItemPageVisit(log, { ...visit, isOwner: true, userAgent: IPHONE });
    recordItemPageVisit(log, {
      ...visit,
      isOwner: false,
      userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)",
    });
    recordItemPageVisit(log, { ...visit, isOwner: false, userAgent: undefined });
    expect(log.size).toBe(0);
    recordItemPageVisit(log, { ...visit, isOwner: false, userAgent: IPHONE });
    expect(log.size).toBe(1);
  });

  it("scans of a paid page are logged with time, language and device class, and set 'last scanned'", async () => {
    const id = await paidItem(await owner());
    const at = deps.clock();
    await writeScanEvents(deps, [scan(id, { at: at - 5 }), scan(id, { at, lang: "en", device: "desktop" })]);
    const rows = await scanRows(id);
    expect(
      rows.map((r) => ({ ...r, scannedAt: Number(r.scannedAt) })).sort((a, b) => a.scannedAt - b.scannedAt),
    ).toEqual([
      { lang: "sv", device: "phone", scannedAt: at - 5 },
      { lang: "en", device: "desktop", scannedAt: at },
    ]);
    const row = await deps.db.selectFrom("products").select("lastScannedAt").where("id", "=", id).executeTakeFirst();
    expect(Number(row?.lastScannedAt)).toBe(at);
  });

  it("'last scanned' never moves back when an older batch arrives later (another instance)", async () => {
    const id = await paidItem(await owner());
    const at = deps.clock();
    await writeScanEvents(deps, [scan(id, { at })]);
    await writeScanEvents(deps, [scan(id, { at: at - 1000 })]);
    const row = await deps.db.selectFrom("products").select("lastScannedAt").where("id", "=", id).executeTakeFirst();
    expect(Number(row?.lastScannedAt)).toBe(at);
  });

  it("views of the 'not paid' page and of deleted items are not logged as scans", async () => {
    const userId = await owner();
    const unpaid = await createItem(deps, userId, ITEM, "en");
    const result = await writeScanEvents(deps, [scan(unpaid, { paid: false }), scan("Gone0000Zz")]);
    expect(result.scans).toBe(0);
    expect(await scanRows(unpaid)).toEqual([]);
  });

  it("the owner's view of the item page lists the last 20 scans, newest first; others see none", async () => {
    const userId = await owner();
    const id = await paidItem(userId);
    const at = deps.clock();
    await writeScanEvents(
      deps,
      Array.from({ length: 25 }, (_, i) => scan(id, { at: at - i * 1000 })),
    );
    const mine = await getItemPageView(deps, id, userId);
    expect(mine.kind === "item" && mine.scans.map((s) => s.at)).toEqual(
      Array.from({ length: 20 }, (_, i) => at - i * 1000),
    );
    const theirs = await getItemPageView(deps, id, null);
    expect(theirs.kind === "item" && theirs.scans).toEqual([]);
  });
});

describe("scan alerts (opt-in)", () => {
  it("mail the owner in their own language at most once per item per hour", async () => {
    const id = await paidItem(await owner("sv"), { scanAlerts: true });
    await writeScanEvents(deps, [scan(id), scan(id)]);
    deps.setNow(deps.clock() + 30 * MINUTE);
    await writeScanEvents(deps, [scan(id)]);
    let sent = await mails();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe("Din sak ”Black phone” har skannats");
    expect(sent[0]!.text).toContain("Enhet: Mobil");
    expect(sent[0]!.text).toContain("Hej Anna!");
    deps.setNow(deps.clock() + SCAN_ALERT_WINDOW_MS - 30 * MINUTE);
    await writeScanEvents(deps, [scan(id, { at: deps.clock() })]);
    sent = await mails();
    expect(sent).toHaveLength(2);
  });

  it("no mail without the opt-in, and none to an unverified account email", async () => {
    const quiet = await paidItem(await owner());
    const unverified = await paidItem(await owner("en", false), { scanAlerts: true });
    await writeScanEvents(deps, [scan(quiet), scan(unverified)]);
    expect(await mails()).toEqual([]);
  });

  it("two flushes racing for the same item send one mail (the throttle is in the database)", async () => {
    const id = await paidItem(await owner(), { scanAlerts: true });
    await Promise.all([writeScanEvents(deps, [scan(id)]), writeScanEvents(deps, [scan(id)])]);
    expect(await mails()).toHaveLength(1);
  });

  it("the item's name cannot add lines to the subject", async () => {
    const id = await paidItem(await owner(), { scanAlerts: true });
    await deps.db.updateTable("products").set({ name: "Phone\r\nBcc: x@example.test" }).where("id", "=", id).execute();
    await writeScanEvents(deps, [scan(id)]);
    expect((await mails())[0]!.subject).toBe("Your item “Phone Bcc: x@example.test” was scanned");
  });
});

describe("lost mode", () => {
  it("every scan alerts while lost, at most one mail per 10 minutes, even without the opt-in", async () => {
    const userId = await owner("en");
    const id = await paidItem(userId);
    await setItemLost(deps, userId, id, true);
    await writeScanEvents(deps, [scan(id)]);
    deps.setNow(deps.clock() + LOST_ALERT_WINDOW_MS - 1);
    await writeScanEvents(deps, [scan(id, { at: deps.clock() })]);
    expect(await mails()).toHaveLength(1);
    deps.setNow(deps.clock() + 1);
    await writeScanEvents(deps, [scan(id, { at: deps.clock() })]);
    const sent = await mails();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.subject).toBe("Your lost item “Black phone” was scanned");
  });

  it("found again: back to no mails without the opt-in", async () => {
    const userId = await owner();
    const id = await paidItem(userId);
    await setItemLost(deps, userId, id, true);
    await setItemLost(deps, userId, id, false);
    await writeScanEvents(deps, [scan(id)]);
    expect(await mails()).toEqual([]);
    const view = await getItemPageView(deps, id, null);
    expect(view.kind === "item" && view.lost).toBe(false);
  });

  it("only the owner can change it", async () => {
    const id = await paidItem(await owner());
    const stranger = await owner();
    await expect(setItemLost(deps, stranger, id, true)).rejects.toEqual(new ScanError("notFound"));
    const view = await getItemPageView(deps, id, null);
    expect(view.kind === "item" && view.lost).toBe(false);
  });
});

describe("scans of an item whose sticker is not active (issue #19 point 12)", () => {
  it("tell the owner at most once a day per item", async () => {
    const userId = await owner("sv");
    const id = await createItem(deps, userId, ITEM, "en");
    await writeScanEvents(deps, [scan(id, { paid: false })]);
    deps.setNow(deps.clock() + INACTIVE_ALERT_WINDOW_MS - 1);
    await writeScanEvents(deps, [scan(id, { paid: false, at: deps.clock() })]);
    let sent = await mails();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe("Någon skannade ”Black phone”, men klistermärket är inte aktiverat");
    expect(sent[0]!.text).toContain("http://localhost:3000/order");
    deps.setNow(deps.clock() + 1);
    await writeScanEvents(deps, [scan(id, { paid: false, at: deps.clock() })]);
    sent = await mails();
    expect(sent).toHaveLength(2);
  });
});

describe("the mails of a flush's unpaid items, together", () => {
  it("twenty unpaid items' scans: each verified owner mailed once, the contacts read and the items claimed in a few statements, however many items", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await createItem(deps, await owner("en", i !== 0), ITEM, "en"));
    const statements: string[] = [];
    const counting = deps.db.withPlugin({
      transformQuery: (args) => {
        statements.push(args.node.kind === "InsertQueryNode" ? "insert" : args.node.kind);
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    const r = await writeScanEvents(
      { ...deps, db: counting },
      ids.map((id) => scan(id, { paid: false })),
    );
    expect(r.mails).toBe(19);
    expect(await mails()).toHaveLength(19);
    // One insert per mail; everything else is a fixed handful: before, four statements an item.
    expect(statements.filter((k) => k === "insert")).toHaveLength(19);
    expect(statements.filter((k) => k !== "insert").length).toBeLessThanOrEqual(5);
    // The owner without a verified address: no mail, and the item is not claimed (the next scan may mail).
    const unclaimed = await deps.db
      .selectFrom("products")
      .select("inactiveAlertedAt")
      .where("id", "=", ids[0]!)
      .executeTakeFirstOrThrow();
    expect(unclaimed.inactiveAlertedAt).toBeNull();
  });

  it("a mail that cannot be queued leaves its item unclaimed, and the flush's retry sends it", async () => {
    const id = await createItem(deps, await owner("en"), ITEM, "en");
    const failing = deps.db.withPlugin({
      transformQuery: (args) => {
        if (args.node.kind === "InsertQueryNode") throw new Error("disk full");
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    await expect(writeScanEvents({ ...deps, db: failing }, [scan(id, { paid: false })])).rejects.toThrow("disk full");
    const row = await deps.db
      .selectFrom("products")
      .select("inactiveAlertedAt")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.inactiveAlertedAt).toBeNull();
    expect((await writeScanEvents(deps, [scan(id, { paid: false })])).mails).toBe(1);
    expect(await mails()).toHaveLength(1);
  });

  it("an organisation's unpaid item: its assigned member and each admin with a verified address, one mail each", async () => {
    const admin = await owner("sv");
    const unverifiedAdmin = await owner("en", false);
    const member = await owner("en");
    const bystander = await owner("en");
    const email = async (userId: string) =>
      (await deps.db.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirstOrThrow()).email;
    const org = await createTestOrganisation(deps, { id: admin, name: "Anna Svensson", email: await email(admin) });
    await joinOrganisation(deps, org, { id: unverifiedAdmin }, "admin");
    await joinOrganisation(deps, org, { id: member }, "member");
    await joinOrganisation(deps, org, { id: bystander }, "member");
    const id = await createItem(deps, admin, ITEM, "en", org);
    await deps.db.updateTable("products").set({ assignedTo: member }).where("id", "=", id).execute();
    expect((await writeScanEvents(deps, [scan(id, { paid: false })])).mails).toBe(2);
    const sent = await mails();
    expect(sent.map((m) => m.to).toSorted()).toEqual([await email(admin), await email(member)].toSorted());
    const adminEmail = await email(admin);
    expect(sent.find((m) => m.to === adminEmail)?.subject).toBe(
      "Någon skannade ”Black phone”, men klistermärket är inte aktiverat",
    );
  });
});

describe("the write buffer", () => {
  it("writes within a flush interval, and what is left on stop", async () => {
    const log = new ScanLog(50);
    const written: ScanEvent[][] = [];
    log.start(async (events) => {
      written.push(events);
    });
    log.record(scan("AbCdEfGh12"));
    await new Promise((r) => setTimeout(r, 120));
    expect(written.flat()).toHaveLength(1);
    log.record(scan("AbCdEfGh12"));
    log.record(scan("AbCdEfGh12"));
    await log.stop();
    expect(written.flat()).toHaveLength(3);
  });

  it("keeps the events of a failed write for the next flush (database outage)", async () => {
    const log = new ScanLog(60_000);
    let fail = true;
    const written: ScanEvent[] = [];
    log.start(async (events) => {
      if (fail) throw new Error("database down");
      written.push(...events);
    });
    log.record(scan("AbCdEfGh12"));
    await log.flush();
    expect(log.size).toBe(1);
    fail = false;
    await log.stop();
    expect(written).toHaveLength(1);
  });

  it("a flush whose mails failed is retried: the mail is queued, the scans are not logged twice", async () => {
    const userId = await owner();
    const id = await paidItem(userId);
    await setItemLost(deps, userId, id, true);
    const log = new ScanLog(60_000);
    log.start((events) => writeScanEvents(deps, events).then(() => undefined));
    log.record(scan(id));
    log.record(scan(id, { at: deps.clock() + 1 }));
    // The outbox cannot be written: the scans are in, the mail is not.
    await deps.db.schema.alterTable("mail_outbox").renameTo("mail_outbox_away").execute();
    await log.flush();
    expect(log.size).toBe(2);
    expect(await scanRows(id)).toHaveLength(2);
    await deps.db.schema.alterTable("mail_outbox_away").renameTo("mail_outbox").execute();
    await log.stop();
    expect(log.size).toBe(0);
    expect(await scanRows(id)).toHaveLength(2);
    expect(await mails()).toHaveLength(1);
  });
  it("housekeeping deletes old scans batch by batch, oldest first, and keeps every younger one", async () => {
    const id = await paidItem(await owner());
    const YEAR = 365 * 24 * 60 * MINUTE;
    const now = deps.clock();
    // 23 old scans (some sharing a time, as a busy minute does), 4 young ones.
    const times = [
      ...Array.from({ length: 23 }, (_, i) => now - YEAR - (i % 17) * MINUTE),
      ...[1, 2, 3, 4].map((d) => now - d * MINUTE),
    ];
    await deps.db
      .insertInto("item_scans")
      .values(times.map((t) => ({ productId: id, scannedAt: t, lang: "sv", device: "phone" })))
      .execute();
    const left: number[] = [];
    const deleted = await deleteScansBefore(deps.db, now - YEAR + MINUTE, {
      batch: 5,
      pause: async () => {
        left.push((await deps.db.selectFrom("item_scans").select("scannedAt").execute()).length);
      },
    });
    expect(deleted).toBe(23);
    // Several statements, each taking some, none all of them at once.
    expect(left.length).toBeGreaterThanOrEqual(3);
    expect(left[0]).toBeLessThan(27);
    expect(left[0]).toBeGreaterThan(4);
    const kept = await deps.db.selectFrom("item_scans").select("scannedAt").execute();
    expect(kept.map((r) => Number(r.scannedAt)).sort()).toEqual(times.slice(23).sort());
  });
});
