/**
 * Invoice payment for organisations over HTTP (decision 027) against
 * the production server and a real database (SQLite, or PostgreSQL with DATABASE_URL):
 * only an organisation's admins pay by invoice and see its invoices and receipts (members
 * 403, outsiders and other organisations' admins 404); the totals are the server's; VAT
 * (25 % Swedish, or the reverse charge for an EU business outside Sweden with a VAT
 * number); the simulated invoice of the test provider; the Stripe path through the local
 * stand-in (customer, invoice items, send_invoice with 30 days, finalize, send) and its
 * webhook events (paid once, failed, voided), and the lapse of an invoice long overdue.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { lapseDueOrders } from "../../app/server/orders/billing.service.server";
import { clearOverdueInvoice } from "../../app/server/orders/invoice.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { getOrderView } from "../../app/server/orders/order-page.service.server";
import { lapseOrder, PAYMENT_RETRY_GRACE_MS } from "../../app/server/orders/lifecycle.server";
import { findOrder } from "../../app/server/orders/orders.repository.server";
import { createOrganisation, leaveOrganisation } from "../../app/server/organisations/organisations.service.server";
import { insertMember } from "../../app/server/organisations/organisations.repository.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { pdfToText } from "../support/pdf";
import { startServer, type TestServer } from "../support/server";
import { invoiceEvent, startStripeStandIn, stripeEnv, type StripeStandIn } from "../support/stripe";
import { createUser, type TestUser } from "../support/users";
import { uniqueOrgNumber } from "../support/org-numbers";

const label = usingPostgres() ? "PostgreSQL" : "SQLite";
const DAY = 24 * 60 * 60_000;

const ADDRESS = {
  firstname: "Anna",
  lastname: "Admin",
  email: "anna.admin@example.test",
  co: "",
  address: "Storgatan 1",
  address2: "",
  city: "Umeå",
  state: "",
  zip: "903 26",
  country: "Sweden",
};

const SWEDISH_ORG = {
  name: "Acme AB",
  // One number makes one organisation (decision 057): each creation its own.
  get orgNumber() {
    return uniqueOrgNumber();
  },
  billingEmail: "billing@acme.example",
  invoiceStreet: "Storgatan 1",
  invoicePostcode: "903 26",
  invoiceCity: "Umeå",
  invoiceCountry: "SE",
  vatNumber: "SE556036079301",
  deskContact: "Reception",
};
const GERMAN_ORG = {
  ...SWEDISH_ORG,
  name: "Muster GmbH",
  billingEmail: "rechnung@muster.example",
  invoiceStreet: "Hauptstraße 1",
  invoicePostcode: "10115",
  invoiceCity: "Berlin",
  invoiceCountry: "DE",
  vatNumber: "DE123456789",
};

let seq = 0;
async function person(rt: Runtime, name: string): Promise<TestUser> {
  const u = await createUser(rt, { name, email: `inv-${++seq}-${Date.now()}@example.test` });
  await keepOrderAddress(depsOf(rt), u.id, { ...ADDRESS, email: u.email }, false);
  return u;
}
const orgItem = (rt: Runtime, u: TestUser, org: string, name: string) =>
  createItem(
    depsOf(rt),
    u.id,
    { name, findFee: 100, prodType: "laptop", contactInfo: "x", payment: "year", intent: "payLater" },
    "en",
    org,
  );
const orderRow = (rt: Runtime, id: string) =>
  rt.database.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const productRow = (rt: Runtime, id: string) =>
  rt.database.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const receiptsOf = (rt: Runtime, orderId: string) =>
  rt.database.db.selectFrom("receipts").selectAll().where("orderId", "=", orderId).execute();
const shipmentsOf = (rt: Runtime, orderId: string) =>
  rt.database.db.selectFrom("sticker_shipments").selectAll().where("orderId", "=", orderId).execute();
const inScope = (u: TestUser, org: string) => ({ cookie: `${u.cookie}; ConsentApproved=true; hittad.scope=${org}` });
const orderIdFrom = (res: Response) => {
  const m = /^\/order\/([0-9a-f-]{36})\/invoice$/.exec(res.headers.get("location") ?? "");
  expect(m, `${res.status} ${res.headers.get("location")}`).not.toBeNull();
  return m![1]!;
};
/**
 * Every organisation's billing email confirmed, as its mailed link does (decision 028;
 * tests/integration/accountable-invoicing.test.ts tests the link and the other checks).
 */
const confirmBillingEmails = (rt: Runtime) =>
  rt.database.db
    .updateTable("organisations")
    .set((eb) => ({ billingEmailConfirmed: eb.ref("billingEmail") }))
    .execute();
/** Many invoices of one organisation number stay unpaid here: the credit limit has its own tests. */
const MANY_ON_CREDIT = { INVOICE_CREDIT_ITEMS: "10000" };
const invoiceForm = (ids: string[], payment = "year") => [
  ...ids.map((id): [string, string] => ["items", id]),
  ["payment", payment] as [string, string],
  ["intent", "invoice"] as [string, string],
];

describe(`pay by invoice, test provider, on ${label}`, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let otherAdmin: TestUser;
  let org: string;
  let germanOrg: string;
  const http = httpClient(() => server.url);

  beforeAll(async () => {
    db = await createTestDatabase("invoices");
    // A VAT-registered seller: receipts show VAT and the reverse charge (decision 057).
    const env = testEnv(db, {
      RATE_LIMIT_DISABLED: "1",
      COMPANY_NAME: "Hittad Sverige AB",
      COMPANY_VAT_NR: "SE559000123401",
      ...MANY_ON_CREDIT,
    });
    server = await startServer(env);
    rt = await createTestRuntime({ ...env, BASE_URL: server.url });
    admin = await person(rt, "Anna Admin");
    member = await person(rt, "Mats Member");
    outsider = await person(rt, "Olle Outsider");
    otherAdmin = await person(rt, "Greta Gmbh");
    org = await createOrganisation(depsOf(rt), admin.id, SWEDISH_ORG);
    await insertMember(rt.database.db, {
      organisationId: org,
      userId: member.id,
      role: "member",
      createdAt: Date.now(),
    });
    germanOrg = await createOrganisation(depsOf(rt), otherAdmin.id, GERMAN_ORG);
    await confirmBillingEmails(rt);
  });
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
  });

  it("offers 'Pay by invoice' on /order to the organisation's admins only", async () => {
    await orgItem(rt, admin, org, "Offer laptop");
    const adminPage = await (await http.get("/order", inScope(admin, org))).text();
    expect(adminPage).toContain("Pay by invoice");
    expect(adminPage).toContain("billing@acme.example");
    await orgItem(rt, member, org, "Member's phone");
    const memberPage = await (await http.get("/order", inScope(member, org))).text();
    expect(memberPage).not.toContain("Pay by invoice");
    const personal = await (await http.get("/order", { cookie: `${admin.cookie}; ConsentApproved=true` })).text();
    expect(personal).not.toContain("Pay by invoice");
  });

  it("an organisation's stickers go to the organisation's address with its name as recipient, unless an admin changes it for the organisation; the personal address stays the person's", async () => {
    const who = await person(rt, "Sara Shipping");
    const shipOrg = await createOrganisation(depsOf(rt), who.id, { ...SWEDISH_ORG, name: "Frakt AB" });
    await confirmBillingEmails(rt);
    const item = await orgItem(rt, who, shipOrg, "Shipped laptop");
    const addressOf = (html: string) =>
      /<address class="mb-1 order-address">(.*?)<\/address>/s.exec(html)?.[1]?.replace(/<[^>]+>/g, "|") ?? "";
    const orgPage = await (await http.get("/order", inScope(who, shipOrg))).text();
    expect(addressOf(orgPage)).toContain("Frakt AB");
    expect(addressOf(orgPage)).toContain("Storgatan 1");
    expect(addressOf(orgPage)).not.toContain("Sara");
    // The address form in the organisation's scope: a recipient, no person's last name, no "save in my profile".
    const form = await (await http.get("/user/register-adress", inScope(who, shipOrg))).text();
    expect(form).toContain('value="Frakt AB"');
    expect(form).toContain("Recipient");
    expect(form).not.toContain('name="lastname"');
    expect(form).not.toContain('name="save"');
    // The invoice order is addressed to the organisation.
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(who, shipOrg)));
    expect(JSON.parse(String((await orderRow(rt, id)).adress))).toMatchObject({ firstname: "Frakt AB", lastname: "" });

    // Changed for the organisation: used there, and the personal scope keeps the person's.
    const changed = await http.post(
      "/user/register-adress",
      {
        firstname: "Frakt AB, Lager 2",
        email: who.email,
        address: "Hamngatan 9",
        zip: "41105",
        city: "Göteborg",
        country: "SE",
      },
      inScope(who, shipOrg),
    );
    expect(changed.status).toBe(302);
    expect(addressOf(await (await http.get("/order", inScope(who, shipOrg))).text())).toContain("Hamngatan 9");
    const personal = await (await http.get("/order", { cookie: `${who.cookie}; ConsentApproved=true` })).text();
    expect(addressOf(personal)).not.toContain("Hamngatan 9");
    expect(addressOf(personal)).not.toContain("Frakt AB");
  });

  it("a member cannot pay by invoice (403), nor anyone in the personal scope (400), and nothing is ordered", async () => {
    const item = await orgItem(rt, member, org, "Member's tablet");
    const res = await http.post("/order", invoiceForm([item]), inScope(member, org));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Only the organisation");
    const personal = await http.post("/order", invoiceForm([item]), {
      cookie: `${member.cookie}; ConsentApproved=true`,
    });
    expect(personal.status).toBe(400);
    const orders = await rt.database.db.selectFrom("orders").select("id").where("userId", "=", member.id).execute();
    expect(orders).toEqual([]);
  });

  it("an organisation is billed for its own items only: a personal item or another organisation's item in the order is refused and nothing is ordered", async () => {
    const deps = depsOf(rt);
    // The admin of both organisations, with a personal item too.
    const both = await person(rt, "Bo Both");
    const orgA = await createOrganisation(deps, both.id, { ...SWEDISH_ORG, name: "A AB" });
    const orgB = await createOrganisation(deps, both.id, { ...SWEDISH_ORG, name: "B AB" });
    await confirmBillingEmails(rt);
    const ofA = await orgItem(rt, both, orgA, "A's laptop");
    const ofB = await orgItem(rt, both, orgB, "B's laptop");
    const personal = await createItem(
      deps,
      both.id,
      { name: "Own bike", findFee: 100, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
      "en",
    );
    for (const other of [personal, ofB]) {
      const res = await http.post("/order", invoiceForm([ofA, other]), inScope(both, orgA));
      expect(res.status).toBe(400);
      // A card order in A's scope is refused alike, and A's items do not go into a personal order.
      await expect(
        createOrder(deps, {
          userId: both.id,
          itemIds: [ofA, other],
          organisationId: orgA,
          period: "year",
          lang: "en",
        }),
      ).rejects.toMatchObject({ code: "unknownItems" });
    }
    await expect(
      createOrder(deps, {
        userId: both.id,
        itemIds: [ofA, personal],
        organisationId: null,
        period: "year",
        lang: "en",
      }),
    ).rejects.toMatchObject({ code: "unknownItems" });
    const orders = await rt.database.db.selectFrom("orders").select("id").where("userId", "=", both.id).execute();
    expect(orders).toEqual([]);
    for (const p of [ofA, ofB, personal]) expect(Number((await productRow(rt, p)).payed)).toBe(0);
  });

  it("the same items are never invoiced twice: of two submits at once one invoice is made, the other refused", async () => {
    const ids = [await orgItem(rt, admin, org, "Twice laptop"), await orgItem(rt, admin, org, "Twice phone")];
    const answers = await Promise.all([
      http.post("/order", invoiceForm(ids), inScope(admin, org)),
      http.post("/order", invoiceForm([...ids].reverse()), inScope(admin, org)),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([302, expect.any(Number)]);
    expect([400, 409]).toContain(answers.map((r) => r.status).sort()[1]);
    const open = await rt.database.db
      .selectFrom("orders")
      .innerJoin("order_items", "order_items.orderId", "orders.id")
      .select("orders.id")
      .distinct()
      .where("order_items.productId", "in", ids)
      .where("orders.status", "in", ["pending", "invoiced"])
      .execute();
    expect(open).toHaveLength(1);
    // And a second invoice order while the first is still being issued (pending) is refused.
    const more = await orgItem(rt, admin, org, "Pending laptop");
    const input = {
      userId: admin.id,
      itemIds: [more],
      organisationId: org,
      period: "year" as const,
      lang: "en" as const,
    };
    const terms = { buyer: (await orderRow(rt, open[0]!.id)).invoiceTo, reverseCharge: false };
    const invoiceTerms = { ...terms, buyer: JSON.parse(String(terms.buyer)) };
    await createOrder(depsOf(rt), input, invoiceTerms);
    await expect(createOrder(depsOf(rt), input, invoiceTerms)).rejects.toMatchObject({ code: "alreadyInvoiced" });
  });

  it("invoices are yearly: a monthly invoice is refused with a translated 400", async () => {
    const item = await orgItem(rt, admin, org, "Monthly laptop");
    const res = await http.post("/order", invoiceForm([item], "month"), { ...inScope(admin, org), lang: "sv" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Fakturor gäller ett år i taget");
  });

  it("the invoice's totals are the server's: three items yearly in Swedish are 600 kr with 120 kr VAT, due in 30 days; stickers active at once, shipped once paid", async () => {
    const ids = [
      await orgItem(rt, admin, org, "Laptop A"),
      await orgItem(rt, admin, org, "Laptop B"),
      await orgItem(rt, admin, org, "Laptop C"),
    ];
    // A browser's own "total" is not a field the server reads.
    const res = await http.post("/order", [["immediateStart", "yes"], ...invoiceForm(ids), ["total", "1"]], {
      ...inScope(admin, org),
      lang: "sv",
    });
    expect(res.status).toBe(302);
    const id = orderIdFrom(res);
    const o = await orderRow(rt, id);
    expect(o).toMatchObject({
      method: "invoice",
      status: "invoiced",
      organisationId: org,
      currency: "SEK",
      packageAmount: 90000,
      discountAmount: 30000,
      totalAmount: 60000,
      reverseCharge: 0,
    });
    expect(Number(o.vatAmount)).toBe(12000);
    expect(o.invoiceNumber).toMatch(/^TEST-\d+$/);
    expect(Number(o.dueAt) - Number(o.createdAt)).toBeGreaterThanOrEqual(30 * DAY - 60_000);
    expect(Number(o.dueAt) - Number(o.createdAt)).toBeLessThanOrEqual(30 * DAY + 60_000);
    for (const p of ids) expect(Number((await productRow(rt, p)).payed)).toBe(1);
    // Posted once the invoice is paid or staff release them (decision 028).
    expect(await shipmentsOf(rt, id)).toHaveLength(0);
    expect(await receiptsOf(rt, id)).toHaveLength(0);

    const page = await http.get(`/order/${id}/invoice`, { ...inScope(admin, org), lang: "sv" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("TEST — inte en riktig faktura");
    expect(html).toContain("600\u00a0kr");
    expect(html).toContain("120\u00a0kr");
    expect(html).toContain("30 dagar netto");
    expect(html).not.toContain("Omvänd betalningsskyldighet");
  });

  it("a business's invoice and receipt list lines without VAT beside 'Amount excluding VAT': 720 − 240 = 480 kr, VAT 120 kr, total 600 kr as charged", async () => {
    const ids = [
      await orgItem(rt, admin, org, "Net A"),
      await orgItem(rt, admin, org, "Net B"),
      await orgItem(rt, admin, org, "Net C"),
    ];
    const id = orderIdFrom(await http.post("/order", invoiceForm(ids), { ...inScope(admin, org), lang: "sv" }));
    // What was charged does not change: 900 − 300 = 600 kr including 120 kr VAT.
    expect(await orderRow(rt, id)).toMatchObject({ packageAmount: 90000, discountAmount: 30000, totalAmount: 60000 });
    const cells = (html: string) =>
      [...html.matchAll(/<td class="text-end[^"]*">([^<]*)<\/td>/g)].map((m) => m[1]!.replace(/\u00a0/g, " "));
    const invoice = await (await http.get(`/order/${id}/invoice`, { ...inScope(admin, org), lang: "sv" })).text();
    expect(cells(invoice)).toEqual(["720 kr", "−240 kr", "480 kr", "120 kr", "600 kr"]);
    expect(invoice).toContain("Belopp exklusive moms");
    expect(invoice).not.toContain("900\u00a0kr");

    await http.post(`/order/${id}/invoice`, {}, inScope(admin, org));
    const receipt = await (await http.get(`/order/${id}/receipt`, { ...inScope(admin, org), lang: "sv" })).text();
    expect(cells(receipt)).toEqual(["720 kr", "−240 kr", "480 kr", "120 kr", "600 kr"]);
    const pdf = await http.get(`/order/${id}/receipt.pdf`, { ...inScope(admin, org), lang: "sv" });
    const text = pdfToText(Buffer.from(await pdf.arrayBuffer())).replace(/\s+/g, " ");
    for (const amount of ["720 kr", "240 kr", "480 kr", "120 kr", "600 kr"]) expect(text).toContain(amount);
    expect(text).not.toContain("900 kr");
  });

  it("an EU business outside Sweden with a VAT number pays no VAT; invoice and receipt say 'Reverse charge'", async () => {
    const item = await orgItem(rt, otherAdmin, germanOrg, "Firmenlaptop");
    const res = await http.post("/order", invoiceForm([item]), inScope(otherAdmin, germanOrg));
    const id = orderIdFrom(res);
    const o = await orderRow(rt, id);
    // €30 includes 25 % Swedish VAT: without it €24.
    expect(o).toMatchObject({ currency: "EUR", totalAmount: 2400, reverseCharge: 1 });
    expect(Number(o.vatAmount)).toBe(0);
    const html = await (await http.get(`/order/${id}/invoice`, inScope(otherAdmin, germanOrg))).text();
    expect(html).toContain("Reverse charge");
    expect(html).toContain("DE123456789");
    expect(html).toContain("€24");
    // The buyer's country by its name in the reader's language, never its code (decision 057).
    expect(html).toMatch(/<span class="d-block">Germany<\/span>/);

    const paid = await http.post(`/order/${id}/invoice`, {}, inScope(otherAdmin, germanOrg));
    expect(paid.status).toBe(302);
    const [receipt] = await receiptsOf(rt, id);
    expect(receipt).toMatchObject({ totalAmount: 2400, reverseCharge: 1 });
    expect(Number(receipt!.vatAmount)).toBe(0);
    const receiptPage = await (await http.get(`/order/${id}/receipt`, inScope(otherAdmin, germanOrg))).text();
    expect(receiptPage).toContain("Reverse charge");
    expect(receiptPage).toContain("Muster GmbH");
    const pdf = await http.get(`/order/${id}/receipt.pdf`, { ...inScope(otherAdmin, germanOrg), lang: "sv" });
    expect(pdf.status).toBe(200);
    expect(pdfToText(Buffer.from(await pdf.arrayBuffer()))).toMatch(/Reverse charge|Omvänd betalningsskyldighet/);
  });

  it("an EU customer without a VAT number pays 25 % Swedish VAT", async () => {
    const finnish = await createOrganisation(depsOf(rt), otherAdmin.id, {
      ...SWEDISH_ORG,
      name: "Oy Ab",
      invoiceCountry: "FI",
      vatNumber: null,
    });
    await confirmBillingEmails(rt);
    const item = await orgItem(rt, otherAdmin, finnish, "Finnish laptop");
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(otherAdmin, finnish)));
    expect(await orderRow(rt, id)).toMatchObject({ totalAmount: 3000, reverseCharge: 0, vatAmount: 600 });
  });

  it("marking the simulated invoice paid settles it once: one receipt, status paid, stickers not shipped twice", async () => {
    const item = await orgItem(rt, admin, org, "Paid laptop");
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(admin, org)));
    for (let i = 0; i < 2; i++) {
      const res = await http.post(`/order/${id}/invoice`, {}, inScope(admin, org));
      expect(res.status).toBe(302);
    }
    expect((await orderRow(rt, id)).status).toBe("paid");
    expect(await receiptsOf(rt, id)).toHaveLength(1);
    expect(await shipmentsOf(rt, id)).toHaveLength(1);
    const html = await (await http.get(`/order/${id}/invoice`, inScope(admin, org))).text();
    expect(html).toContain("Paid");
    expect(html).not.toContain("Mark as paid (test)");
  });

  it("an organisation's invoices and receipts: admins see them; members 403; outsiders and another organisation's admin 404", async () => {
    const item = await orgItem(rt, admin, org, "Listed laptop");
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(admin, org)));
    await http.post(`/order/${id}/invoice`, {}, inScope(admin, org));
    const number = (await orderRow(rt, id)).invoiceNumber!;

    const adminPage = await (await http.get(`/organisations/${org}`, inScope(admin, org))).text();
    expect(adminPage).toContain("Invoices and receipts");
    expect(adminPage).toContain(`Invoice ${number}`);
    expect(adminPage).toContain(`/order/${id}/receipt?number=`);
    const memberPage = await (await http.get(`/organisations/${org}`, inScope(member, org))).text();
    expect(memberPage).not.toContain("Invoices and receipts");
    expect(memberPage).not.toContain(number);

    for (const path of [`/order/${id}/invoice`, `/order/${id}/receipt`, `/order/${id}/receipt.pdf`]) {
      expect((await http.get(path, inScope(member, org))).status, `member ${path}`).toBe(403);
      expect((await http.get(path, inScope(outsider, org))).status, `outsider ${path}`).toBe(404);
      expect((await http.get(path, inScope(otherAdmin, germanOrg))).status, `other org ${path}`).toBe(404);
    }
    expect((await http.post(`/order/${id}/invoice`, {}, inScope(member, org))).status).toBe(403);
    expect((await http.post(`/order/${id}/invoice`, {}, inScope(otherAdmin, germanOrg))).status).toBe(404);
    // The other organisation's page lists only its own invoices.
    const germanPage = await (await http.get(`/organisations/${germanOrg}`, inScope(otherAdmin, germanOrg))).text();
    expect(germanPage).not.toContain(number);
  });

  it("a member opens the receipt of their own card order in the organisation's scope (admins see it without the member's address); after leaving, it is gone for them", async () => {
    const deps = depsOf(rt);
    const payer = await person(rt, "Pia Payer");
    await insertMember(rt.database.db, {
      organisationId: org,
      userId: payer.id,
      role: "member",
      createdAt: Date.now(),
    });
    // The member changed the organisation's address to their home for this order.
    await keepOrderAddress(deps, payer.id, { ...ADDRESS, address: "Hemvägen 7", email: payer.email }, false, org);
    const item = await orgItem(rt, payer, org, "Pia's laptop");
    const card = await createOrder(deps, {
      userId: payer.id,
      itemIds: [item],
      organisationId: org,
      period: "year",
      lang: "en",
    });
    await completeTestPayment(deps, { userId: payer.id, orderId: card.id });
    const own = await http.get(`/order/${card.id}/receipt`, inScope(payer, org));
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("Hemvägen 7");
    const byAdmin = await http.get(`/order/${card.id}/receipt`, inScope(admin, org));
    expect(byAdmin.status).toBe(200);
    const adminHtml = await byAdmin.text();
    expect(adminHtml).not.toContain("Hemvägen 7");
    // Another member still may not.
    expect((await http.get(`/order/${card.id}/receipt`, inScope(member, org))).status).toBe(403);

    // The cancel page is the payer's while they are a member (decision 028).
    const cancelPage = await http.get(`/order/${card.id}/cancel`, inScope(payer, org));
    expect(cancelPage.status).toBe(200);
    expect(await cancelPage.text()).toContain("Pia&#x27;s laptop");

    await leaveOrganisation(deps, payer.id, org);
    expect((await http.get(`/order/${card.id}/receipt`, { cookie: payer.cookie })).status).toBe(404);
    await expect(getOrderView(deps, payer.id, card.id)).rejects.toMatchObject({ code: "notFound" });
    // One order-access rule for every order route: the ex-member gets 404 everywhere and
    // no longer sees the organisation's item names.
    for (const path of [
      `/order/${card.id}/cancel`,
      `/order/${card.id}/cancel.data`,
      `/order/${card.id}/payment`,
      `/order/complete/${card.id}`,
      `/order/${card.id}/receipt.pdf`,
    ]) {
      const res = await http.get(path, { cookie: payer.cookie });
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain("Pia's laptop");
    }
    const cancelPost = await http.post(`/order/${card.id}/cancel`, {}, { cookie: payer.cookie });
    expect(cancelPost.status).toBe(404);
    const viaDashboard = await http.post(
      "/dashboard",
      { intent: "resumeRenewal", orderId: card.id },
      { cookie: payer.cookie },
    );
    expect(viaDashboard.status).toBe(404);
    // Nor do they go on paying for the organisation's items they can no longer reach.
    expect((await orderRow(rt, card.id)).renewing).toBe(0);
  });

  it("an invoice order is never paid through the test checkout", async () => {
    const item = await orgItem(rt, admin, org, "Checkout-less laptop");
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(admin, org)));
    await expect(completeTestPayment(depsOf(rt), { userId: admin.id, orderId: id })).rejects.toMatchObject({
      code: "notFound",
    });
    expect((await http.get(`/order/checkout/${id}`, inScope(admin, org))).status).toBe(404);
    expect((await orderRow(rt, id)).status).toBe("invoiced");
  });

  it("an unpaid invoice keeps its items active when an earlier card order of them lapses", async () => {
    const item = await orgItem(rt, admin, org, "Relapsed laptop");
    const deps = depsOf(rt);
    const card = await createOrder(deps, {
      userId: admin.id,
      itemIds: [item],
      organisationId: org,
      period: "month",
      lang: "en",
    });
    await completeTestPayment(deps, { userId: admin.id, orderId: card.id });
    // The card order's month ran out; its lapse has not run yet.
    const past = Date.now() - DAY;
    await rt.database.db.updateTable("orders").set({ paidUntil: past }).where("id", "=", card.id).execute();
    await rt.database.db.updateTable("products").set({ paidUntil: past }).where("id", "=", item).execute();
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(admin, org)));
    expect((await orderRow(rt, id)).status).toBe("invoiced");
    expect(await lapseDueOrders(deps)).toBeGreaterThan(0);
    expect((await orderRow(rt, card.id)).lapsedAt).not.toBeNull();
    expect(Number((await productRow(rt, item)).payed)).toBe(1);
  });

  it("the lapse job does not lapse an invoice paid after it read it (the due condition is checked again in the claim)", async () => {
    const item = await orgItem(rt, admin, org, "Just-paid laptop");
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(admin, org)));
    // What the job read: still invoiced, long overdue.
    const stale = (await findOrder(rt.database.db, id))!;
    const late = Number(stale.dueAt) + PAYMENT_RETRY_GRACE_MS + 60_000;
    expect((await http.post(`/order/${id}/invoice`, {}, inScope(admin, org))).status).toBe(302);
    const lapsed = await rt.database.db
      .transaction()
      .execute((trx) => lapseOrder(trx, depsOf(rt), stale, late, late, true));
    expect(lapsed).toBeNull();
    expect((await orderRow(rt, id)).lapsedAt).toBeNull();
    expect(Number((await productRow(rt, item)).payed)).toBe(1);
  });

  it("an invoice still unpaid the grace after its due date ends its stickers (billing job); paying it later revives them", async () => {
    const item = await orgItem(rt, admin, org, "Overdue laptop");
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(admin, org)));
    const due = Number((await orderRow(rt, id)).dueAt);
    const deps = depsOf(rt);
    expect(await lapseDueOrders({ ...deps, clock: () => due + PAYMENT_RETRY_GRACE_MS - 60_000 })).toBe(0);
    expect(Number((await productRow(rt, item)).payed)).toBe(1);
    expect(await lapseDueOrders({ ...deps, clock: () => due + PAYMENT_RETRY_GRACE_MS + 60_000 })).toBeGreaterThan(0);
    expect(Number((await productRow(rt, item)).payed)).toBe(0);
    const html = await (await http.get(`/organisations/${org}`, inScope(admin, org))).text();
    expect(html).toContain("Unpaid, stickers off");
    expect((await http.post(`/order/${id}/invoice`, {}, inScope(admin, org))).status).toBe(302);
    expect(Number((await productRow(rt, item)).payed)).toBe(1);
    expect((await orderRow(rt, id)).lapsedAt).toBeNull();
  });
});

describe(`pay by invoice with Stripe (local stand-in) on ${label}`, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  let stripe: StripeStandIn;
  let admin: TestUser;
  let org: string;
  let germanAdmin: TestUser;
  let germanOrg: string;
  const http = httpClient(() => server.url);

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    db = await createTestDatabase("invoices_stripe");
    const env = testEnv(db, { RATE_LIMIT_DISABLED: "1", ...stripeEnv(stripe), ...MANY_ON_CREDIT });
    server = await startServer(env);
    rt = await createTestRuntime({ ...env, BASE_URL: server.url });
    admin = await person(rt, "Anna Admin");
    org = await createOrganisation(depsOf(rt), admin.id, SWEDISH_ORG);
    germanAdmin = await person(rt, "Greta Gmbh");
    germanOrg = await createOrganisation(depsOf(rt), germanAdmin.id, GERMAN_ORG);
    await confirmBillingEmails(rt);
  });
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
    await stripe?.close();
  });

  const webhook = async (e: { payload: string; signature: string }) => {
    const res = await fetch(`${server.url}/api/stripe/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": e.signature },
      body: e.payload,
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: string }).result;
  };
  const stripeInvoiceOf = async (orderId: string) => stripe.invoices.get((await orderRow(rt, orderId)).invoiceId!)!;

  it("makes the customer with the VAT id, the invoice items, a send_invoice invoice due in 30 days, finalizes and sends it", async () => {
    const item = await orgItem(rt, germanAdmin, germanOrg, "Stripe laptop");
    const from = stripe.requests.length;
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(germanAdmin, germanOrg)));
    const calls = stripe.requests.slice(from);
    expect(calls.map((r) => `${r.method} ${r.path.replace(/in_test_\d+/, "{in}")}`)).toEqual([
      "POST /v1/customers",
      "POST /v1/invoices",
      "POST /v1/invoiceitems",
      // The draft's total is compared before it is final (review of decision 027, finding 3).
      "GET /v1/invoices/{in}",
      "POST /v1/invoices/{in}/finalize",
      "POST /v1/invoices/{in}/send",
    ]);
    expect(calls[0]!.form).toMatchObject({
      email: "rechnung@muster.example",
      "address[country]": "DE",
      "tax_id_data[0][type]": "eu_vat",
      "tax_id_data[0][value]": "DE123456789",
      tax_exempt: "reverse",
    });
    expect(calls[1]!.form).toMatchObject({
      collection_method: "send_invoice",
      days_until_due: "30",
      currency: "eur",
      "metadata[orderId]": id,
    });
    expect(calls[1]!.form.footer).toContain("Reverse charge");
    expect(calls[2]!.form).toMatchObject({ amount: "2400", currency: "eur" });
    const o = await orderRow(rt, id);
    expect(o).toMatchObject({ status: "invoiced", provider: "stripe", totalAmount: 2400 });
    expect(o.invoiceNumber).toMatch(/^STANDIN-/);
    expect(o.invoiceUrl).toContain("/i/in_test_");
    expect(Number((await productRow(rt, item)).payed)).toBe(1);
    const html = await (await http.get(`/order/${id}/invoice`, inScope(germanAdmin, germanOrg))).text();
    expect(html).not.toContain("TEST — not a real invoice");
    expect(html).not.toContain("Mark as paid (test)");
    expect(html).toContain(o.invoiceUrl!);
  });

  it("a Swedish organisation's invoice has the package and discount lines and includes VAT", async () => {
    const ids = [
      await orgItem(rt, admin, org, "Phone 1"),
      await orgItem(rt, admin, org, "Phone 2"),
      await orgItem(rt, admin, org, "Phone 3"),
    ];
    const from = stripe.requests.length;
    const id = orderIdFrom(await http.post("/order", invoiceForm(ids), { ...inScope(admin, org), lang: "sv" }));
    const items = stripe.requests.slice(from).filter((r) => r.path === "/v1/invoiceitems");
    expect(items.map((r) => Number(r.form.amount))).toEqual([90000, -30000]);
    const customer = stripe.requests.slice(from).find((r) => r.path === "/v1/customers")!;
    expect(customer.form.tax_exempt).toBe("none");
    expect((await stripeInvoiceOf(id)).total).toBe(60000);
  });

  it("invoice.paid settles the order once (a replay changes nothing); a wrong amount is not applied", async () => {
    const item = await orgItem(rt, admin, org, "Webhook laptop");
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(admin, org)));
    const invoice = await stripeInvoiceOf(id);
    expect(
      await webhook(invoiceEvent("invoice.paid", invoice, { amount_paid: 1, status: "paid" }, { id: "evt_wrong" })),
    ).toBe("ignored");
    expect((await orderRow(rt, id)).status).toBe("invoiced");
    const paid = invoiceEvent("invoice.paid", invoice, { amount_paid: invoice.total, status: "paid" });
    expect(await webhook(paid)).toBe("applied");
    expect(await webhook(paid)).toBe("duplicate");
    expect(
      await webhook(invoiceEvent("invoice.paid", invoice, { amount_paid: invoice.total }, { id: "evt_again" })),
    ).toBe("applied");
    const o = await orderRow(rt, id);
    expect(o.status).toBe("paid");
    expect(Number(o.renewing)).toBe(0);
    expect(await receiptsOf(rt, id)).toHaveLength(1);
    expect(await shipmentsOf(rt, id)).toHaveLength(1);
  });

  it("invoice.payment_failed marks the invoice and keeps the stickers; invoice.voided ends them at once", async () => {
    const item = await orgItem(rt, admin, org, "Voided laptop");
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(admin, org)));
    const invoice = await stripeInvoiceOf(id);
    expect(await webhook(invoiceEvent("invoice.payment_failed", invoice))).toBe("applied");
    let o = await orderRow(rt, id);
    expect(o.paymentFailedAt).not.toBeNull();
    expect(o.status).toBe("invoiced");
    expect(Number((await productRow(rt, item)).payed)).toBe(1);
    expect(await webhook(invoiceEvent("invoice.voided", invoice, { status: "void" }))).toBe("applied");
    o = await orderRow(rt, id);
    expect(o.status).toBe("cancelled");
    expect(o.voidedAt).not.toBeNull();
    expect(Number((await productRow(rt, item)).payed)).toBe(0);
    const html = await (await http.get(`/organisations/${org}`, inScope(admin, org))).text();
    expect(html).toContain("Void");
    // A voided invoice stops the organisation's next one until staff clear it (decision 028).
    const next = await orgItem(rt, admin, org, "After the void");
    expect((await http.post("/order", invoiceForm([next]), inScope(admin, org))).status).toBe(409);
    await clearOverdueInvoice(depsOf(rt), id, "staff@example.test");
  });

  it("an invoice written off (marked uncollectible) and paid after all revives its items for the invoiced year, ships nothing twice", async () => {
    const item = await orgItem(rt, admin, org, "Written-off laptop");
    const id = orderIdFrom(await http.post("/order", invoiceForm([item]), inScope(admin, org)));
    const issued = await orderRow(rt, id);
    const invoice = await stripeInvoiceOf(id);
    expect(await webhook(invoiceEvent("invoice.marked_uncollectible", invoice, { status: "uncollectible" }))).toBe(
      "applied",
    );
    expect(Number((await productRow(rt, item)).payed)).toBe(0);
    expect(await webhook(invoiceEvent("invoice.paid", invoice, { amount_paid: invoice.total, status: "paid" }))).toBe(
      "applied",
    );
    const o = await orderRow(rt, id);
    expect(o.status).toBe("paid");
    expect(o.lapsedAt).toBeNull();
    expect(Number(o.paidUntil)).toBe(Number(issued.paidUntil));
    const p = await productRow(rt, item);
    expect(Number(p.payed)).toBe(1);
    expect(Number(p.paidUntil)).toBe(Number(issued.paidUntil));
    expect(await shipmentsOf(rt, id)).toHaveLength(1);
    const [receipt] = await receiptsOf(rt, id);
    expect(Number(receipt!.periodStart)).toBe(Number(issued.createdAt));
    expect(Number(receipt!.periodEnd)).toBe(Number(issued.paidUntil));
  });

  const orderOfItem = async (item: string) =>
    rt.database.db
      .selectFrom("orders")
      .innerJoin("order_items", "order_items.orderId", "orders.id")
      .select(["orders.id", "orders.status"])
      .where("order_items.productId", "=", item)
      .executeTakeFirstOrThrow();

  it("a failure after Stripe finalized the invoice voids it there: no live invoice for the cancelled order, nothing active", async () => {
    const item = await orgItem(rt, admin, org, "Unsent laptop");
    const from = stripe.requests.length;
    stripe.failOn(/^POST \/v1\/invoices\/[\w-]+\/send$/, 400);
    const res = await http.post("/order", invoiceForm([item]), inScope(admin, org));
    stripe.clearFailures();
    expect(res.status).toBe(502);
    const calls = stripe.requests.slice(from).map((r) => `${r.method} ${r.path.replace(/in_test_\d+/, "{in}")}`);
    expect(calls.slice(-3)).toEqual([
      "POST /v1/invoices/{in}/finalize",
      "POST /v1/invoices/{in}/send",
      "POST /v1/invoices/{in}/void",
    ]);
    const invoiceId = stripe.requests
      .slice(from)
      .find((r) => r.path.endsWith("/void"))!
      .path.split("/")[3]!;
    expect(stripe.invoices.get(invoiceId)!.status).toBe("void");
    expect((await orderOfItem(item)).status).toBe("cancelled");
    expect(Number((await productRow(rt, item)).payed)).toBe(0);
  });

  it("a draft whose total differs from the order's is never finalized nor sent", async () => {
    const item = await orgItem(rt, admin, org, "Taxed laptop");
    const from = stripe.requests.length;
    stripe.setInvoiceTax(100);
    try {
      const res = await http.post("/order", invoiceForm([item]), inScope(admin, org));
      expect(res.status).toBe(502);
    } finally {
      stripe.setInvoiceTax(0);
    }
    const paths = stripe.requests.slice(from).map((r) => r.path);
    expect(paths.some((p) => p.endsWith("/finalize") || p.endsWith("/send"))).toBe(false);
    expect((await orderOfItem(item)).status).toBe("cancelled");
    expect(Number((await productRow(rt, item)).payed)).toBe(0);
  });

  it("a Stripe failure makes no order and answers a translated 502", async () => {
    const item = await orgItem(rt, admin, org, "Failing laptop");
    stripe.failNext(500, 4);
    const res = await http.post("/order", invoiceForm([item]), inScope(admin, org));
    stripe.clearFailures();
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("The invoice could not be created");
    expect(Number((await productRow(rt, item)).payed)).toBe(0);
  });
});
