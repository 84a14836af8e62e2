/**
 * Items rules over HTTP against the production server and a real database (SQLite, or
 * PostgreSQL with DATABASE_URL): ids, product form validation and save flow, ownership
 * of edit/update, the dashboard, the public item page and its short URL, the address form.
 */
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isItemPaid } from "../../app/lib/domain/paid";
import { createItem } from "../../app/server/items/items.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { httpClient } from "../support/http";
import { decodeQrPng, decodeQrSvg } from "../support/qr";
import { createUser, type TestUser } from "../support/users";
import { depsOf } from "../support/deps";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  db = await createTestDatabase("items");
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  alice = await createUser(rt, { name: "Alice Andersson" });
  bob = await createUser(rt, { name: "Bob Berg" });
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

const { get, post } = httpClient(() => server.url);

const valid = {
  name: "Black phone",
  findFee: "200",
  prodType: "mobile",
  contactInfo: "Call 070-123\nor mail",
  payment: "year",
};

async function product(id: string) {
  return rt.database.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
}

async function newItem(owner: TestUser, over: Partial<typeof valid> = {}, lang: "en" | "sv" = "en") {
  const v = { ...valid, ...over };
  return createItem(
    depsOf(rt),
    owner.id,
    {
      name: v.name,
      findFee: Number(v.findFee),
      prodType: v.prodType as "mobile",
      contactInfo: v.contactInfo,
      payment: v.payment as "year",
      intent: "payLater",
    },
    lang,
  );
}

async function setPaid(id: string, paidUntil: number | null) {
  await rt.database.db.updateTable("products").set({ payed: 1, paidUntil }).where("id", "=", id).execute();
}

async function countProducts(owner: string) {
  const r = await rt.database.db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("owner", "=", owner)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function namelessUser() {
  const u = await createUser(rt, { name: "Temp Name" });
  await rt.database.db.updateTable("user").set({ name: "" }).where("id", "=", u.id).execute();
  return u;
}

describe(`items on ${usingPostgres() ? "PostgreSQL" : "SQLite"}`, () => {
  describe("paid rule", () => {
    it("an item is paid only when payed=1 and paidUntil is unset or in the future", () => {
      const now = 1_000_000;
      expect(isItemPaid({ payed: false, paidUntil: null }, now)).toBe(false);
      expect(isItemPaid({ payed: false, paidUntil: now + 1 }, now)).toBe(false);
      expect(isItemPaid({ payed: true, paidUntil: null }, now)).toBe(true);
      expect(isItemPaid({ payed: true, paidUntil: now + 1 }, now)).toBe(true);
      expect(isItemPaid({ payed: true, paidUntil: now }, now)).toBe(false);
    });
  });

  describe("product form (/product/register)", () => {
    it("anonymous visitors are sent to /login and cannot create items", async () => {
      const res = await get("/product/register");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/login");
      const p = await post("/product/register", valid);
      expect(p.status).toBe(302);
      expect(p.headers.get("location")).toBe("/login");
    });

    it("users without a name are sent to /", async () => {
      const u = await namelessUser();
      expect((await get("/product/register", { cookie: u.cookie })).headers.get("location")).toBe("/");
      const p = await post("/product/register", valid, { cookie: u.cookie });
      expect(p.headers.get("location")).toBe("/");
      expect(await countProducts(u.id)).toBe(0);
    });

    it("shows the form with the type placeholder, yearly payment by default and the total price", async () => {
      const html = await (await get("/product/register", { cookie: alice.cookie })).text();
      expect(html).toContain("Please select one");
      expect(html).toMatch(/id="product-payment-year"[^>]*checked/);
      // Live figures sit in their own elements (decision 057): compare the text a reader sees.
      expect(html.replace(/<[^>]+>/g, "")).toContain("Total price: €30");
      expect(html).toContain("Save and pay now");
      expect(html).toContain("Save and pay later");
      expect(html).not.toContain("Update info");
      expect(html).toContain("* Minimum term 6 months.");
      const sv = await (await get("/product/register", { cookie: alice.cookie, lang: "sv" })).text();
      expect(sv).toContain("Välj ett alternativ");
      expect(sv.replace(/<[^>]+>/g, "")).toContain("Totalpris: 300 kr");
    });

    it("save later stores the item under a 10-character alphanumeric id and goes to /dashboard", async () => {
      const before = await countProducts(alice.id);
      const res = await post(
        "/product/register",
        { ...valid, intent: "payLater", package: "tripple", payNow: "1" },
        {
          cookie: alice.cookie,
        },
      );
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/dashboard");
      expect(await countProducts(alice.id)).toBe(before + 1);
      const rows = await rt.database.db
        .selectFrom("products")
        .selectAll()
        .where("owner", "=", alice.id)
        .orderBy("createdAt", "desc")
        .execute();
      const row = rows[0]!;
      expect(row.id).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(row).toMatchObject({
        name: "Black phone",
        findFee: 200,
        currency: "EUR",
        prodType: "mobile",
        contactInfo: "Call 070-123\nor mail",
        payment: "year",
        payed: 0,
        paidUntil: null,
      });
      // `package` and `payNow` are not columns at all.
      expect(Object.keys(row)).not.toContain("package");
      expect(Object.keys(row)).not.toContain("payNow");
    });

    it("the Triple's three items on one page: a wrong block saves none and keeps all typed; then all three go to /order, preselected", async () => {
      const u = await createUser(rt, { name: "Tove Trippel" });
      const older = await newItem(u, { name: "Older umbrella" });
      const page = await (await get("/product/register?package=tripple", { cookie: u.cookie, lang: "sv" })).text();
      expect(page).toContain("Registrera dina tre saker");
      expect(page).toContain('name="name_3"');
      const blocks: Record<string, string> = { form: "tripple" };
      for (const [n, name] of [
        [1, "Phone"],
        [2, "Laptop"],
        [3, "Keys"],
      ] as const) {
        Object.assign(blocks, {
          [`name_${n}`]: name,
          [`findFee_${n}`]: "150",
          [`approxValue_${n}`]: "",
          [`prodType_${n}`]: n === 2 ? "laptop" : "other",
          [`contactInfo_${n}`]: `Call 070-12${n}`,
          [`contactVisibility_${n}`]: "private",
        });
      }
      const refused = await post(
        "/product/register?package=tripple",
        { ...blocks, findFee_2: "ten" },
        { cookie: u.cookie },
      );
      expect(refused.status).toBe(400);
      const html = await refused.text();
      expect(html).toContain("Nothing has been saved yet");
      expect(html).toMatch(/id="triple-2-findFee"[^>]*aria-invalid="true"/);
      expect(html).toMatch(/id="triple-3-name"[^>]*value="Keys"/);
      expect(html).toContain("Call 070-121");
      expect(await countProducts(u.id)).toBe(1);

      const saved = await post("/product/register?package=tripple", blocks, { cookie: u.cookie });
      expect(saved.status).toBe(302);
      expect(saved.headers.get("location")).toBe("/user/register-adress");
      const packageCookie = saved.headers.getSetCookie().find((c) => c.startsWith("hittad.package="))!;
      expect(packageCookie).toContain("tripple");
      const ids = (
        await rt.database.db
          .selectFrom("products")
          .select("id")
          .where("owner", "=", u.id)
          .where("id", "!=", older)
          .execute()
      ).map((r) => r.id);
      expect(ids).toHaveLength(3);
      const order = await (await get("/order", { cookie: `${u.cookie}; ${packageCookie.split(";")[0]}` })).text();
      const checkbox = (id: string) => order.match(new RegExp(`<input[^>]*id="order-item-${id}"[^>]*>`))?.[0] ?? "";
      for (const id of ids) expect(checkbox(id)).toContain("checked");
      expect(checkbox(older)).not.toBe("");
      expect(checkbox(older)).not.toContain("checked");
    });

    it("the finder's fee is stored in kr for a Swedish owner", async () => {
      const u = await createUser(rt, { name: "Sven Svensson" });
      await post("/product/register", { ...valid, intent: "payLater" }, { cookie: u.cookie, lang: "sv" });
      const row = await rt.database.db
        .selectFrom("products")
        .selectAll()
        .where("owner", "=", u.id)
        .executeTakeFirstOrThrow();
      expect(row.currency).toBe("SEK");
    });

    it("missing required fields are refused with translated messages next to the fields, input kept", async () => {
      const res = await post(
        "/product/register",
        { name: "", findFee: "", prodType: "", contactInfo: "", payment: "month" },
        {
          cookie: alice.cookie,
        },
      );
      expect(res.status).toBe(400);
      const html = await res.text();
      for (const m of [
        "Please enter a name.",
        "Please enter a finder&#x27;s fee.",
        "Please select a type.",
        "Please enter contact info.",
      ])
        expect(html).toContain(m);
      expect(html).toMatch(/id="product-payment-month"[^>]*checked/);
      const sv = await (
        await post(
          "/product/register",
          { name: "Kept name", findFee: "", prodType: "laptop", contactInfo: "" },
          {
            cookie: alice.cookie,
            lang: "sv",
          },
        )
      ).text();
      expect(sv).toContain("Ange en hittelön.");
      expect(sv).toContain("Ange kontaktuppgifter.");
      expect(sv).toContain('value="Kept name"');
      expect(sv).toMatch(/<option value="laptop" selected/);
    });

    it("enforces the bounds: name ≤ 80, contact info ≤ 500, whole fee 0–100000", async () => {
      const before = await countProducts(alice.id);
      const cases: Array<[Record<string, string>, string]> = [
        [{ name: "x".repeat(81) }, "The name can be at most 80 characters."],
        [{ contactInfo: "x".repeat(501) }, "The contact info can be at most 500 characters."],
        [{ findFee: "100001" }, "can be at most 100,000."],
        [{ findFee: "-1" }, "must be a whole number of 0 or more."],
        [{ findFee: "1.5" }, "must be a whole number of 0 or more."],
        [{ findFee: "abc" }, "must be a whole number of 0 or more."],
        [{ prodType: "car" }, "Please select a type."],
      ];
      for (const [over, message] of cases) {
        const res = await post("/product/register", { ...valid, ...over }, { cookie: alice.cookie });
        expect(res.status, JSON.stringify(over)).toBe(400);
        expect(await res.text()).toContain(message);
      }
      expect(await countProducts(alice.id)).toBe(before);
      const ok = await post(
        "/product/register",
        { ...valid, name: "x".repeat(80), findFee: "100000" },
        { cookie: alice.cookie },
      );
      expect(ok.status).toBe(302);
      const zero = await post("/product/register", { ...valid, findFee: "0" }, { cookie: alice.cookie });
      expect(zero.status).toBe(302);
    });

    it("pay now without an address remembers the item and goes to the address form", async () => {
      const u = await createUser(rt, { name: "Carl Carlsson" });
      const res = await post("/product/register", { ...valid, intent: "payNow" }, { cookie: u.cookie });
      const row = await rt.database.db
        .selectFrom("products")
        .select("id")
        .where("owner", "=", u.id)
        .executeTakeFirstOrThrow();
      // The address form carries the item on to /order (decision 051).
      expect(res.headers.get("location")).toBe(`/user/register-adress?item=${row.id}`);
      const draft = await rt.database.db
        .selectFrom("order_drafts")
        .selectAll()
        .where("userId", "=", u.id)
        .executeTakeFirstOrThrow();
      expect(draft.buy).toBe(row.id);
    });

    it("pay now with an address that has an email goes straight to /order", async () => {
      const u = await createUser(rt, { name: "Dora Dahl" });
      await rt.database.db
        .updateTable("user")
        .set({ adress: JSON.stringify({ firstname: "Dora", email: "dora@example.test" }) })
        .where("id", "=", u.id)
        .execute();
      const res = await post("/product/register", { ...valid, intent: "payNow" }, { cookie: u.cookie });
      expect(res.headers.get("location")).toMatch(/^\/order\?item=[A-Za-z0-9]+$/);
      const draft = await rt.database.db
        .selectFrom("order_drafts")
        .selectAll()
        .where("userId", "=", u.id)
        .executeTakeFirstOrThrow();
      expect(draft.buy).toMatch(/^[A-Za-z0-9]{10}$/);
    });
  });

  describe("edit (/product/edit/{id})", () => {
    it("the owner gets the form prefilled", async () => {
      const id = await newItem(alice, { name: "Alice laptop", prodType: "laptop" });
      const res = await get(`/product/edit/${id}`, { cookie: alice.cookie });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('value="Alice laptop"');
      expect(html).toMatch(/<option value="laptop" selected/);
      expect(html).toContain("Save and pay now");
    });

    it("another user's id redirects to /dashboard, which shows 'Error load product' once", async () => {
      const id = await newItem(alice);
      const res = await get(`/product/edit/${id}`, { cookie: bob.cookie });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/dashboard");
      const flash = res.headers.get("set-cookie")!.split(";")[0]!;
      expect(flash).toBe("flash=errorLoadProduct");
      const dash = await get("/dashboard", { cookie: `${bob.cookie}; ${flash}` });
      const html = await dash.text();
      expect(html).toContain("Error load product");
      expect(html).not.toContain(valid.contactInfo.split("\n")[0]);
      expect(dash.headers.get("set-cookie")).toMatch(/^flash=;.*Max-Age=0/);
      const sv = await (await get("/dashboard", { cookie: `${bob.cookie}; ${flash}`, lang: "sv" })).text();
      expect(sv).toContain("Saken kunde inte laddas");
      // Without the flash cookie there is no message (it is decided by the server, once).
      expect(await (await get("/dashboard", { cookie: bob.cookie })).text()).not.toContain("Error load product");
    });

    it("an unknown or malformed id also goes to /dashboard with the error", async () => {
      for (const id of ["ZZZZZZZZZZ", "not-an-id"]) {
        const res = await get(`/product/edit/${id}`, { cookie: alice.cookie });
        expect(res.headers.get("location")).toBe("/dashboard");
        expect(res.headers.get("set-cookie")).toContain("flash=errorLoadProduct");
      }
    });

    it("a flash cookie with an unknown value shows nothing", async () => {
      const html = await (await get("/dashboard", { cookie: `${alice.cookie}; flash=<script>` })).text();
      expect(html).not.toContain("Error load product");
      expect(html).not.toContain("<script>");
    });

    it("anonymous visitors are sent to /login (read and update)", async () => {
      const id = await newItem(alice);
      expect((await get(`/product/edit/${id}`)).headers.get("location")).toBe("/login");
      const res = await post(`/product/edit/${id}`, { ...valid, name: "Hacked" });
      expect(res.headers.get("location")).toBe("/login");
      expect((await product(id))!.name).toBe(valid.name);
    });

    it("another user's forged update is refused (404) and changes nothing", async () => {
      const id = await newItem(alice);
      const before = await product(id);
      for (const intent of ["payLater", "payNow", "update"]) {
        const res = await post(`/product/edit/${id}`, { ...valid, name: "Hacked", intent }, { cookie: bob.cookie });
        expect(res.status).toBe(404);
      }
      expect(await product(id)).toEqual(before);
      const draft = await rt.database.db
        .selectFrom("order_drafts")
        .selectAll()
        .where("userId", "=", bob.id)
        .executeTakeFirst();
      expect(draft?.buy ?? null).toBeNull();
    });

    it("the owner's update is saved and goes to /dashboard", async () => {
      const id = await newItem(alice);
      const res = await post(
        `/product/edit/${id}`,
        {
          name: "Renamed",
          findFee: "50",
          prodType: "other",
          contactInfo: "new info",
          payment: "month",
          intent: "payLater",
        },
        { cookie: alice.cookie },
      );
      expect(res.headers.get("location")).toBe("/dashboard");
      expect(await product(id)).toMatchObject({
        name: "Renamed",
        findFee: 50,
        prodType: "other",
        contactInfo: "new info",
        payment: "month",
        currency: "EUR",
      });
    });

    it("invalid edits are refused with messages and change nothing", async () => {
      const id = await newItem(alice);
      const res = await post(`/product/edit/${id}`, { ...valid, name: "" }, { cookie: alice.cookie });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("Please enter a name.");
      expect((await product(id))!.name).toBe(valid.name);
    });

    it("a paid item offers only 'Update info' and keeps its payment choice", async () => {
      const id = await newItem(alice, { payment: "year" });
      await setPaid(id, null);
      const html = await (await get(`/product/edit/${id}`, { cookie: alice.cookie })).text();
      expect(html).toContain("Update info");
      expect(html).not.toContain("Save and pay now");
      expect(html).not.toContain("Save and pay later");
      expect(html).not.toContain("Total price");
      expect(html).not.toContain('name="payment"');
      const res = await post(
        `/product/edit/${id}`,
        { ...valid, name: "Paid renamed", payment: "month", intent: "payNow" },
        {
          cookie: alice.cookie,
        },
      );
      expect(res.headers.get("location")).toBe("/dashboard");
      expect(await product(id)).toMatchObject({ name: "Paid renamed", payment: "year", payed: 1 });
    });

    it("pay now from the edit form remembers that item", async () => {
      const u = await createUser(rt, { name: "Eva Ek" });
      const id = await newItem(u);
      const res = await post(`/product/edit/${id}`, { ...valid, intent: "payNow" }, { cookie: u.cookie });
      expect(res.headers.get("location")).toBe(`/user/register-adress?item=${id}`);
      const draft = await rt.database.db
        .selectFrom("order_drafts")
        .selectAll()
        .where("userId", "=", u.id)
        .executeTakeFirstOrThrow();
      expect(draft.buy).toBe(id);
    });
  });

  describe("dashboard", () => {
    it("anonymous visitors go to /login, users without a name to /", async () => {
      expect((await get("/dashboard")).headers.get("location")).toBe("/login");
      const u = await namelessUser();
      expect((await get("/dashboard", { cookie: u.cookie })).headers.get("location")).toBe("/");
    });

    it("shows an empty state when the user has no items", async () => {
      const u = await createUser(rt, { name: "Frida Fors" });
      const html = await (await get("/dashboard", { cookie: u.cookie })).text();
      expect(html).toContain("You have no items yet.");
      expect(html).not.toContain("unactivated");
    });

    it("lists only the user's own items, each with a QR code of the short {origin}/{id}, and counts the unactivated", async () => {
      const u = await createUser(rt, { name: "Gustav Gren" });
      const a = await newItem(u, { name: "Unpaid one" });
      const b = await newItem(u, { name: "Paid one" }, "sv");
      const c = await newItem(u, { name: "Expired one" });
      await setPaid(b, Date.now() + 86_400_000);
      await setPaid(c, Date.now() - 1000);
      const foreign = await newItem(bob, { name: "Bob's secret thing" });
      const html = await (await get("/dashboard", { cookie: u.cookie })).text();
      for (const id of [a, b, c]) {
        expect(html).toContain(`data-url="${server.url}/${id}"`);
        expect(html).toContain(`href="/product/edit/${id}"`);
        expect(html).toContain(`href="/product/${id}"`);
      }
      expect(html).not.toContain(foreign);
      expect(html).not.toContain("Bob&#x27;s secret thing");
      expect(html).toContain("You have 2 unactivated items.");
      expect(html).toContain('href="/order"');
      expect(html).toContain("200 kr");
      expect(html).toContain("€200");
      expect((html.match(/<img[^>]*class="item-qr/g) ?? []).length).toBe(3);
      // The cards show the small screen PNG, not an SVG document per card (decision 045).
      for (const id of [a, b, c]) expect(html).toContain(`src="/product/${id}/qr.png?screen"`);
    });

    it("an item's QR (SVG, PNG to print, small PNG for screens) decodes to the short {origin}/{id} of its sticker; 401 anonymous, 404 not yours", async () => {
      const id = await newItem(alice);
      const res = await get(`/product/${id}/qr.svg`, { cookie: alice.cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("image/svg+xml");
      expect(decodeQrSvg(await res.text())).toBe(`${server.url}/${id}`);
      const png = await get(`/product/${id}/qr.png?download`, { cookie: alice.cookie });
      expect(png.status).toBe(200);
      expect(png.headers.get("content-type")).toBe("image/png");
      expect(png.headers.get("content-disposition")).toMatch(/^attachment; filename="hittad-qr-[0-9A-Z-]+\.png"$/);
      expect(decodeQrPng(Buffer.from(await png.arrayBuffer()))).toBe(`${server.url}/${id}`);
      // The screen PNG (dashboard, /order): one pixel per module, the same code when scaled up.
      const screen = await get(`/product/${id}/qr.png?screen`, { cookie: alice.cookie });
      expect(screen.status).toBe(200);
      expect(screen.headers.get("content-type")).toBe("image/png");
      const small = Buffer.from(await screen.arrayBuffer());
      const { width, height } = PNG.sync.read(small);
      expect(height).toBe(width);
      expect(width).toBeLessThanOrEqual(4 + 41 + 4); // the quiet zone and at most a version-6 code
      expect(decodeQrPng(small, 8)).toBe(`${server.url}/${id}`);
      expect((await get(`/product/${id}/qr.png?screen`, { cookie: bob.cookie })).status).toBe(404);
      // A download is always the print-size PNG, whatever else the link carries.
      const saved = await get(`/product/${id}/qr.png?screen&download`, { cookie: alice.cookie });
      expect(saved.headers.get("content-disposition")).toMatch(/^attachment; /);
      expect(PNG.sync.read(Buffer.from(await saved.arrayBuffer())).width).toBe(1024);
      for (const ext of ["svg", "png"]) {
        expect((await get(`/product/${id}/qr.${ext}`, { cookie: bob.cookie })).status).toBe(404);
        const anonymous = await get(`/product/${id}/qr.${ext}`);
        expect(anonymous.status).toBe(401);
        expect(await anonymous.text()).toBe("");
        expect((await get(`/product/ZZZZZZZZZZ/qr.${ext}`, { cookie: alice.cookie })).status).toBe(404);
      }
    });
    it("a dashboard card keeps to view, edit and lost mode; the owner's item view manages the rest (issue #32 point 10)", async () => {
      const u = await createUser(rt, { name: "Karin Kort" });
      const paid = await newItem(u, { name: "Paid card" });
      const unpaid = await newItem(u, { name: "Unpaid card" });
      await setPaid(paid, Date.now() + 86_400_000);
      const html = await (await get("/dashboard", { cookie: u.cookie })).text();
      const cards = html.split(/<article [^>]*class="card h-100 item-card"/).slice(1);
      expect(cards).toHaveLength(2);
      for (const card of cards) {
        const body = card.slice(0, card.indexOf("</article>"));
        const controls = (body.match(/<a |<button /g) ?? []).length;
        // View, Edit and (paid or lost items) Mark as lost: nothing else on the card.
        expect(controls).toBeLessThanOrEqual(3);
        expect(body).not.toContain("/replacement");
        expect(body).not.toContain('name="intent"');
        expect(body).not.toContain("<dl");
      }
      const { code } = (await product(paid))!;
      const owner = await (await get(`/product/${paid}`, { cookie: u.cookie })).text();
      expect(owner).toContain('id="manage-title"');
      expect(owner).toContain(`href="/product/edit/${paid}"`);
      expect(owner).toContain(`href="/product/${paid}/replacement"`);
      expect(owner).toContain(`href="/product/${paid}/delete"`);
      expect(owner).toContain('aria-label="Switch off sticker: Paid card"');
      expect(owner.replace(/-/g, "")).toContain(code);
      // The unpaid item's view has no replacement (nothing printed to replace yet).
      const unpaidView = await (await get(`/product/${unpaid}`, { cookie: u.cookie })).text();
      expect(unpaidView).toContain('id="manage-title"');
      expect(unpaidView).not.toContain(`/product/${unpaid}/replacement`);
      // Finders and other users never get the manage section.
      for (const cookie of [undefined, bob.cookie]) {
        const view = await (await get(`/product/${paid}`, cookie ? { cookie } : {})).text();
        expect(view).not.toContain('id="manage-title"');
        expect(view).not.toContain(`/product/edit/${paid}`);
      }
    });

    it("switching a sticker off from the owner's item view returns there and says so", async () => {
      const u = await createUser(rt, { name: "Sven Switch" });
      const id = await newItem(u, { name: "Switch me" });
      const off = await post("/dashboard", { intent: "deactivate", itemId: id, back: "item" }, { cookie: u.cookie });
      expect(off.status).toBe(302);
      expect(off.headers.get("location")).toBe(`/product/${id}?switched=off`);
      expect((await product(id))!.active).toBeFalsy();
      const page = await (await get(`/product/${id}?switched=off`, { cookie: u.cookie })).text();
      expect(page).toContain("The sticker is switched off: finders see that it is not active.");
      expect(page).toContain('aria-label="Switch on sticker: Switch me"');
      // Someone else's item: not found, nothing changes.
      const foreign = await post(
        "/dashboard",
        { intent: "reactivate", itemId: id, back: "item" },
        { cookie: bob.cookie },
      );
      expect(foreign.status).toBe(404);
      expect((await product(id))!.active).toBeFalsy();
    });
    // 5,000 items, pages, filters and counters: tests/integration/dashboard-scale.test.ts (decision 021).
  });

  describe("item page (/product/{id} and /{id})", () => {
    it("an unknown id, a malformed id and a non-id short path are the 404 page", async () => {
      for (const path of [
        "/product/ZZZZZZZZZZ",
        "/product/short",
        "/ZZZZZZZZZZ",
        "/no-such-page",
        "/abcdefghi",
        "/abcdefghijk",
      ]) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        expect(await res.text()).toContain("Page not found");
      }
    });

    it("the short route does not shadow real routes", async () => {
      expect((await get("/dashboard")).headers.get("location")).toBe("/login");
      expect((await get("/product/register")).headers.get("location")).toBe("/login");
      expect((await get("/user/register-adress")).headers.get("location")).toBe("/login");
    });

    it("an unpaid item shows only 'not paid' to anonymous visitors and to other users", async () => {
      const id = await newItem(alice, { name: "Secret laptop", contactInfo: "alice-private-070" });
      for (const opts of [{}, { cookie: bob.cookie }]) {
        for (const path of [`/product/${id}`, `/${id}`]) {
          const res = await get(path, opts);
          expect(res.status).toBe(200);
          const html = await res.text();
          expect(html).toContain("This item is not paid.");
          expect(html).not.toContain("Secret laptop");
          expect(html).not.toContain("alice-private-070");
          expect(html).not.toContain("Finder&#x27;s fee");
        }
      }
      const sv = await (await get(`/${id}`, { lang: "sv" })).text();
      expect(sv).toContain("Den här saken är inte betald.");
    });

    it("the owner of an unpaid item sees the details with the 'not activated' warning and an Activate link to /order", async () => {
      const id = await newItem(alice, { name: "Own laptop", contactInfo: "alice-070" });
      const html = await (await get(`/product/${id}`, { cookie: alice.cookie })).text();
      expect(html).toContain("This item is not activated");
      expect(html).toMatch(/<a[^>]*href="\/order"[^>]*>Activate<\/a>/);
      expect(html).toContain("Own laptop");
      expect(html).toContain("alice-070");
    });

    it("a paid item is shown to everyone: fee with its sign, advice, type, name and contact info", async () => {
      const id = await newItem(
        alice,
        { name: "Blue bike", prodType: "other", findFee: "150", contactInfo: "Ring 070\nefter 17" },
        "sv",
      );
      await setPaid(id, Date.now() + 86_400_000);
      for (const path of [`/product/${id}`, `/${id}`]) {
        const res = await get(path);
        expect(res.status).toBe(200);
        expect(res.headers.get("cache-control")).toContain("no-store");
        const html = await res.text();
        expect(html).toContain("Finder&#x27;s fee: 150 kr");
        expect(html).toContain("Blue bike");
        expect(html).toContain("Type: Other");
        expect(html).toContain("Contact the owner");
        expect(html).toContain("Ring 070\nefter 17");
        expect(html).not.toContain("not activated");
      }
      const sv = await (await get(`/${id}`, { lang: "sv", cookie: bob.cookie })).text();
      expect(sv).toContain("Hittelön: 150 kr");
      expect(sv).toContain("Typ: Annat");
    });

    it("an item whose paid period ended is 'not paid' again for others", async () => {
      const id = await newItem(alice, { name: "Lapsed thing" });
      await setPaid(id, Date.now() - 1);
      const html = await (await get(`/${id}`)).text();
      expect(html).toContain("This item is not paid.");
      expect(html).not.toContain("Lapsed thing");
    });

    it("contact info and name with HTML render as inert text", async () => {
      const id = await newItem(alice, {
        name: "<img src=x onerror=alert(1)>",
        contactInfo: "<script>alert(1)</script>",
      });
      await setPaid(id, null);
      const html = await (await get(`/${id}`)).text();
      expect(html).not.toContain("<script>alert(1)</script>");
      expect(html).not.toContain("<img src=x");
      expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    });
  });

  describe("address form (/user/register-adress)", () => {
    it("anonymous visitors and users without a name go to /login", async () => {
      expect((await get("/user/register-adress")).headers.get("location")).toBe("/login");
      expect((await post("/user/register-adress", { email: "x@example.test" })).headers.get("location")).toBe("/login");
      const u = await namelessUser();
      expect((await get("/user/register-adress", { cookie: u.cookie })).headers.get("location")).toBe("/login");
      const p = await post("/user/register-adress", { email: "x@example.test", save: "on" }, { cookie: u.cookie });
      expect(p.headers.get("location")).toBe("/login");
      const row = await rt.database.db
        .selectFrom("user")
        .select("adress")
        .where("id", "=", u.id)
        .executeTakeFirstOrThrow();
      expect(row.adress).toBeNull();
    });

    it("is prefilled from the user's name (split at the first space) and email", async () => {
      const u = await createUser(rt, { name: "Anna Maria Lind" });
      const html = await (await get("/user/register-adress", { cookie: u.cookie })).text();
      expect(html).toMatch(/id="address-firstname"[^>]*value="Anna"/);
      expect(html).toMatch(/id="address-lastname"[^>]*value="Maria Lind"/);
      expect(html).toMatch(new RegExp(`id="address-email"[^>]*value="${u.email}"`));
    });

    it("submit keeps the address for the order (not on the profile) and goes to /order", async () => {
      const u = await createUser(rt, { name: "Ivar Ivarsson" });
      const address = {
        firstname: "Ivar",
        lastname: "Ivarsson",
        email: "ivar@example.test",
        co: "",
        address: "Gatan 1",
        address2: "",
        city: "Umeå",
        state: "",
        zip: "90330",
        country: "Sweden",
      };
      const res = await post("/user/register-adress", address, { cookie: u.cookie });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/order");
      const draft = await rt.database.db
        .selectFrom("order_drafts")
        .selectAll()
        .where("userId", "=", u.id)
        .executeTakeFirstOrThrow();
      // Stored as the post writes it, the country by its code (decision 032).
      expect(JSON.parse(draft.adress!)).toEqual({ ...address, zip: "903 30", country: "SE" });
      const user = await rt.database.db
        .selectFrom("user")
        .select("adress")
        .where("id", "=", u.id)
        .executeTakeFirstOrThrow();
      expect(user.adress).toBeNull();
      // The kept address prefills the form next time, and pay-now now goes to /order.
      const html = await (await get("/user/register-adress", { cookie: u.cookie })).text();
      expect(html).toMatch(/id="address-city"[^>]*value="Umeå"/);
      const pay = await post(
        "/product/register",
        { ...valid, payment: "month", intent: "payNow" },
        { cookie: u.cookie },
      );
      expect(pay.headers.get("location")).toMatch(/^\/order\?item=[A-Za-z0-9]+$/);
      // The address form posted with the item carries it on to /order (decision 051).
      const item = new URL(pay.headers.get("location")!, "http://x").searchParams.get("item")!;
      const again = await post(`/user/register-adress?item=${item}`, address, { cookie: u.cookie });
      expect(again.headers.get("location")).toBe(`/order?item=${item}`);
      // The order page ticks that item alone, monthly as the form chose.
      const order = await (await get(`/order?item=${item}`, { cookie: u.cookie })).text();
      expect(order.match(/<input[^>]*name="items"[^>]*checked[^>]*>/g) ?? []).toHaveLength(1);
      const input = (value: string) => order.match(new RegExp(`<input[^>]*value="${value}"[^>]*>`))?.[0] ?? "";
      expect(input(item)).toContain("checked");
      expect(input("month")).toContain("checked");
      expect(input("year")).not.toContain("checked");
    });

    it("with save ticked the address is also stored on the profile", async () => {
      const u = await createUser(rt, { name: "Jonna Jul" });
      const res = await post(
        "/user/register-adress",
        {
          firstname: "Jonna",
          email: "jonna@example.test",
          address: "Kyrkogatan 2",
          zip: "222 22",
          city: "Lund",
          country: "Sverige",
          save: "on",
        },
        { cookie: u.cookie },
      );
      expect(res.headers.get("location")).toBe("/order");
      const user = await rt.database.db
        .selectFrom("user")
        .select("adress")
        .where("id", "=", u.id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(user.adress!)).toMatchObject({ firstname: "Jonna", email: "jonna@example.test", city: "Lund" });
    });

    it("a missing or invalid email is refused with a translated message, input kept", async () => {
      const u = await createUser(rt, { name: "Kalle Kula" });
      const res = await post(
        "/user/register-adress",
        { firstname: "Kalle", email: "", city: "Kiruna" },
        { cookie: u.cookie },
      );
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain("Please enter your email.");
      expect(html).toMatch(/id="address-city"[^>]*value="Kiruna"/);
      const sv = await (
        await post("/user/register-adress", { email: "nope" }, { cookie: u.cookie, lang: "sv" })
      ).text();
      expect(sv).toContain("Ange en giltig e-postadress.");
      expect(
        await rt.database.db.selectFrom("order_drafts").selectAll().where("userId", "=", u.id).executeTakeFirst(),
      ).toBeUndefined();
    });

    it("stickers need somewhere to go: an incomplete postal address is refused, each missing field named, input kept", async () => {
      const u = await createUser(rt, { name: "Mira Mo" });
      const res = await post(
        "/user/register-adress",
        { firstname: "Mira", email: "mira@example.test", city: "Malmö", zip: " " },
        { cookie: u.cookie },
      );
      expect(res.status).toBe(400);
      const html = await res.text();
      for (const f of ["address", "zip", "country"]) {
        expect(html).toMatch(new RegExp(`id="address-${f}"[^>]*aria-invalid="true"`));
        expect(html).toContain(`id="address-${f}-error"`);
      }
      expect(html).not.toContain('id="address-city-error"');
      expect(html).toContain("Please fill this in: we need it to post your stickers.");
      expect(html).toMatch(/id="address-city"[^>]*value="Malmö"/);
      // The browser's own hint comes first: the postal fields are `required`.
      expect(html).toMatch(/id="address-zip"[^>]*required/);
      expect(
        await rt.database.db.selectFrom("order_drafts").selectAll().where("userId", "=", u.id).executeTakeFirst(),
      ).toBeUndefined();
    });

    it("country select (Sweden first), postal code before city, checked per country and stored as the post writes it (issue #32 point 11)", async () => {
      const u = await createUser(rt, { name: "Nils Nord" });
      const form = await (await get("/user/register-adress", { cookie: u.cookie, lang: "sv" })).text();
      expect(form).toMatch(/<select[^>]*id="address-country"[^>]*>\s*<option value="SE"[^>]*>Sverige<\/option>/);
      expect(form).toContain('<option value="GB">Storbritannien</option>');
      expect(form.indexOf('id="address-zip"')).toBeLessThan(form.indexOf('id="address-city"'));
      // Sweden has no region field; the postal code's hint is Swedish.
      expect(form).not.toContain('id="address-state"');
      expect(form).toContain("Till exempel 123 45");
      const postal = { firstname: "Nils", email: "nils@example.test", address: "Storgatan 1", city: "Umeå" };
      const bad = await post(
        "/user/register-adress",
        { ...postal, zip: "9012", country: "SE" },
        { cookie: u.cookie, lang: "sv" },
      );
      expect(bad.status).toBe(400);
      const badHtml = await bad.text();
      expect(badHtml).toContain("Det här är inte ett postnummer i landet du valt.");
      expect(badHtml).toMatch(/id="address-zip"[^>]*value="9012"/);
      const ok = await post("/user/register-adress", { ...postal, zip: "90325", country: "SE" }, { cookie: u.cookie });
      expect(ok.headers.get("location")).toBe("/order");
      const draft = await rt.database.db
        .selectFrom("order_drafts")
        .select("adress")
        .where("userId", "=", u.id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(draft.adress!)).toMatchObject({ zip: "903 25", country: "SE", state: "" });
      // A US address keeps its state, and the form shows the region field for it.
      await post(
        "/user/register-adress",
        { ...postal, city: "Austin", zip: "78701", country: "US", state: "TX" },
        { cookie: u.cookie },
      );
      const us = await (await get("/user/register-adress", { cookie: u.cookie })).text();
      expect(us).toMatch(/id="address-state"[^>]*value="TX"/);
      expect(us).toMatch(/<option value="US" selected=""/);
    });

    it("one user's address never shows up for another", async () => {
      const u = await createUser(rt, { name: "Lisa Lo" });
      await post(
        "/user/register-adress",
        {
          firstname: "Lisa",
          email: "lisa@example.test",
          address: "Hemliga vägen 1",
          zip: "111 11",
          city: "Secretville",
          country: "Sverige",
          save: "on",
        },
        { cookie: u.cookie },
      );
      const html = await (await get("/user/register-adress", { cookie: bob.cookie })).text();
      expect(html).not.toContain("Secretville");
    });
  });
});
