/**
 * Scan log, scan alerts and lost mode over HTTP against the production server, on SQLite
 * and PostgreSQL (decision 014): views served from
 * the finder-page cache are scans, the owner's own views and bots are not, the buffer is
 * written within a second and on shutdown, mails are throttled in the database, and the
 * cached page changes at once when lost mode toggles.
 */
// writeScanEvents writes mails through getT: the server's translations, as at start-up.
import "../../app/i18n/resources.server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem } from "../../app/server/items/items.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { insertScans, insertScansOnWriter } from "../../app/server/scans/scans.repository.server";
import { writeScanEvents } from "../../app/server/scans/scans.service.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

let db: TestDatabase;
let env: Record<string, string>;
let server: TestServer;
let rt: Runtime;
let owner: TestUser;
let other: TestUser;
const http = () => httpClient(server.url);
const dialect = () => (usingPostgres() ? "postgres" : "sqlite");

beforeAll(async () => {
  db = await createTestDatabase("scans");
  env = testEnv(db, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  owner = await createUser(rt, { name: "Scan Owner", language: "sv" });
  other = await createUser(rt, { name: "Someone Else" });
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

async function item(opts: { paid?: boolean; scanAlerts?: boolean; name?: string } = {}) {
  const id = await createItem(
    depsOf(rt),
    owner.id,
    {
      name: opts.name ?? "Blue backpack",
      findFee: 200,
      prodType: "other",
      contactInfo: "Call 070-000",
      payment: "year",
      intent: "payLater",
      scanAlerts: opts.scanAlerts ?? false,
    },
    "sv",
  );
  if (opts.paid !== false) {
    await rt.database.db.updateTable("products").set({ payed: 1, paidUntil: null }).where("id", "=", id).execute();
  }
  return id;
}

const view = (path: string, ua = PHONE, cookie?: string, lang: "en" | "sv" = "sv") =>
  http().get(path, { lang, cookie, headers: { "User-Agent": ua } });

async function scansOf(id: string) {
  const rows = await rt.database.db
    .selectFrom("item_scans")
    .select(["lang", "device", "scannedAt"])
    .where("productId", "=", id)
    .execute();
  return rows.map((r) => ({ lang: r.lang, device: r.device }));
}

const mailsTo = (to: string) =>
  rt.database.db.selectFrom("mail_outbox").select(["subject", "text"]).where("to", "=", to).execute();

/** Long enough for the server's once-a-second flush to have run (and finished). */
const flushed = () => new Promise((r) => setTimeout(r, 1600));

describe("scan log", () => {
  it("pages served from the finder-page cache are logged as scans, with language and device class", async () => {
    const id = await item();
    const first = await view(`/product/${id}`);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const hits = () => server.logs().split('"cache":"hit"').length;
    const before = hits();
    const again = async (path: string) => {
      const res = await view(path, path === `/${id}` ? DESKTOP : PHONE, undefined, "en");
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    };
    for (const path of [`/product/${id}`, `/${id}`, `/${id}`]) await again(path);
    // A page is stored once its answer has finished; on a loaded machine (CI) the next
    // request can come first, so the short URL is asked again until the cache answers.
    let extra = 0;
    await expect
      .poll(
        async () => {
          if (hits() > before) return true;
          extra++;
          await again(`/${id}`);
          return hits() > before;
        },
        { timeout: 5000, interval: 100 },
      )
      .toBe(true);
    // Every view counts, the cached ones too.
    await expect.poll(() => scansOf(id), { timeout: 3000, interval: 100 }).toHaveLength(4 + extra);
    const rows = await scansOf(id);
    expect(rows.filter((r) => r.device === "desktop")).toHaveLength(2 + extra);
    expect(rows.filter((r) => r.lang === "sv")).toHaveLength(1);
  });

  it("a scan is written within a second, without the page waiting for it", async () => {
    const id = await item();
    await (await view(`/product/${id}`)).arrayBuffer();
    const started = Date.now();
    await expect.poll(() => scansOf(id), { timeout: 3000, interval: 25 }).toHaveLength(1);
    // At most one flush interval (1 s) plus the time the write itself takes.
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("the owner's own views are not logged; other signed-in users' are", async () => {
    const id = await item();
    for (let i = 0; i < 3; i++) await (await view(`/product/${id}`, PHONE, owner.cookie)).arrayBuffer();
    await (await view(`/product/${id}`, PHONE, other.cookie)).arrayBuffer();
    await flushed();
    expect(await scansOf(id)).toHaveLength(1);
  });

  it("bots and scripts are not counted as scans", async () => {
    const id = await item();
    for (const ua of [GOOGLEBOT, "curl/8.5.0", GOOGLEBOT]) await (await view(`/product/${id}`, ua)).arrayBuffer();
    await (await view(`/${id}`, "facebookexternalhit/1.1")).arrayBuffer();
    await flushed();
    expect(await scansOf(id)).toEqual([]);
  });

  it("the owner sees the last scans on their view of the item page and 'last scanned' on the dashboard", async () => {
    const id = await item({ name: "Scanned camera" });
    await (await view(`/product/${id}`, DESKTOP, undefined, "en")).arrayBuffer();
    await expect.poll(() => scansOf(id), { timeout: 3000, interval: 100 }).toHaveLength(1);
    const mine = await (await view(`/product/${id}`, PHONE, owner.cookie, "en")).text();
    expect(mine).toContain("Recent scans");
    expect(mine).toMatch(/<td>Computer<\/td><td>English<\/td>/);
    const theirs = await (await view(`/product/${id}`, PHONE, other.cookie, "en")).text();
    expect(theirs).not.toContain("Recent scans");
    const dashboard = await (await http().get("/dashboard", { cookie: owner.cookie, lang: "en" })).text();
    expect(dashboard).toContain("Last scanned");
  });

  it("the scans of the last second are written when the server shuts down", async () => {
    const id = await item();
    const second = await startServer(env);
    try {
      const res = await httpClient(second.url).get(`/product/${id}`, { headers: { "User-Agent": PHONE } });
      await res.arrayBuffer();
    } finally {
      // At once: well within the flush interval.
      expect(await second.stop("SIGTERM")).toBe(0);
    }
    expect(await scansOf(id)).toHaveLength(1);
  });
  it("a flush of more scans than one statement holds writes each one with its own time, language and device", async () => {
    const [a, b] = [await item(), await item()];
    const t0 = Date.now();
    // 5,050: more than one statement on either database (100 rows on SQLite, 5,000 on
    // PostgreSQL), and a last, shorter one.
    const events = Array.from({ length: 5050 }, (_, i) => ({
      itemId: i % 3 === 0 ? b : a,
      at: t0 - i,
      lang: i % 2 ? ("en" as const) : ("sv" as const),
      device: (["phone", "tablet", "desktop"] as const)[i % 3]!,
      paid: true,
    }));
    expect(await writeScanEvents(depsOf(rt), events)).toMatchObject({ scans: 5050 });
    const rows = await rt.database.db
      .selectFrom("item_scans")
      .select(["productId", "scannedAt", "lang", "device"])
      .where("productId", "in", [a, b])
      .execute();
    const key = (r: { productId: string; scannedAt: number; lang: string; device: string }) =>
      `${r.productId}|${Number(r.scannedAt)}|${r.lang}|${r.device}`;
    expect(rows.map(key).sort()).toEqual(
      events.map((e) => key({ productId: e.itemId, scannedAt: e.at, lang: e.lang, device: e.device })).sort(),
    );
  });
});

describe("the scan log without a foreign key (migration 0047, decision 042 point 18)", () => {
  const scan = (productId: string, at: number) => ({ productId, scannedAt: at, lang: "sv", device: "phone" });
  const countOf = async (ids: string[]) =>
    (await rt.database.db.selectFrom("item_scans").select("productId").where("productId", "in", ids).execute()).length;

  it("deleting items, by any statement, deletes their scans with them and no other item's", async () => {
    const [a, b, kept] = [await item(), await item(), await item()];
    const now = Date.now();
    await insertScans(rt.database.db, [scan(a, now), scan(a, now + 1), scan(b, now), scan(kept, now)], dialect());
    expect(await countOf([a, b, kept])).toBe(4);
    await rt.database.db.deleteFrom("products").where("id", "in", [a, b]).execute();
    expect(await countOf([a, b])).toBe(0);
    expect(await countOf([kept])).toBe(1);
  });

  it("a flush's scans of an item deleted after the flush looked it up are not written", async () => {
    const [gone, kept] = [await item(), await item()];
    await rt.database.db.deleteFrom("products").where("id", "=", gone).execute();
    const now = Date.now();
    await insertScans(rt.database.db, [scan(gone, now), scan(kept, now), scan(gone, now + 1)], dialect());
    if (rt.database.writer) await insertScansOnWriter(rt.database.writer, [scan(gone, now + 2), scan(kept, now + 2)]);
    expect(await countOf([gone])).toBe(0);
    expect(await countOf([kept])).toBe(rt.database.writer ? 2 : 1);
  });

  it.runIf(usingPostgres())(
    "PostgreSQL: a scan insert and the deletion of its item, racing, never leave a scan behind",
    async () => {
      const pool = new pg.Pool({ connectionString: db.url, max: 2 });
      try {
        // The insert first: the deletion waits for it, then its trigger sees the new rows.
        const first = await item();
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let inserted!: () => void;
        const didInsert = new Promise<void>((resolve) => (inserted = resolve));
        const inserting = rt.database.db.transaction().execute(async (trx) => {
          await insertScans(trx, [scan(first, Date.now())], "postgres");
          inserted();
          await held;
        });
        await didInsert;
        let deletedEarly = false;
        const deleting = pool.query("delete from products where id = $1", [first]).then(() => (deletedEarly = true));
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(deletedEarly).toBe(false);
        release();
        await inserting;
        await deleting;
        expect(await countOf([first])).toBe(0);

        // The deletion first: the insert waits for it, then finds no item and writes nothing.
        const second = await item();
        const deleter = await pool.connect();
        await deleter.query("begin");
        await deleter.query("delete from products where id = $1", [second]);
        let writtenEarly = false;
        const written = insertScans(rt.database.db, [scan(second, Date.now())], "postgres").then(
          () => (writtenEarly = true),
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(writtenEarly).toBe(false);
        await deleter.query("commit");
        deleter.release();
        await written;
        expect(await countOf([second])).toBe(0);
      } finally {
        await pool.end();
      }
    },
  );
});

describe("scan alerts", () => {
  it("an item with scan alerts mails its owner once, however many scans arrive within the hour", async () => {
    const id = await item({ scanAlerts: true, name: "Alert guitar" });
    for (let i = 0; i < 3; i++) await (await view(`/product/${id}`)).arrayBuffer();
    await flushed();
    await (await view(`/${id}`)).arrayBuffer();
    await flushed();
    const mails = (await mailsTo(owner.email)).filter((m) => m.subject.includes("Alert guitar"));
    expect(mails.map((m) => m.subject)).toEqual(["Din sak ”Alert guitar” har skannats"]);
    expect(mails[0]!.text).toContain(`/product/${id}`);
  });

  it("two instances' flushes racing for one item send one mail (conditional UPDATE in the database)", async () => {
    const id = await item({ scanAlerts: true, name: "Race kettle" });
    // Two connection pools on PostgreSQL (two instances). SQLite is one server per file, and
    // two synchronous connections in one test process would wait on each other.
    const second = usingPostgres() ? await createTestRuntime({ ...env, BASE_URL: server.url }) : null;
    try {
      const event = { itemId: id, at: Date.now(), lang: "en" as const, device: "phone" as const, paid: true };
      await Promise.all([
        writeScanEvents(depsOf(rt), [event]),
        writeScanEvents(depsOf(second ?? rt), [event]),
        writeScanEvents(depsOf(rt), [event]),
      ]);
    } finally {
      await second?.database.close();
    }
    const mails = (await mailsTo(owner.email)).filter((m) => m.subject.includes("Race kettle"));
    expect(mails).toHaveLength(1);
  });

  it("a scan of an unpaid item tells the owner once a day, and the finder how to hand it in", async () => {
    const id = await item({ paid: false, name: "Unpaid scarf" });
    const page = await (await view(`/product/${id}`, PHONE, undefined, "en")).text();
    expect(page).toContain("not paid");
    // The printed sticker code, never the internal id.
    const row = await rt.database.db
      .selectFrom("products")
      .select("code")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const code = `${row.code.slice(0, 3)}-${row.code.slice(3, 6)}-${row.code.slice(6)}`;
    expect(page).toContain(`sticker code ${code}`);
    expect(page).toContain(`href="/contact?item=${code}"`);
    await (await view(`/${id}`)).arrayBuffer();
    await flushed();
    const mails = (await mailsTo(owner.email)).filter((m) => m.subject.includes("Unpaid scarf"));
    expect(mails.map((m) => m.subject)).toEqual(["Någon skannade ”Unpaid scarf”, men klistermärket är inte aktiverat"]);
    expect(await scansOf(id)).toEqual([]);
    const contact = await (await http().get(`/contact?item=${code}`, { lang: "en" })).text();
    expect(contact).toContain(`I have found an item with the sticker code ${code}.`);
    // An internal id is no sticker code: no prefill.
    const byId = await (await http().get(`/contact?item=${id}`, { lang: "en" })).text();
    expect(byId).not.toContain("I have found an item with the sticker code");
  });
});

describe("lost mode", () => {
  it("the cached finder page shows the banner at once when the owner marks the item lost, and drops it when found", async () => {
    const id = await item({ name: "Lost umbrella" });
    const anon = () => view(`/product/${id}`, GOOGLEBOT, undefined, "en").then((r) => r.text());
    expect(await anon()).not.toContain("This item is lost");
    expect(await anon()).not.toContain("This item is lost"); // now cached
    const on = await http().post(`/product/${id}/lost`, { lost: "1", back: "item" }, { cookie: owner.cookie });
    expect(on.status).toBe(302);
    expect(on.headers.get("location")).toBe(`/product/${id}`);
    const lost = await anon();
    expect(lost).toContain("This item is lost");
    expect(lost).toMatch(/The owner offers a reward of 200\s?kr/);
    const sv = await (await view(`/${id}`, GOOGLEBOT, undefined, "sv")).text();
    expect(sv).toContain("Den här saken är borttappad");
    const off = await http().post(`/product/${id}/lost`, { lost: "0", back: "dashboard" }, { cookie: owner.cookie });
    expect(off.headers.get("location")).toBe("/dashboard");
    expect(await anon()).not.toContain("This item is lost");
  });

  it("another user cannot mark someone's item lost (404, nothing changes); bad input is a 400", async () => {
    const id = await item();
    const res = await http().post(`/product/${id}/lost`, { lost: "1" }, { cookie: other.cookie });
    expect(res.status).toBe(404);
    const row = await rt.database.db.selectFrom("products").select("lostAt").where("id", "=", id).executeTakeFirst();
    expect(row?.lostAt).toBeNull();
    const bad = await http().post(`/product/${id}/lost`, { lost: "maybe" }, { cookie: owner.cookie });
    expect(bad.status).toBe(400);
  });

  it("while lost every scan alerts, at most one mail per 10 minutes", async () => {
    const id = await item({ name: "Lost wallet" });
    await http().post(`/product/${id}/lost`, { lost: "1", back: "item" }, { cookie: owner.cookie });
    await (await view(`/product/${id}`)).arrayBuffer();
    await (await view(`/product/${id}`)).arrayBuffer();
    await flushed();
    const mails = (await mailsTo(owner.email)).filter((m) => m.subject.includes("Lost wallet"));
    expect(mails.map((m) => m.subject)).toEqual(["Din borttappade sak ”Lost wallet” har skannats"]);
  });
});
