/**
 * Orders and payments over HTTP against the production server and a real database
 * (SQLite, or PostgreSQL with DATABASE_URL): the /order page and its rules, the test
 * provider end to end, and the Stripe provider against a local stand-in of the Stripe API
 * with signed webhook events (paid, renewal, cancellation, replay, bad signature).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress, rememberBuy } from "../../app/server/order-draft/order-draft.service.server";
import { addMonths } from "../../app/lib/domain/pricing";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { httpClient } from "../support/http";
import {
  signedEvent,
  checkoutCompleted,
  startStripeStandIn,
  stripeEnv,
  TEST_STRIPE_KEY,
  type StripeStandIn,
} from "../support/stripe";
import { createUser, type TestUser } from "../support/users";
import { depsOf } from "../support/deps";

const ADDRESS = {
  firstname: "Anna",
  lastname: "Svensson",
  email: "anna.orders@example.test",
  co: "",
  address: "Storgatan 1",
  address2: "",
  city: "Uppsala",
  state: "",
  zip: "753 20",
  country: "Sweden",
};

async function newItem(rt: Runtime, owner: TestUser, name = "Black phone", lang: "en" | "sv" = "en") {
  return createItem(
    depsOf(rt),
    owner.id,
    { name, findFee: 100, prodType: "mobile", contactInfo: "Call 070-123", payment: "year", intent: "payLater" },
    lang,
  );
}

const product = (rt: Runtime, id: string) =>
  rt.database.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const ordersOf = (rt: Runtime, userId: string) =>
  rt.database.db.selectFrom("orders").selectAll().where("userId", "=", userId).orderBy("createdAt").execute();
const orderById = (rt: Runtime, id: string) =>
  rt.database.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const shipmentsOf = (rt: Runtime, orderId: string) =>
  rt.database.db.selectFrom("sticker_shipments").selectAll().where("orderId", "=", orderId).execute();
const mailsTo = (rt: Runtime, to: string) =>
  rt.database.db.selectFrom("mail_outbox").selectAll().where("to", "=", to).execute();

async function ownerWithAddress(rt: Runtime, email = ADDRESS.email, language: "en" | "sv" = "en") {
  // The account's email is the address email (the receipt goes to the account's), but unique.
  const u = await createUser(rt, {
    name: "Anna Svensson",
    email: email === ADDRESS.email ? undefined : email,
    language,
  });
  // createUser verifies the email: receipts go only to a verified account email (decision 012).
  await keepOrderAddress(depsOf(rt), u.id, { ...ADDRESS, email }, false);
  return u;
}

const label = usingPostgres() ? "PostgreSQL" : "SQLite";

describe(`orders with the test provider on ${label}`, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  const { get, post } = httpClient(() => server.url);

  beforeAll(async () => {
    db = await createTestDatabase("orders_test");
    const env = testEnv(db, { RATE_LIMIT_DISABLED: "1" });
    server = await startServer(env);
    rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  });
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
  });

  it("anonymous visitors and users without a name are sent to /login", async () => {
    expect((await get("/order")).headers.get("location")).toBe("/login");
    expect((await post("/order", { immediateStart: "yes", payment: "year" })).headers.get("location")).toBe("/login");
    const u = await createUser(rt, { name: "Temp" });
    await rt.database.db.updateTable("user").set({ name: "" }).where("id", "=", u.id).execute();
    expect((await get("/order", { cookie: u.cookie })).headers.get("location")).toBe("/login");
  });

  it("lists the items: unpaid ones preselected, paid ones active and not selectable, yearly by default", async () => {
    const u = await ownerWithAddress(rt);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await newItem(rt, u, `Item ${i}`));
    const paid = await newItem(rt, u, "Paid one");
    await rt.database.db
      .updateTable("products")
      .set({ payed: 1, paidUntil: Date.parse("2099-01-01T00:00:00Z") })
      .where("id", "=", paid)
      .execute();
    const res = await get("/order", { cookie: u.cookie, lang: "sv" });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const id of ids) {
      expect(html).toMatch(new RegExp(`id="order-item-${id}"[^>]*checked`));
      // QR of the short URL, 128 px (the screen PNG, decision 045), and a View link opening
      // the item page in a new tab.
      expect(html).toContain(`src="/product/${id}/qr.png?screen"`);
      expect(html).toMatch(new RegExp(`href="/product/${id}" target="_blank"`));
      expect(html).toContain(`href="/product/edit/${id}"`);
    }
    expect(html).not.toContain(`id="order-item-${paid}"`);
    expect(html).toContain("Aktiv till och med 1 januari 2099");
    expect(html).toMatch(/id="order-payment-year"[^>]*checked/);
    // 4 items yearly in Swedish: 1200 kr package, 400 kr discount, 800 kr total.
    // Live figures sit in their own elements (decision 057): compare the text a reader sees.
    expect(html.replace(/<[^>]+>/g, "")).toContain("Paket: 4 saker × 300 kr");
    expect(html).toMatch(/id="order-package"[^>]*>1\u202f200 kr</);
    expect(html).toMatch(/id="order-discount"[^>]*>\u2212400 kr</);
    expect(html).toMatch(/id="order-total"[^>]*>800 kr</);
    expect(html).toContain("* Minsta bindningstid 6 månader.");
    // Without JavaScript a button recomputes the summary.
    expect(html).toContain('value="recalc"');
  });

  it("the package chosen on the home page is remembered through registration and sign-in, and pre-selected on the product form and /order, without JavaScript (issue #19 point 5)", async () => {
    const home = await (await get("/")).text();
    expect(home).toContain('href="/user/register?package=tripple"');
    expect(home).toContain('href="/user/register?package=single"');
    const reg = await get("/user/register?package=tripple");
    expect(reg.status).toBe(200);
    const set = reg.headers.getSetCookie().find((c) => c.startsWith("hittad.package="));
    expect(set).toMatch(/^hittad\.package=tripple;.*HttpOnly/i);
    // Only the two package names are remembered.
    const forged = await get("/user/register?package=%3Cscript%3E");
    expect(forged.headers.getSetCookie().some((c) => c.startsWith("hittad.package="))).toBe(false);
    const pkg = set!.split(";")[0]!;
    // Chosen after a protected page sent the visitor to sign in: the package is the newer
    // intent, so the remembered page is forgotten.
    const bounced = await get("/user/register?package=tripple", { cookie: "hittad.return_to=%2Fdashboard" });
    expect(bounced.headers.getSetCookie().some((c) => /^hittad\.return_to=;.*Max-Age=0/i.test(c))).toBe(true);

    // Registering (a plain form POST) goes on to the product form, which names the package.
    const email = `package-${Date.now()}@example.test`;
    const done = await post(
      "/user/register",
      { name: "Petra Package", email, password: "Package-pw-123!" },
      { cookie: pkg, lang: "sv" },
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/product/register");
    const session = done.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .filter((c) => c.includes("session_token="))
      .join("; ");
    expect(session).toContain("session_token=");
    const cookie = `${session}; ${pkg}`;
    const form = await (await get("/product/register", { cookie, lang: "sv" })).text();
    expect(form).toContain("Du valde Triple: tre klistermärken");
    // The single form offers the Triple's three items on one page (decision 038).
    expect(form).toContain('href="/product/register?package=tripple"');
    expect(await (await get("/product/register", { cookie: session })).text()).not.toContain("You chose");
    // Signed in already, "Choose Triple" goes on to registering the items with the package
    // named there, not to the dashboard without a word: the Triple's
    // three on one page (decision 038).
    const again = await get("/user/register?package=tripple", { cookie: session });
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/product/register?package=tripple");
    expect(again.headers.getSetCookie().some((c) => c.startsWith("hittad.package=tripple"))).toBe(true);
    // Without a package a signed-in visitor still goes to the dashboard.
    expect((await get("/user/register", { cookie: session })).headers.get("location")).toBe("/dashboard");

    // /order: the package's count of unpaid items starts selected, and says how many are missing.
    const user = await rt.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const owner = { id: user.id } as TestUser;
    const first = await newItem(rt, owner, "First");
    let html = await (await get("/order", { cookie, lang: "sv" })).text();
    expect(html).toMatch(new RegExp(`id="order-item-${first}"[^>]*checked`));
    expect(html).toContain("Registrera 2 saker till för att fylla paketet.");
    const more = [
      await newItem(rt, owner, "Second"),
      await newItem(rt, owner, "Third"),
      await newItem(rt, owner, "Fourth"),
    ];
    html = await (await get("/order", { cookie })).text();
    expect(html).toContain("You chose Triple");
    const checked = [first, ...more].filter((id) => new RegExp(`id="order-item-${id}"[^>]*checked`).test(html));
    expect(checked).toHaveLength(3);
    expect(html).not.toContain("more items to fill the package");
    // Without the choice every unpaid item starts selected, as before.
    html = await (await get("/order", { cookie: session })).text();
    expect([first, ...more].filter((id) => new RegExp(`id="order-item-${id}"[^>]*checked`).test(html))).toHaveLength(4);

    // Signing in with the choice remembered lands on /order.
    const login = await post("/login", { email, password: "Package-pw-123!" }, { cookie: pkg });
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/order");
    const plain = await post("/login", { email, password: "Package-pw-123!" });
    expect(plain.headers.get("location")).toBe("/dashboard");
  });

  it("recomputes the summary on the server for a no-JavaScript submit (the browser's figures are never read)", async () => {
    const u = await ownerWithAddress(rt);
    const a = await newItem(rt, u);
    const b = await newItem(rt, u);
    const c = await newItem(rt, u);
    const res = await post(
      "/order",
      [
        ["immediateStart", "yes"],
        ["items", a],
        ["items", b],
        ["items", c],
        ["payment", "month"],
        ["intent", "recalc"],
        ["total", "1"],
      ],
      { cookie: u.cookie },
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    // 3 items monthly: the price table's Tripple price, €6 (decision 018).
    expect(html).toMatch(/id="order-package"[^>]*>€9</);
    expect(html).toMatch(/id="order-discount"[^>]*>\u2212€3</);
    expect(html).toMatch(/id="order-total"[^>]*>€6</);
    expect(html).toMatch(/id="order-payment-month"[^>]*checked/);
    expect(await ordersOf(rt, u.id)).toHaveLength(0);
  });

  it("a consumer's checkout without the request to start at once: a translated field error, no order, the ticks kept", async () => {
    const u = await ownerWithAddress(rt);
    const id = await newItem(rt, u);
    const page = await (await get("/order", { cookie: u.cookie })).text();
    expect(page).toContain("Right of withdrawal (ångerrätt)");
    expect(page).toContain('name="immediateStart"');
    const en = await post("/order", { items: id, payment: "year", intent: "pay" }, { cookie: u.cookie });
    expect(en.status).toBe(400);
    const html = await en.text();
    expect(html).toContain("Tick the box to ask for the service to start at once");
    expect(html).toMatch(/id="order-immediate-start"[^>]*aria-invalid="true"/);
    expect(html).toMatch(new RegExp(`id="order-item-${id}"[^>]*checked`));
    const sv = await post("/order", { items: id, payment: "year" }, { cookie: u.cookie, lang: "sv" });
    expect(sv.status).toBe(400);
    expect(await sv.text()).toContain("Kryssa i rutan och begär att tjänsten börjar direkt");
    expect(await ordersOf(rt, u.id)).toHaveLength(0);
  });

  it("nothing selected gives a clear, translated message and no order", async () => {
    const u = await ownerWithAddress(rt);
    await newItem(rt, u);
    const en = await post("/order", { immediateStart: "yes", payment: "year", intent: "pay" }, { cookie: u.cookie });
    expect(en.status).toBe(400);
    expect(await en.text()).toContain("Please select at least one item to activate.");
    const sv = await post(
      "/order",
      { immediateStart: "yes", payment: "year", intent: "pay" },
      { cookie: u.cookie, lang: "sv" },
    );
    expect(sv.status).toBe(400);
    expect(await sv.text()).toContain("Välj minst en sak att aktivera.");
    expect(await ordersOf(rt, u.id)).toHaveLength(0);
  });

  it("bad input is a translated 4xx, never a 500", async () => {
    const u = await ownerWithAddress(rt);
    const id = await newItem(rt, u);
    const badPeriod = await post(
      "/order",
      { immediateStart: "yes", items: id, payment: "week" },
      { cookie: u.cookie, lang: "sv" },
    );
    expect(badPeriod.status).toBe(400);
    expect(await badPeriod.text()).toContain("Välj månadsvis eller årsvis betalning.");
    const badId = await post(
      "/order",
      { immediateStart: "yes", items: "../../etc", payment: "year" },
      { cookie: u.cookie },
    );
    expect(badId.status).toBe(400);
    expect(await badId.text()).toContain("Some of the selected items could not be found.");
    expect(await ordersOf(rt, u.id)).toHaveLength(0);
  });

  it("another user's item ids are refused and nothing changes", async () => {
    const alice = await ownerWithAddress(rt);
    const mallory = await ownerWithAddress(rt, "mallory@example.test");
    const alices = await newItem(rt, alice);
    const own = await newItem(rt, mallory);
    const res = await post(
      "/order",
      [
        ["immediateStart", "yes"],
        ["items", own],
        ["items", alices],
        ["payment", "year"],
      ],
      { cookie: mallory.cookie },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Some of the selected items could not be found.");
    expect(await ordersOf(rt, mallory.id)).toHaveLength(0);
    expect(await product(rt, alices)).toMatchObject({ payed: 0, paidUntil: null });
  });

  it("without an order address the owner is sent to the address form first", async () => {
    const u = await createUser(rt, { name: "No Address" });
    const id = await newItem(rt, u);
    const res = await post("/order", { immediateStart: "yes", items: id, payment: "year" }, { cookie: u.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/user/register-adress?missing=1");
    expect(await ordersOf(rt, u.id)).toHaveLength(0);
  });

  it("an order cannot be paid without a complete postal address; the address form names what is missing", async () => {
    const u = await createUser(rt, { name: "Half Address" });
    // An address kept before the form required the postal fields: an email and a city only.
    await keepOrderAddress(depsOf(rt), u.id, { ...ADDRESS, address: "", zip: "", country: " " }, false);
    const id = await newItem(rt, u);
    const page = await (await get("/order", { cookie: u.cookie })).text();
    expect(page).toContain('id="order-address-incomplete"');
    expect(page).toContain("Your address is missing: Address, Postal code, Country.");
    const res = await post("/order", { immediateStart: "yes", items: id, payment: "year" }, { cookie: u.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/user/register-adress?missing=1");
    expect(await ordersOf(rt, u.id)).toHaveLength(0);
    expect(await product(rt, id)).toMatchObject({ payed: 0 });
    const form = await (await get("/user/register-adress?missing=1", { cookie: u.cookie, lang: "sv" })).text();
    expect(form).toContain("Adressen är inte komplett.");
    for (const f of ["address", "zip", "country"]) {
      expect(form).toMatch(new RegExp(`id="address-${f}"[^>]*aria-invalid="true"`));
    }
    expect(form).not.toMatch(/id="address-city"[^>]*aria-invalid/);
    expect(form).toMatch(/id="address-city"[^>]*value="Uppsala"/);
  });

  it("pays through the test checkout: items active for a year, shipment pending, receipt in the owner's language", async () => {
    const u = await ownerWithAddress(rt, "receipt.sv@example.test", "sv");
    const ids = [await newItem(rt, u, "Svart mobil", "sv"), await newItem(rt, u, "Grå dator", "sv")];
    await rememberBuy(depsOf(rt), u.id, ids[0]!);
    const res = await post(
      "/order",
      [
        ["immediateStart", "yes"],
        ["items", ids[0]!],
        ["items", ids[1]!],
        ["payment", "year"],
      ],
      { cookie: u.cookie, lang: "sv" },
    );
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/order\/checkout\/[0-9a-f-]{36}$/);
    const [order] = await ordersOf(rt, u.id);
    expect(order).toMatchObject({
      provider: "test",
      status: "pending",
      period: "year",
      lang: "sv",
      currency: "SEK",
      count: 2,
      unitAmount: 30000,
      packageAmount: 60000,
      discountAmount: 0,
      totalAmount: 60000,
    });
    // Nothing is paid before the checkout is completed.
    expect((await get(`/product/${ids[0]}`)).status).toBe(200);
    expect(await (await get(`/product/${ids[0]}`)).text()).toContain("This item is not paid.");

    const page = await get(location, { cookie: u.cookie, lang: "sv" });
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toContain("Testbetalning – inga riktiga pengar");
    expect(pageHtml).toContain("Testläge — inga riktiga betalningar");

    const before = Date.now();
    const done = await post(location, {}, { cookie: u.cookie, lang: "sv" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`/order/complete/${order!.id}`);
    const paid = await orderById(rt, order!.id);
    expect(paid.status).toBe("paid");
    expect(paid.renewing).toBe(1);
    expect(paid.paidUntil).toBeGreaterThanOrEqual(addMonths(before, 12));
    expect(paid.paidUntil).toBeLessThanOrEqual(addMonths(Date.now(), 12));
    expect(paid.minimumUntil).toBe(addMonths(paid.paidAt!, 6));
    for (const id of ids) expect(await product(rt, id)).toMatchObject({ payed: 1, paidUntil: paid.paidUntil });
    const shipments = await shipmentsOf(rt, order!.id);
    expect(shipments).toHaveLength(1);
    expect(shipments[0]).toMatchObject({ status: "pending", userId: u.id });
    expect(JSON.parse(shipments[0]!.adress)).toMatchObject({ address: "Storgatan 1", city: "Uppsala" });
    const mails = await mailsTo(rt, "receipt.sv@example.test");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Ditt kvitto från Hittad");
    // Greeted by first name (decision 018): the account is "Anna Svensson" (ownerWithAddress).
    expect(mails[0]!.text).toMatch(/^Hej Anna!/);
    expect(mails[0]!.text).toContain("Svart mobil");
    expect(mails[0]!.text).toContain("Totalt: 600 kr per år");
    // The remembered pay-now item is no longer remembered once paid.
    const draft = await rt.database.db
      .selectFrom("order_drafts")
      .selectAll()
      .where("userId", "=", u.id)
      .executeTakeFirst();
    expect(draft?.buy).toBeNull();

    const confirmation = await get(`/order/complete/${order!.id}`, { cookie: u.cookie, lang: "sv" });
    expect(await confirmation.text()).toContain("Tack för din beställning!");
    // The item page is public now.
    const publicPage = await (await get(`/product/${ids[0]}`)).text();
    expect(publicPage).toContain("Svart mobil");
    expect(publicPage).not.toContain("This item is not paid.");

    // Completing again (a double click, a replay) changes nothing.
    const again = await post(location, {}, { cookie: u.cookie });
    expect(again.status).toBe(302);
    expect(await shipmentsOf(rt, order!.id)).toHaveLength(1);
    expect(await mailsTo(rt, "receipt.sv@example.test")).toHaveLength(1);
    // Paid items cannot be ordered again.
    const twice = await post(
      "/order",
      { immediateStart: "yes", items: ids[0]!, payment: "year" },
      { cookie: u.cookie },
    );
    expect(twice.status).toBe(400);
    expect(await twice.text()).toContain("already active");
  });

  it("another user cannot see or complete someone's checkout or confirmation", async () => {
    const owner = await ownerWithAddress(rt);
    const other = await ownerWithAddress(rt, "other@example.test");
    const id = await newItem(rt, owner);
    const res = await post("/order", { immediateStart: "yes", items: id, payment: "month" }, { cookie: owner.cookie });
    const location = res.headers.get("location")!;
    const orderId = location.split("/").pop()!;
    expect((await get(location, { cookie: other.cookie })).status).toBe(404);
    expect((await post(location, {}, { cookie: other.cookie })).status).toBe(404);
    expect((await get(`/order/complete/${orderId}`, { cookie: other.cookie })).status).toBe(404);
    expect((await orderById(rt, orderId)).status).toBe("pending");
    expect(await product(rt, id)).toMatchObject({ payed: 0 });
    expect((await get("/order/checkout/not-an-id", { cookie: owner.cookie })).status).toBe(404);
  });

  it("a monthly subscription cancelled before 6 months stays active until the 6-month mark", async () => {
    const owner = await ownerWithAddress(rt);
    const other = await ownerWithAddress(rt, "other2@example.test");
    const id = await newItem(rt, owner, "Monthly thing");
    const res = await post("/order", { immediateStart: "yes", items: id, payment: "month" }, { cookie: owner.cookie });
    const location = res.headers.get("location")!;
    await post(location, {}, { cookie: owner.cookie });
    const orderId = location.split("/").pop()!;
    const paid = await orderById(rt, orderId);
    expect(paid.paidUntil).toBe(addMonths(paid.paidAt!, 1));

    const dash = await (await get("/dashboard", { cookie: owner.cookie })).text();
    expect(dash).toContain("Renews ");
    expect(dash).toContain("Cancel renewal");

    // Someone else's cancel is refused and changes nothing.
    const forged = await post("/dashboard", { intent: "cancelRenewal", orderId }, { cookie: other.cookie });
    expect(forged.status).toBe(404);
    expect((await orderById(rt, orderId)).renewing).toBe(1);

    const cancel = await post("/dashboard", { intent: "cancelRenewal", orderId }, { cookie: owner.cookie });
    expect(cancel.status).toBe(200);
    const html = await cancel.text();
    expect(html).toContain("Renewal cancelled.");
    const cancelled = await orderById(rt, orderId);
    expect(cancelled).toMatchObject({ renewing: 0, endsAt: addMonths(paid.paidAt!, 6) });
    expect((await product(rt, id)).paidUntil).toBe(addMonths(paid.paidAt!, 6));
    const after = await (await get("/dashboard", { cookie: owner.cookie })).text();
    expect(after).not.toContain("Cancel renewal");
    // The card says "Active" once, then when the cancelled subscription ends (decision 016).
    expect(after).toContain("Renewal cancelled, ends ");
    // Cancelling twice is a translated 409.
    const twice = await post("/dashboard", { intent: "cancelRenewal", orderId }, { cookie: owner.cookie });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("already cancelled");
    // Garbage is a 404, not a 500.
    expect((await post("/dashboard", { intent: "cancelRenewal", orderId: "x" }, { cookie: owner.cookie })).status).toBe(
      404,
    );
  });

  it("two pending orders for one item: only the first payment activates it, the second checkout is refused (issue #13)", async () => {
    const owner = await ownerWithAddress(rt, "twice@example.test");
    const id = await newItem(rt, owner, "Twice paid");
    const first = (
      await post("/order", { immediateStart: "yes", items: id, payment: "year" }, { cookie: owner.cookie })
    ).headers.get("location")!;
    const second = (
      await post("/order", { immediateStart: "yes", items: id, payment: "year" }, { cookie: owner.cookie })
    ).headers.get("location")!;
    expect(second).not.toBe(first);
    expect((await post(first, {}, { cookie: owner.cookie })).status).toBe(302);
    const page = await get(second, { cookie: owner.cookie });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("One of the selected items is already active.");
    const sv = await get(second, { cookie: owner.cookie, lang: "sv" });
    expect(await sv.text()).toContain("En av de valda sakerna är redan aktiv.");
    // A forged "pay" for the second order is refused too: one shipment, one receipt.
    expect((await post(second, {}, { cookie: owner.cookie })).status).toBe(400);
    const secondId = second.split("/").pop()!;
    expect((await orderById(rt, secondId)).status).toBe("pending");
    expect(await shipmentsOf(rt, secondId)).toHaveLength(0);
    expect(await mailsTo(rt, "twice@example.test")).toHaveLength(1);
  });

  it("cancelling renewal never moves an item's paid period backwards (issue #13)", async () => {
    const owner = await ownerWithAddress(rt);
    const id = await newItem(rt, owner, "Paid far ahead");
    const res = await post("/order", { immediateStart: "yes", items: id, payment: "month" }, { cookie: owner.cookie });
    const location = res.headers.get("location")!;
    await post(location, {}, { cookie: owner.cookie });
    const orderId = location.split("/").pop()!;
    // The item is covered longer than this order (another order, or by hand).
    const later = Date.parse("2099-01-01T00:00:00Z");
    await rt.database.db.updateTable("products").set({ paidUntil: later }).where("id", "=", id).execute();
    const cancel = await post("/dashboard", { intent: "cancelRenewal", orderId }, { cookie: owner.cookie });
    expect(cancel.status).toBe(200);
    expect((await product(rt, id)).paidUntil).toBe(later);
  });

  it("the receipt goes only to the account's verified email, never to the email typed on the order (issue #13)", async () => {
    const owner = await ownerWithAddress(rt, "account.owner@example.test");
    await keepOrderAddress(depsOf(rt), owner.id, { ...ADDRESS, email: "victim@example.test" }, false);
    const id = await newItem(rt, owner, "Receipt thing");
    const location = (
      await post("/order", { immediateStart: "yes", items: id, payment: "year" }, { cookie: owner.cookie })
    ).headers.get("location")!;
    expect((await post(location, {}, { cookie: owner.cookie })).status).toBe(302);
    expect(await mailsTo(rt, "victim@example.test")).toHaveLength(0);
    expect(await mailsTo(rt, "account.owner@example.test")).toHaveLength(1);
    // The confirmation names where the receipt really went.
    const orderId = location.split("/").pop()!;
    const done = await (await get(`/order/complete/${orderId}`, { cookie: owner.cookie })).text();
    expect(done).toContain("A receipt has been sent to account.owner@example.test.");
    expect(done).not.toContain("victim@example.test");

    // An account whose email is not verified gets no receipt at all.
    const unverified = await createUser(rt, { name: "Eve Unverified", verified: false });
    await keepOrderAddress(depsOf(rt), unverified.id, { ...ADDRESS, email: "victim2@example.test" }, false);
    const theirs = await newItem(rt, unverified, "Spam name");
    const checkout = (
      await post("/order", { immediateStart: "yes", items: theirs, payment: "year" }, { cookie: unverified.cookie })
    ).headers.get("location")!;
    expect((await post(checkout, {}, { cookie: unverified.cookie })).status).toBe(302);
    expect(await mailsTo(rt, "victim2@example.test")).toHaveLength(0);
    expect(await mailsTo(rt, unverified.email)).toHaveLength(0);
  });

  it("an item whose paidUntil has passed is not paid anywhere", async () => {
    const owner = await ownerWithAddress(rt);
    const id = await newItem(rt, owner, "Expired thing");
    await rt.database.db
      .updateTable("products")
      .set({ payed: 1, paidUntil: Date.now() - 1000 })
      .where("id", "=", id)
      .execute();
    expect(await (await get(`/product/${id}`)).text()).toContain("This item is not paid.");
    expect(await (await get(`/${id}`)).text()).toContain("This item is not paid.");
    expect(await (await get("/dashboard", { cookie: owner.cookie })).text()).toContain("You have 1 unactivated item.");
    expect(await (await get("/order", { cookie: owner.cookie })).text()).toMatch(
      new RegExp(`id="order-item-${id}"[^>]*checked`),
    );
  });

  it("test mode is announced: a start-up warning and a banner on every page", async () => {
    expect(server.logs()).toContain("PAYMENTS=test: the test checkout is active, no real payments are taken");
    for (const path of ["/", "/support", "/login"]) {
      expect(await (await get(path)).text()).toContain("Test mode — no real payments");
      expect(await (await get(path, { lang: "sv" })).text()).toContain("Testläge — inga riktiga betalningar");
    }
  });

  it("the Stripe webhook does not exist with the test provider", async () => {
    const res = await fetch(`${server.url}/api/stripe/webhook`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
  });
});

describe(`orders with Stripe (local stand-in) on ${label}`, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  let stripe: StripeStandIn;
  const { get, post } = httpClient(() => server.url);

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    db = await createTestDatabase("orders_stripe");
    const env = testEnv(db, {
      RATE_LIMIT_DISABLED: "1",
      ...stripeEnv(stripe),
    });
    server = await startServer(env);
    rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  });
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
    await stripe?.close();
  });

  function webhook(body: string, signature?: string) {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (signature) headers["Stripe-Signature"] = signature;
    return fetch(`${server.url}/api/stripe/webhook`, { method: "POST", headers, body });
  }

  async function startOrder(owner: TestUser, items: string[], payment: "month" | "year", lang: "en" | "sv") {
    const res = await post(
      "/order",
      [["immediateStart", "yes"], ...items.map((id): [string, string] => ["items", id]), ["payment", payment]],
      {
        cookie: owner.cookie,
        lang,
      },
    );
    expect(res.status).toBe(302);
    const [order] = (await ordersOf(rt, owner.id)).slice(-1);
    return { res, order: order! };
  }

  const completed = (orderId: string, over: Record<string, unknown> = {}, id = `evt_cs_${orderId}`) =>
    checkoutCompleted(
      orderId,
      { amount_total: 80000, currency: "sek", ...over },
      { id, created: Math.floor(Date.parse("2026-11-23T12:00:00Z") / 1000) },
    );

  it("creates a subscription Checkout Session in SEK for Swedish (yearly, discount included) and redirects to it", async () => {
    const owner = await ownerWithAddress(rt, "stripe.sv@example.test", "sv");
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await newItem(rt, owner, `Sak ${i}`, "sv"));
    const { res, order } = await startOrder(owner, ids, "year", "sv");
    expect(res.headers.get("location")).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_test_\\d+$`));
    const req = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(req.method).toBe("POST");
    expect(req.headers.authorization).toBe(`Bearer ${TEST_STRIPE_KEY}`);
    expect(req.headers["idempotency-key"]).toBe(`checkout-${order.id}`);
    expect(req.form).toMatchObject({
      mode: "subscription",
      client_reference_id: order.id,
      customer_email: "stripe.sv@example.test",
      locale: "sv",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "sek",
      "line_items[0][price_data][unit_amount]": "80000",
      "line_items[0][price_data][recurring][interval]": "year",
      "line_items[0][price_data][product_data][name]": "Hittad: 4 saker",
      "metadata[orderId]": order.id,
      "metadata[userId]": owner.id,
      "metadata[count]": "4",
      "metadata[period]": "year",
      "metadata[packageAmount]": "120000",
      "metadata[discountAmount]": "40000",
      "metadata[totalAmount]": "80000",
      // A year paid up front is not bound by the minimum term.
      "custom_text[submit][message]": `Förnyas automatiskt varje år tills du säger upp den. Villkor: ${server.url}/terms`,
      "subscription_data[metadata][orderId]": order.id,
      success_url: `${server.url}/order/complete/${order.id}`,
      cancel_url: `${server.url}/order`,
    });
    expect(order).toMatchObject({ provider: "stripe", status: "pending", currency: "SEK", totalAmount: 80000 });
    expect(order.checkoutId).toMatch(/^cs_test_/);
  });

  it("uses EUR for English and a monthly interval, with the same discount rule: 3 items monthly cost the advertised €6 (decision 018)", async () => {
    const owner = await ownerWithAddress(rt, "stripe.en@example.test");
    const ids = [await newItem(rt, owner), await newItem(rt, owner), await newItem(rt, owner)];
    const { order } = await startOrder(owner, ids, "month", "en");
    const req = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(req.form).toMatchObject({
      locale: "en",
      "line_items[0][price_data][currency]": "eur",
      "line_items[0][price_data][unit_amount]": "600",
      "line_items[0][price_data][recurring][interval]": "month",
      "metadata[packageAmount]": "900",
      "metadata[discountAmount]": "300",
      "metadata[totalAmount]": "600",
    });
    expect(order).toMatchObject({ currency: "EUR", period: "month", totalAmount: 600, discountAmount: 300 });
    // Stripe's page states the terms next to its pay button (decision 018).
    const terms = String(req.form["custom_text[submit][message]"]);
    expect(terms).toContain("Renews automatically every month until cancelled");
    // A monthly plan states what its minimum term commits to.
    expect(terms).toContain("The minimum term (minsta bindningstid) is 6 months: 6 × €6 = €36 in all.");
    expect(terms).toContain(`${server.url}/terms`);
  });

  it("the order form may be redirected to the checkout's origin (CSP form-action); no test banner", async () => {
    const owner = await ownerWithAddress(rt);
    const res = await get("/order", { cookie: owner.cookie });
    expect(res.headers.get("content-security-policy")).toMatch(new RegExp(`form-action 'self' ${stripe.url}`));
    expect(await res.text()).not.toContain("Test mode");
    expect(server.logs()).not.toContain("PAYMENTS=test");
  });

  it("a failing Stripe API is a translated 502 on the order page, not a 500", async () => {
    const owner = await ownerWithAddress(rt);
    const id = await newItem(rt, owner);
    stripe.failNext(400);
    const res = await post(
      "/order",
      { immediateStart: "yes", items: id, payment: "year" },
      { cookie: owner.cookie, lang: "sv" },
    );
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("Betalningen kunde inte startas.");
    expect(await product(rt, id)).toMatchObject({ payed: 0 });
  });

  it("a bad or missing signature is refused with 400 and nothing changes", async () => {
    const owner = await ownerWithAddress(rt);
    const id = await newItem(rt, owner);
    const { order } = await startOrder(owner, [id], "year", "en");
    const good = completed(order.id, { amount_total: 3000, currency: "eur" });
    const forged = signedEvent(JSON.parse(good.payload), "whsec_wrong_secret");
    expect((await webhook(good.payload, forged.signature)).status).toBe(400);
    expect((await webhook(good.payload)).status).toBe(400);
    // A valid signature over other bytes (tampered body) is refused as well.
    expect((await webhook(good.payload.replace("3000", "1"), good.signature)).status).toBe(400);
    expect((await orderById(rt, order.id)).status).toBe("pending");
    expect(await product(rt, id)).toMatchObject({ payed: 0 });
    const events = await rt.database.db.selectFrom("payment_events").selectAll().execute();
    expect(events.filter((e) => e.orderId === order.id)).toHaveLength(0);
  });

  it("checkout.session.completed makes the order paid; a replay changes nothing", async () => {
    const owner = await ownerWithAddress(rt, "paid.sv@example.test", "sv");
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await newItem(rt, owner, `Sak ${i}`, "sv"));
    const { order } = await startOrder(owner, ids, "year", "sv");
    const event = completed(order.id);
    const res = await webhook(event.payload, event.signature);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, result: "applied" });
    const created = Date.parse("2026-11-23T12:00:00Z");
    const paid = await orderById(rt, order.id);
    expect(paid).toMatchObject({
      status: "paid",
      renewing: 1,
      paidAt: created,
      paidUntil: Date.parse("2027-11-23T12:00:00Z"),
      minimumUntil: Date.parse("2027-05-23T12:00:00Z"),
      subscriptionId: `sub_${order.id.slice(0, 8)}`,
      customerId: "cus_123",
    });
    for (const id of ids) {
      expect(await product(rt, id)).toMatchObject({ payed: 1, paidUntil: Date.parse("2027-11-23T12:00:00Z") });
    }
    expect(await shipmentsOf(rt, order.id)).toHaveLength(1);
    const mails = await mailsTo(rt, "paid.sv@example.test");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Totalt: 800 kr per år");
    expect(mails[0]!.text).toContain("Rabatt: 400 kr");

    const replay = await webhook(event.payload, event.signature);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ result: "duplicate" });
    expect(await shipmentsOf(rt, order.id)).toHaveLength(1);
    expect(await mailsTo(rt, "paid.sv@example.test")).toHaveLength(1);
    expect((await orderById(rt, order.id)).paidUntil).toBe(Date.parse("2027-11-23T12:00:00Z"));

    // The owner's confirmation page.
    const page = await (await get(`/order/complete/${order.id}`, { cookie: owner.cookie, lang: "sv" })).text();
    expect(page).toContain("Tack för din beställning!");
    expect(page).toContain("23 november 2027");
  });

  it("a payment whose amount does not match the order is not applied", async () => {
    const owner = await ownerWithAddress(rt);
    const id = await newItem(rt, owner);
    const { order } = await startOrder(owner, [id], "year", "en");
    const event = completed(order.id, { amount_total: 1, currency: "eur" });
    const res = await webhook(event.payload, event.signature);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: "ignored" });
    expect((await orderById(rt, order.id)).status).toBe("pending");
    expect(await product(rt, id)).toMatchObject({ payed: 0 });
  });

  it("invoice.paid renews (paidUntil grows); an older invoice arriving late does not shrink it", async () => {
    const owner = await ownerWithAddress(rt);
    const id = await newItem(rt, owner);
    const { order } = await startOrder(owner, [id], "month", "en");
    const sub = `sub_${order.id.slice(0, 8)}`;
    const c = completed(order.id, { amount_total: 300, currency: "eur" });
    expect((await webhook(c.payload, c.signature)).status).toBe(200);
    expect((await orderById(rt, order.id)).paidUntil).toBe(Date.parse("2026-12-23T12:00:00Z"));

    const invoice = (evt: string, start: string, end: string, reason = "subscription_cycle") =>
      signedEvent({
        id: evt,
        type: "invoice.paid",
        data: {
          object: {
            id: `in_${evt}`,
            object: "invoice",
            billing_reason: reason,
            amount_paid: 300,
            currency: "eur",
            customer: "cus_123",
            status_transitions: { paid_at: Math.floor(Date.parse(start) / 1000) },
            parent: {
              type: "subscription_details",
              subscription_details: { subscription: sub, metadata: { orderId: order.id } },
            },
            lines: {
              object: "list",
              data: [{ period: { start: Date.parse(start) / 1000, end: Date.parse(end) / 1000 } }],
            },
          },
        },
      });
    const renewal = invoice("evt_inv_2", "2026-12-23T12:00:00Z", "2027-01-23T12:00:00Z");
    const r = await webhook(renewal.payload, renewal.signature);
    expect(await r.json()).toMatchObject({ result: "applied" });
    expect((await orderById(rt, order.id)).paidUntil).toBe(Date.parse("2027-01-23T12:00:00Z"));
    expect((await product(rt, id)).paidUntil).toBe(Date.parse("2027-01-23T12:00:00Z"));
    // The first invoice, delivered late: harmless.
    const first = invoice("evt_inv_1", "2026-11-23T12:00:00Z", "2026-12-23T12:00:00Z", "subscription_create");
    expect((await webhook(first.payload, first.signature)).status).toBe(200);
    expect((await orderById(rt, order.id)).paidUntil).toBe(Date.parse("2027-01-23T12:00:00Z"));
    // Replay of the renewal: no change. One receipt for the checkout (its first invoice is the
    // same payment) and one for the renewal (decision 016).
    expect(await (await webhook(renewal.payload, renewal.signature)).json()).toMatchObject({ result: "duplicate" });
    expect(await mailsTo(rt, owner.email)).toHaveLength(2);
  });

  it("cancelling renewal goes through Stripe: cancel_at at the 6-month mark for monthly, at period end for yearly", async () => {
    const owner = await ownerWithAddress(rt);
    const other = await ownerWithAddress(rt, "intruder@example.test");
    const m = await newItem(rt, owner, "Monthly");
    const { order: monthly } = await startOrder(owner, [m], "month", "en");
    const c1 = completed(monthly.id, { amount_total: 300, currency: "eur" });
    await webhook(c1.payload, c1.signature);
    const y = await newItem(rt, owner, "Yearly");
    const { order: yearly } = await startOrder(owner, [y], "year", "en");
    const c2 = completed(yearly.id, { amount_total: 3000, currency: "eur", subscription: "sub_yearly" });
    await webhook(c2.payload, c2.signature);

    const before = stripe.requests.length;
    expect(
      (await post("/dashboard", { intent: "cancelRenewal", orderId: monthly.id }, { cookie: other.cookie })).status,
    ).toBe(404);
    expect(stripe.requests.length).toBe(before);

    const res = await post("/dashboard", { intent: "cancelRenewal", orderId: monthly.id }, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const sixMonths = Date.parse("2027-05-23T12:00:00Z");
    const call = stripe.requests.at(-1)!;
    expect(call.method).toBe("POST");
    expect(call.path).toBe(`/v1/subscriptions/sub_${monthly.id.slice(0, 8)}`);
    expect(call.form).toEqual({ cancel_at: String(sixMonths / 1000), proration_behavior: "none" });
    expect(await orderById(rt, monthly.id)).toMatchObject({ renewing: 0, endsAt: sixMonths });
    // Stripe keeps billing monthly until then: the item's paidUntil still follows the invoices.
    expect((await product(rt, m)).paidUntil).toBe(Date.parse("2026-12-23T12:00:00Z"));

    expect(
      (await post("/dashboard", { intent: "cancelRenewal", orderId: yearly.id }, { cookie: owner.cookie })).status,
    ).toBe(200);
    const yearlyCall = stripe.requests.at(-1)!;
    expect(yearlyCall.path).toBe("/v1/subscriptions/sub_yearly");
    expect(yearlyCall.form).toEqual({ cancel_at_period_end: "true" });
    expect(await orderById(rt, yearly.id)).toMatchObject({ renewing: 0, endsAt: Date.parse("2027-11-23T12:00:00Z") });
  });

  it("a failing Stripe call on cancel is a translated error and renewal stays on", async () => {
    const owner = await ownerWithAddress(rt);
    const id = await newItem(rt, owner);
    const { order } = await startOrder(owner, [id], "year", "en");
    const c = completed(order.id, { amount_total: 3000, currency: "eur", subscription: "sub_fails" });
    await webhook(c.payload, c.signature);
    stripe.failNext(400);
    const res = await post("/dashboard", { intent: "cancelRenewal", orderId: order.id }, { cookie: owner.cookie });
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("Renewal could not be cancelled right now.");
    expect((await orderById(rt, order.id)).renewing).toBe(1);
  });

  it("customer.subscription.deleted stops renewals; the items stay active until paidUntil", async () => {
    const owner = await ownerWithAddress(rt);
    const id = await newItem(rt, owner);
    const { order } = await startOrder(owner, [id], "year", "en");
    const c = completed(order.id, { amount_total: 3000, currency: "eur", subscription: "sub_deleted" });
    await webhook(c.payload, c.signature);
    const deleted = signedEvent({
      id: "evt_sub_deleted",
      type: "customer.subscription.deleted",
      data: {
        object: {
          id: "sub_deleted",
          object: "subscription",
          status: "canceled",
          ended_at: Math.floor(Date.parse("2027-11-23T12:00:00Z") / 1000),
          metadata: { orderId: order.id },
        },
      },
    });
    const res = await webhook(deleted.payload, deleted.signature);
    expect(await res.json()).toMatchObject({ result: "applied" });
    expect(await orderById(rt, order.id)).toMatchObject({ renewing: 0, endsAt: Date.parse("2027-11-23T12:00:00Z") });
    expect(await product(rt, id)).toMatchObject({ payed: 1, paidUntil: Date.parse("2027-11-23T12:00:00Z") });
    expect(await (await webhook(deleted.payload, deleted.signature)).json()).toMatchObject({ result: "duplicate" });
    const dash = await (await get("/dashboard", { cookie: owner.cookie })).text();
    expect(dash).toContain("Renewal cancelled, ends 23 November 2027");
    expect(dash).not.toContain("Cancel renewal");
  });

  it("a second order paid for items already paid activates nothing and its subscription is cancelled at Stripe (issue #13)", async () => {
    const owner = await ownerWithAddress(rt, "stripe.twice@example.test");
    const id = await newItem(rt, owner, "Twice");
    const { order: first } = await startOrder(owner, [id], "year", "en");
    const { order: second } = await startOrder(owner, [id], "year", "en");
    expect(second.id).not.toBe(first.id);
    const a = completed(first.id, { amount_total: first.totalAmount, currency: "eur" });
    expect(await (await webhook(a.payload, a.signature)).json()).toMatchObject({ result: "applied" });
    const before = await product(rt, id);
    const b = completed(second.id, { amount_total: second.totalAmount, currency: "eur" });
    const res = await webhook(b.payload, b.signature);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: "alreadyCovered" });
    expect(await orderById(rt, second.id)).toMatchObject({ status: "duplicate" });
    expect(await product(rt, id)).toEqual(before);
    expect(await shipmentsOf(rt, second.id)).toHaveLength(0);
    expect(await mailsTo(rt, "stripe.twice@example.test")).toHaveLength(1);
    const sub = `/v1/subscriptions/sub_${second.id.slice(0, 8)}`;
    expect(stripe.requests.some((r) => r.method === "DELETE" && r.path === sub)).toBe(true);
    // Stripe's success page for the second order says so, instead of waiting for ever.
    const page = await (await get(`/order/complete/${second.id}`, { cookie: owner.cookie, lang: "sv" })).text();
    expect(page).toContain("Sakerna var redan aktiva");
    expect(page).toContain("Kontakta oss så betalar vi tillbaka pengarna.");
  });

  it("events for unknown orders and unused event types are acknowledged and change nothing", async () => {
    const unknown = completed("00000000-0000-4000-8000-000000000000", {}, "evt_unknown");
    expect(await (await webhook(unknown.payload, unknown.signature)).json()).toMatchObject({ result: "unknownOrder" });
    const other = signedEvent({ id: "evt_other", type: "customer.created", data: { object: { id: "cus_1" } } });
    expect(await (await webhook(other.payload, other.signature)).json()).toMatchObject({ result: "ignored" });
    expect((await fetch(`${server.url}/api/stripe/webhook`)).status).toBe(405);
  });
});

describe(`issue #13 limits on ${label}`, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  const { post } = httpClient(() => server.url);

  beforeAll(async () => {
    db = await createTestDatabase("orders_limits");
    // Rate limits on, as in production.
    server = await startServer(testEnv(db));
    rt = await createTestRuntime({ ...testEnv(db), BASE_URL: server.url });
  });
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
  });

  it("order creation is rate-limited per user: the eleventh order in an hour is a translated 429 and creates nothing", async () => {
    const owner = await ownerWithAddress(rt);
    const id = await newItem(rt, owner);
    for (let i = 0; i < 10; i++) {
      expect(
        (await post("/order", { immediateStart: "yes", items: id, payment: "year" }, { cookie: owner.cookie })).status,
      ).toBe(302);
    }
    const refused = await post(
      "/order",
      { immediateStart: "yes", items: id, payment: "year" },
      { cookie: owner.cookie, lang: "sv" },
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("3600");
    expect(await refused.text()).toContain("För många beställningar på kort tid. Försök igen om 60 minuter.");
    expect(await ordersOf(rt, owner.id)).toHaveLength(10);
    // Another user is not affected.
    const other = await ownerWithAddress(rt, "limits.other@example.test");
    const theirs = await newItem(rt, other);
    expect(
      (await post("/order", { immediateStart: "yes", items: theirs, payment: "year" }, { cookie: other.cookie }))
        .status,
    ).toBe(302);
  });

  it("production refuses to start with test payments unless ALLOW_TEST_PAYMENTS=1 is set", async () => {
    await expect(startServer(testEnv(db, { ALLOW_TEST_PAYMENTS: "0" }))).rejects.toThrow(/ALLOW_TEST_PAYMENTS=1/);
  });
});
