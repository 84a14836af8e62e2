/**
 * Sticker fulfilment (decision 015) over HTTP against the production server and a real
 * database (SQLite, or PostgreSQL with DATABASE_URL): admin-only queue and PDFs, the
 * sticker sheet's QR codes decoded from the rendered pages, address labels as text, mark
 * shipped (one mail, the owner's language, the dashboard), /find and its rate limit,
 * replacement stickers (410 for the old sticker, one per 6 months), and the migration's
 * back-fill of codes.
 */
import { sql, type Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { formatStickerCode, isStickerCode } from "../../app/lib/domain/sticker-code";
import { parseDatabaseConfig } from "../../app/server/config.server";
import { migrateToLatest, openDatabase } from "../../app/server/db/db.server";
import { migrations } from "../../app/server/db/migrations";
import { FIND_RATE_RULE, selectedShipments } from "../../app/server/fulfil/fulfil.service.server";
import { labelOrigin, QR_BOX } from "../../app/server/fulfil/sticker-pdf.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { decodeQrIn, pdfFonts, pdfPageCount, pdfPages, pdfToText } from "../support/pdf";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

const label = usingPostgres() ? "PostgreSQL" : "SQLite";
const ADMIN_EMAIL = "staff-fulfil@example.test";

const ADDRESS = {
  firstname: "Åsa",
  lastname: "Öberg",
  email: "asa@example.test",
  co: "Märta Ängström",
  address: "Storgatan 1 <script>alert(1)</script>",
  address2: "",
  city: "Göteborg",
  state: "",
  zip: "411 01",
  country: "Sverige",
};

// Generous timeouts: each test pays orders and renders PDFs, on shared 2-core machines.
describe(`sticker fulfilment on ${label}`, { timeout: 120_000 }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  let admin: TestUser;
  const { get, post } = httpClient(() => server.url);

  beforeAll(async () => {
    db = await createTestDatabase("fulfil");
    const env = testEnv(db, { TRUST_PROXY: "1", ADMIN_EMAILS: ADMIN_EMAIL });
    server = await startServer(env);
    rt = await createTestRuntime({ ...env, BASE_URL: server.url });
    admin = await createUser(rt, { name: "Staff Member", email: ADMIN_EMAIL });
  });
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
  });

  /** An owner with `names.length` items paid in one order; returns the order and items. */
  async function paidOrder(names: string[], opts: { lang?: "en" | "sv"; name?: string } = {}) {
    const lang = opts.lang ?? "en";
    const owner = await createUser(rt, { name: opts.name ?? "Åsa Öberg", language: lang });
    await keepOrderAddress(depsOf(rt), owner.id, { ...ADDRESS, email: owner.email }, false);
    const items: string[] = [];
    for (const name of names) {
      items.push(
        await createItem(
          depsOf(rt),
          owner.id,
          { name, findFee: 100, prodType: "other", contactInfo: "070-1", payment: "year", intent: "payLater" },
          lang,
        ),
      );
    }
    const order = await createOrder(depsOf(rt), { userId: owner.id, itemIds: items, period: "year", lang });
    await completeTestPayment(depsOf(rt), { userId: owner.id, orderId: order.id });
    const shipment = await rt.database.db
      .selectFrom("sticker_shipments")
      .selectAll()
      .where("orderId", "=", order.id)
      .executeTakeFirstOrThrow();
    return { owner, orderId: order.id, items, shipmentId: shipment.id };
  }

  const codeOf = async (id: string) =>
    (await rt.database.db.selectFrom("products").select("code").where("id", "=", id).executeTakeFirstOrThrow()).code;
  const mailsTo = (to: string) =>
    rt.database.db.selectFrom("mail_outbox").selectAll().where("to", "=", to).orderBy("createdAt").execute();
  const pdfOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

  it("non-admins get 404 on every admin route and PDF, and their mark-shipped changes nothing", async () => {
    const { owner, orderId, shipmentId } = await paidOrder(["Keys"]);
    const other = await createUser(rt, { name: "Other Person" });
    const unverified = await createUser(rt, {
      name: "Not Yet",
      email: "staff-unverified@example.test",
      verified: false,
    });
    for (const cookie of [undefined, owner.cookie, other.cookie, unverified.cookie]) {
      const opts = cookie ? { cookie } : {};
      expect((await get("/admin/shipments", opts)).status).toBe(404);
      expect((await get("/admin/shipments?status=shipped", opts)).status).toBe(404);
      expect((await get(`/admin/shipments/stickers.pdf?orders=${orderId}`, opts)).status).toBe(404);
      expect((await get(`/admin/shipments/labels.pdf?shipments=${shipmentId}`, opts)).status).toBe(404);
      const res = await post("/admin/shipments", { intent: "ship", shipments: shipmentId, tracking: "X1" }, opts);
      expect(res.status).toBe(404);
    }
    // A forged request from another site, even with the admin's cookie, is refused too.
    const forged = await post(
      "/admin/shipments",
      { intent: "ship", shipments: shipmentId },
      { cookie: admin.cookie, origin: "https://evil.example" },
    );
    expect(forged.status).toBe(403);
    const row = await rt.database.db
      .selectFrom("sticker_shipments")
      .selectAll()
      .where("id", "=", shipmentId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("pending");
    expect(row.shippedAt).toBeNull();
    expect((await mailsTo(owner.email)).filter((m) => m.subject.includes("on their way"))).toHaveLength(0);
    // The admin sees the queue and a link to it in the user menu.
    const page = await get("/admin/shipments", { cookie: admin.cookie });
    expect(page.status).toBe(200);
    expect(await (await get("/dashboard", { cookie: admin.cookie })).text()).toContain('href="/admin/shipments"');
    expect(await (await get("/dashboard", { cookie: other.cookie })).text()).not.toContain('href="/admin/shipments"');
  });

  it("the queue lists paid, unshipped orders oldest first with owner, address, items and package", async () => {
    const first = await paidOrder(["Queue bag A"], { name: "Queue Owner One" });
    const second = await paidOrder(["Queue bag B", "Queue keys B", "Queue phone B"], { name: "Queue Owner Two" });
    // An order that is not paid makes no shipment and is not listed.
    const unpaidOwner = await createUser(rt, { name: "Queue Unpaid" });
    await keepOrderAddress(depsOf(rt), unpaidOwner.id, { ...ADDRESS, email: unpaidOwner.email }, false);
    const unpaidItem = await createItem(
      depsOf(rt),
      unpaidOwner.id,
      {
        name: "Queue unpaid item",
        findFee: 1,
        prodType: "other",
        contactInfo: "x",
        payment: "year",
        intent: "payLater",
      },
      "en",
    );
    await createOrder(depsOf(rt), { userId: unpaidOwner.id, itemIds: [unpaidItem], period: "year", lang: "en" });

    const html = await (await get("/admin/shipments", { cookie: admin.cookie })).text();
    const a = html.indexOf("Queue Owner One");
    const b = html.indexOf("Queue Owner Two");
    expect(a).toBeGreaterThan(-1);
    expect(b).toBeGreaterThan(a);
    expect(html).not.toContain("Queue unpaid item");
    expect(html).toContain("Queue bag A");
    expect(html).toContain(formatStickerCode(await codeOf(second.items[2]!)));
    expect(html).toContain("3 stickers");
    expect(html).toContain("Göteborg");
    // The address is text: the stored markup is escaped, never a tag.
    expect(html).toContain("Storgatan 1 &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)</script>");

    // Shipped ones leave the pending list and appear under "shipped".
    const done = await post(
      "/admin/shipments",
      { intent: "ship", shipments: first.shipmentId },
      { cookie: admin.cookie },
    );
    expect(done.status).toBe(302);
    const pending = await (await get("/admin/shipments?status=pending", { cookie: admin.cookie })).text();
    expect(pending).not.toContain("Queue Owner One");
    expect(pending).toContain("Queue Owner Two");
    const shipped = await (await get("/admin/shipments?status=shipped", { cookie: admin.cookie })).text();
    expect(shipped).toContain("Queue Owner One");
    expect(shipped).not.toContain("Queue Owner Two");
  });

  it("the sticker sheet: A4, every QR code decodes to the item's exact short URL, codes and Swedish text in the PDF, fonts embedded", async () => {
    const en = await paidOrder(["Sheet one", "Sheet two", "Sheet three"], { lang: "en" });
    const sv = await paidOrder(["Ark ett"], { lang: "sv" });
    const res = await get(`/admin/shipments/stickers.pdf?orders=${en.orderId},${sv.orderId}`, { cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const pdf = await pdfOf(res);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfToText(pdf).replace(/\s+/g, " ");
    const items = [...en.items, ...sv.items];
    for (const id of items) expect(text).toContain(formatStickerCode(await codeOf(id)));
    expect(text).toContain("Found me? Scan or visit");
    expect(text).toContain("Hittat mig? Skanna eller besök");
    expect(text).toContain("och skriv in koden.");
    const fonts = pdfFonts(pdf);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((f) => f.embedded)).toBe(true);

    const dpi = 200;
    const [page] = pdfPages(pdf, dpi);
    expect(page!.width).toBe(Math.round((210 / 25.4) * dpi));
    // Two orders share the sheet: a separator card (no QR code) precedes each (decision 032).
    const cells = items.length + 2;
    const decoded = Array.from({ length: cells }, (_, i) => {
      const at = labelOrigin(i);
      return decodeQrIn(page!, dpi, {
        x: at.x + QR_BOX.x,
        y: at.y + QR_BOX.y,
        width: QR_BOX.size,
        height: QR_BOX.size,
      });
    });
    expect(decoded.filter((d) => d === null)).toHaveLength(2);
    expect(decoded[0]).toBeNull();
    // Items made in the same millisecond have no defined order, so compare as sets.
    expect(decoded.filter((d) => d !== null).sort()).toEqual(
      items.map((id) => `${server.url.replace(/\/$/, "")}/${id}`).sort(),
    );
  });

  it("address labels: the order's address as text (markup inert, å ä ö intact), one label per shipment", async () => {
    const { shipmentId } = await paidOrder(["Label item"]);
    const res = await get(`/admin/shipments/labels.pdf?shipments=${shipmentId}`, { cookie: admin.cookie });
    expect(res.status).toBe(200);
    const text = pdfToText(await pdfOf(res)).replace(/\s+/g, " ");
    expect(text).toContain("Åsa Öberg");
    expect(text).toContain("c/o Märta Ängström");
    // Long lines wrap on the label: compare without the line breaks.
    expect(text.replace(/\s+/g, "")).toContain("Storgatan1<script>alert(1)</script>");
    expect(text).toContain("411 01 Göteborg");
    // Posted from Sweden: a domestic label has no country line (decision 032).
    expect(text).not.toContain("Sverige");
  });

  it("PDF selections: none, malformed or unknown ids are 4xx, never 500", async () => {
    const opts = { cookie: admin.cookie };
    expect((await get("/admin/shipments/stickers.pdf", opts)).status).toBe(400);
    expect((await get("/admin/shipments/stickers.pdf?orders=%3Cx%3E", opts)).status).toBe(400);
    expect((await get("/admin/shipments/labels.pdf?shipments=nope", opts)).status).toBe(404);
    const none = await post("/admin/shipments", { intent: "ship" }, opts);
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("Select at least one order.");
  });

  it("mark shipped records who and when, mails the owner once in their language, and the dashboard shows it", async () => {
    const { owner, shipmentId } = await paidOrder(["Ryggsäck"], { lang: "sv" });
    const before = (await mailsTo(owner.email)).length;
    const bad = await post(
      "/admin/shipments",
      { intent: "ship", shipments: shipmentId, tracking: "<b>" },
      { cookie: admin.cookie },
    );
    expect(bad.status).toBe(400);
    for (let i = 0; i < 2; i++) {
      const res = await post(
        "/admin/shipments",
        { intent: "ship", shipments: shipmentId, tracking: "RR123456785SE" },
        { cookie: admin.cookie },
      );
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/admin/shipments?status=pending&done=${i === 0 ? 1 : 0}`);
    }
    const row = await rt.database.db
      .selectFrom("sticker_shipments")
      .selectAll()
      .where("id", "=", shipmentId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("shipped");
    expect(row.shippedBy).toBe(admin.id);
    expect(row.trackingNumber).toBe("RR123456785SE");
    expect(Number(row.shippedAt)).toBeGreaterThan(Date.now() - 60_000);
    const mails = (await mailsTo(owner.email)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Dina klistermärken är på väg");
    expect(mails[0]!.text).toContain("Kolli-id: RR123456785SE");
    // What is in the envelope and where to follow it (decision 032).
    const [shipment] = await selectedShipments(depsOf(rt), { shipments: [shipmentId], orders: [] });
    const item = shipment!.items[0];
    expect(mails[0]!.text).toContain(`I kuvertet finns 1 klistermärke:\n- Ryggsäck (${formatStickerCode(item!.code)})`);
    expect(mails[0]!.text).toContain(
      "Följ försändelsen hos PostNord: https://tracking.postnord.com/se/?id=RR123456785SE",
    );
    const dashboard = await (await get("/dashboard", { cookie: owner.cookie, lang: "sv" })).text();
    expect(dashboard).toContain("Dina klistermärken");
    expect(dashboard).toMatch(/Skickad den \d/);
    expect(dashboard).toContain("Kolli-id: RR123456785SE");
    expect(dashboard).toContain('href="https://tracking.postnord.com/se/?id=RR123456785SE"');
  });

  it("a sticker sheet shared by several orders has a separator card before each order's stickers (issue #32 point 16)", async () => {
    const a = await paidOrder(["Sheet A1", "Sheet A2"], { name: "Olle Först" });
    const b = await paidOrder(["Sheet B1"], { name: "Petra Sist" });
    const shared = await get(`/admin/shipments/stickers.pdf?shipments=${a.shipmentId},${b.shipmentId}`, {
      cookie: admin.cookie,
    });
    expect(shared.status).toBe(200);
    const text = pdfToText(await pdfOf(shared)).replace(/\s+/g, " ");
    expect(text.match(/Nästa beställning/g)).toHaveLength(2);
    expect(text).toContain("Olle Först");
    expect(text).toContain("2 klistermärken följer");
    expect(text).toContain("Petra Sist");
    expect(text).toContain("1 klistermärke följer");
    // One order alone needs no separator.
    const single = await get(`/admin/shipments/stickers.pdf?shipments=${a.shipmentId}`, { cookie: admin.cookie });
    expect(pdfToText(await pdfOf(single))).not.toContain("Nästa beställning");
  });

  it("/find takes the code in any case, with spaces and dashes, to the item page; wrong codes get a message", async () => {
    const { items } = await paidOrder(["Find me"]);
    const code = await codeOf(items[0]!);
    const typed = ` ${code.slice(0, 3).toLowerCase()} ${code.slice(3, 6)}-${code.slice(6).toLowerCase()} `;
    const res = await get(`/find?code=${encodeURIComponent(typed)}`, { ip: "10.1.0.1" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/product/${items[0]}`);

    const form = await get("/find", { ip: "10.1.0.1" });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Found something? Enter the code from the sticker");
    const invalid = await get("/find?code=hello", { ip: "10.1.0.1", lang: "sv" });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("Det ser inte ut som en kod från ett klistermärke.");
    const unknown = await get("/find?code=222-222-222", { ip: "10.1.0.1" });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("No sticker has that code.");
    // The home page and the 404 page carry the form, a plain GET to /find.
    for (const path of ["/", "/no/such/page"]) {
      const html = await (await get(path, { lang: "sv" })).text();
      expect(html).toContain("Hittat något? Skriv in koden från klistermärket");
      expect(html).toMatch(/<form[^>]*action="\/find" method="get"/);
    }
  });

  it("code lookups are rate-limited per IP with a translated 429", async () => {
    const ip = "10.2.0.7";
    for (let i = 0; i < FIND_RATE_RULE.limit; i++) {
      expect((await get("/find?code=222-222-223", { ip })).status).toBe(404);
    }
    const limited = await get("/find?code=222-222-223", { ip, lang: "sv" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain("För många försök.");
    // Another address is not affected.
    expect((await get("/find?code=222-222-223", { ip: "10.2.0.8" })).status).toBe(404);
  });

  it("a replacement with a new code: the old URL and code answer 410, the new ones work, one per 6 months", async () => {
    const { owner, items, orderId } = await paidOrder(["Replaced phone"]);
    const oldId = items[0]!;
    const oldCode = await codeOf(oldId);
    // Warm the finder-page cache with the old page: the replacement must make it forget it.
    expect((await get(`/${oldId}`)).status).toBe(200);
    const page = await get(`/product/${oldId}/replacement`, { cookie: owner.cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Keep the same code");
    const res = await post(`/product/${oldId}/replacement`, { mode: "newCode" }, { cookie: owner.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard");

    const moved = await rt.database.db
      .selectFrom("order_items")
      .select("productId")
      .where("orderId", "=", orderId)
      .executeTakeFirstOrThrow();
    const newId = moved.productId;
    expect(newId).not.toBe(oldId);
    const newCode = await codeOf(newId);
    expect(newCode).not.toBe(oldCode);
    for (const path of [`/${oldId}`, `/product/${oldId}`]) {
      const gone = await get(path, { lang: "sv" });
      expect(gone.status).toBe(410);
      expect(await gone.text()).toContain("Det här klistermärket har ersatts");
    }
    expect((await get(`/find?code=${oldCode}`, { ip: "10.3.0.1" })).status).toBe(410);
    expect((await get(`/${newId}`)).status).toBe(200);
    expect((await get(`/find?code=${newCode}`, { ip: "10.3.0.1" })).headers.get("location")).toBe(`/product/${newId}`);
    // The replacement waits in the staff queue.
    const queue = await (await get("/admin/shipments", { cookie: admin.cookie })).text();
    expect(queue).toContain(formatStickerCode(newCode));
    expect(queue).toContain("Replacement (new code)");
    // A second one within 6 months is refused (the rule is the service's, not the form's).
    const again = await post(`/product/${newId}/replacement`, { mode: "reprint" }, { cookie: owner.cookie });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already had its free replacement");
    // Another user cannot order one for the item.
    const other = await createUser(rt, { name: "Someone Else" });
    expect((await post(`/product/${newId}/replacement`, { mode: "reprint" }, { cookie: other.cookie })).status).toBe(
      404,
    );
  });
});

describe(`migration 0008 on ${label}`, () => {
  it("back-fills a unique, well-formed code for every existing item", async () => {
    const target = await createTestDatabase("fulfil_migrate", { empty: true });
    const handle = openDatabase(parseDatabaseConfig({ DATABASE_URL: target.url } as NodeJS.ProcessEnv));
    const db = handle.db as unknown as Kysely<any>;
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0008"));
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => before },
        migrationTableName: "kysely_migration",
        migrationLockTableName: "kysely_migration_lock",
      });
      const r = await migrator.migrateToLatest();
      expect(r.error).toBeUndefined();
      const now = Date.now();
      await db
        .insertInto("user")
        .values({
          id: "u1",
          name: "Old Owner",
          email: "old@example.test",
          emailVerified: sql`false`,
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        })
        .execute();
      const ids = Array.from({ length: 40 }, (_, i) => `OldItem${String(i).padStart(3, "0")}`);
      for (const id of ids) {
        await db
          .insertInto("products")
          .values({
            id,
            owner: "u1",
            name: id,
            findFee: 0,
            currency: "SEK",
            prodType: "other",
            contactInfo: "",
            payment: "year",
            payed: 0,
            paidUntil: null,
            createdAt: now,
            updatedAt: now,
          })
          .execute();
      }
      await migrateToLatest(db);
      const rows = await db.selectFrom("products").select(["id", "code"]).execute();
      expect(rows).toHaveLength(40);
      expect(rows.every((r: { code: string }) => isStickerCode(r.code))).toBe(true);
      expect(new Set(rows.map((r: { code: string }) => r.code)).size).toBe(40);
      // The unique index holds from now on.
      await expect(
        db.updateTable("products").set({ code: rows[0]!.code }).where("id", "=", rows[1]!.id).execute(),
      ).rejects.toThrow();
    } finally {
      await handle.close();
      await target.drop();
    }
  });
});
