/**
 * Accountable invoicing (docs/decisions/028-accountable-invoicing.md)
 * over HTTP against the production server, on SQLite and, with DATABASE_URL=postgres://…,
 * on PostgreSQL: only a verified admin pays by invoice, once the billing email is
 * confirmed by its mailed link; an overdue or lapsed invoice of the organisation, or of
 * any with its organisation number, stops the next one until it is paid or staff clear it
 * on /admin/orders; at most INVOICE_CREDIT_ITEMS items on credit until the first invoice
 * is paid; an invoice's stickers are posted once it is paid or staff release them.
 * (Fifty invoices at once against the credit: tests/integration/rate-limit-concurrency.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, markVerified, type TestUser } from "../support/users";

const label = usingPostgres() ? "PostgreSQL" : "SQLite";
const STAFF = "staff-accountable@example.test";
const CREDIT = 4;

let seq = 0;
const orgNumber = () => `559${String(Date.now() % 1000).padStart(3, "0")}-${String(++seq).padStart(4, "0")}`;
const details = (number: string, billingEmail = `billing-${++seq}@company.example`) => ({
  name: `Company ${seq} AB`,
  orgNumber: number,
  billingEmail,
  invoiceStreet: "Storgatan 1",
  invoicePostcode: "903 26",
  invoiceCity: "Umeå",
  invoiceCountry: "SE",
  vatNumber: null,
  deskContact: "Reception",
});
const invoiceForm = (ids: string[]) => [
  ...ids.map((id): [string, string] => ["items", id]),
  ["payment", "year"] as [string, string],
  ["intent", "invoice"] as [string, string],
];

describe(`accountable invoicing on ${label}`, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  let staff: TestUser;
  const http = httpClient(() => server.url);

  beforeAll(async () => {
    db = await createTestDatabase("accountable_invoicing");
    const env = testEnv(db, { RATE_LIMIT_DISABLED: "1", ADMIN_EMAILS: STAFF, INVOICE_CREDIT_ITEMS: String(CREDIT) });
    server = await startServer(env);
    rt = await createTestRuntime({ ...env, BASE_URL: server.url });
    staff = await createUser(rt, { name: "Stina Staff", email: STAFF });
  });
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
  });

  async function admin(verified = true) {
    const u = await createUser(rt, { name: "Alva Admin", verified });
    await keepOrderAddress(
      depsOf(rt),
      u.id,
      {
        firstname: "Alva",
        lastname: "Admin",
        email: u.email,
        co: "",
        address: "Storgatan 1",
        address2: "",
        city: "Umeå",
        state: "",
        zip: "903 26",
        country: "Sweden",
      },
      false,
    );
    return u;
  }
  /** An organisation of `u`'s; its billing email confirmed unless told otherwise. */
  async function organisation(u: TestUser, number = orgNumber(), confirmed = true) {
    // Made with a number of its own, then given `number`: organisations sharing one exist
    // from before decision 057 refused a second, and the invoice guard still covers them.
    const id = await createOrganisation(depsOf(rt), u.id, details(orgNumber()));
    await rt.database.db.updateTable("organisations").set({ orgNumber: number }).where("id", "=", id).execute();
    if (confirmed) {
      await rt.database.db
        .updateTable("organisations")
        .set((eb) => ({ billingEmailConfirmed: eb.ref("billingEmail") }))
        .where("id", "=", id)
        .execute();
    }
    return id;
  }
  const items = async (u: TestUser, org: string, n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      out.push(
        await createItem(
          depsOf(rt),
          u.id,
          {
            name: `Laptop ${++seq}`,
            findFee: 100,
            prodType: "laptop",
            contactInfo: "x",
            payment: "year",
            intent: "payLater",
          },
          "en",
          org,
        ),
      );
    }
    return out;
  };
  const inScope = (u: TestUser, org: string, lang: "en" | "sv" = "en") => ({
    cookie: `${u.cookie}; ConsentApproved=true; hittad.scope=${org}`,
    lang,
  });
  const invoice = (u: TestUser, org: string, ids: string[], lang: "en" | "sv" = "en") =>
    http.post("/order", invoiceForm(ids), inScope(u, org, lang));
  const orderIdFrom = (res: Response) => {
    const m = /^\/order\/([0-9a-f-]{36})\/invoice$/.exec(res.headers.get("location") ?? "");
    expect(m, `${res.status} ${res.headers.get("location")}`).not.toBeNull();
    return m![1]!;
  };
  const ordersOf = (org: string) =>
    rt.database.db.selectFrom("orders").selectAll().where("organisationId", "=", org).execute();
  const shipmentsOf = (orderId: string) =>
    rt.database.db.selectFrom("sticker_shipments").select("id").where("orderId", "=", orderId).execute();
  const staffPost = (fields: Record<string, string>) =>
    http.post("/admin/orders", fields, { cookie: `${staff.cookie}; ConsentApproved=true` });

  it("an unverified admin cannot pay by invoice: 403 in both languages, nothing ordered, nothing active; the order page says why", async () => {
    const u = await admin(false);
    const org = await organisation(u);
    const ids = await items(u, org, 1);
    const en = await invoice(u, org, ids);
    expect(en.status).toBe(403);
    expect(await en.text()).toContain("Only an admin with a confirmed email address can pay by invoice");
    const sv = await invoice(u, org, ids, "sv");
    expect(sv.status).toBe(403);
    expect(await sv.text()).toContain("Bara en administratör med bekräftad e-postadress kan betala mot faktura");
    expect(await ordersOf(org)).toEqual([]);
    const page = await (await http.get("/order", inScope(u, org))).text();
    expect(page).toContain("confirm your own email address first");
    expect(page).not.toContain("order-invoice-submit");
    // Verified, the same admin may (the billing email is confirmed).
    await markVerified(rt, u.email);
    expect((await invoice(u, org, ids)).status).toBe(302);
  });

  it("the billing email is confirmed by its mailed link before the first invoice; a used link, or one for an address changed since, confirms nothing", async () => {
    const u = await admin();
    const org = await organisation(u, orgNumber(), false);
    const ids = await items(u, org, 1);
    const refused = await invoice(u, org, ids);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("billing email first: send the confirmation link");
    expect(await (await http.get("/order", inScope(u, org))).text()).toContain("Send the confirmation link");

    // Members cannot send the link; the admin can, and it goes to the billing email.
    const sent = await http.post(`/organisations/${org}`, { intent: "confirmBilling" }, inScope(u, org, "sv"));
    expect(sent.headers.get("location")).toBe(`/organisations/${org}?done=billingLinkSent#org-done`);
    const { billingEmail } = await rt.database.db
      .selectFrom("organisations")
      .select("billingEmail")
      .where("id", "=", org)
      .executeTakeFirstOrThrow();
    const mail = await rt.database.db
      .selectFrom("mail_outbox")
      .select(["subject", "text"])
      .where("to", "=", billingEmail)
      .executeTakeFirstOrThrow();
    // A consent request (decision 046): no organisation name before the link is opened.
    expect(mail.subject).toBe("Bekräfta en faktura-e-post på Hittad");
    const link = /https?:\/\/\S+\/organisations\/billing-email\/[A-Za-z0-9_-]+/.exec(mail.text)![0];
    const path = new URL(link).pathname;
    // The token is the key: no sign-in needed (a shared billing mailbox).
    const opened = await http.get(path, { cookie: "ConsentApproved=true" });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("the billing email of");
    expect((await http.get(path)).status).toBe(410);
    expect((await invoice(u, org, ids)).status).toBe(302);

    // A new billing email needs a new confirmation; a link sent before the change confirms nothing.
    const org2 = await organisation(u, orgNumber(), false);
    await http.post(`/organisations/${org2}`, { intent: "confirmBilling" }, inScope(u, org2));
    const before = await rt.database.db
      .selectFrom("organisations")
      .select("billingEmail")
      .where("id", "=", org2)
      .executeTakeFirstOrThrow();
    const old = await rt.database.db
      .selectFrom("mail_outbox")
      .select("text")
      .where("to", "=", before.billingEmail)
      .executeTakeFirstOrThrow();
    await rt.database.db
      .updateTable("organisations")
      .set({ billingEmail: "someone-else@company.example" })
      .where("id", "=", org2)
      .execute();
    const stale = /\/organisations\/billing-email\/[A-Za-z0-9_-]+/.exec(old.text)![0];
    expect((await http.get(stale)).status).toBe(410);
    expect((await invoice(u, org2, await items(u, org2, 1))).status).toBe(403);
  });

  it("an overdue or lapsed invoice stops the next one for the organisation and every organisation with its number, until staff clear it", async () => {
    const u = await admin();
    const number = orgNumber();
    const org = await organisation(u, number);
    const first = orderIdFrom(await invoice(u, org, await items(u, org, 1)));
    // Past its due date, unpaid.
    await rt.database.db
      .updateTable("orders")
      .set({ dueAt: Date.now() - 60_000 })
      .where("id", "=", first)
      .execute();
    const refused = await invoice(u, org, await items(u, org, 1));
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("is overdue or unpaid after its due date");
    // A new organisation with the same number, by another verified admin, is refused alike.
    const other = await admin();
    const twin = await organisation(other, number);
    expect((await invoice(other, twin, await items(other, twin, 1))).status).toBe(409);
    expect((await ordersOf(twin)).length).toBe(0);

    // Staff clear it on /admin/orders; nobody else can.
    expect((await http.post("/admin/orders", { intent: "clearInvoice", orderId: first }, inScope(u, org))).status).toBe(
      404,
    );
    const list = await (await http.get("/admin/orders", { cookie: staff.cookie })).text();
    expect(list).toContain("Overdue: no new invoices");
    expect((await staffPost({ intent: "clearInvoice", orderId: first })).headers.get("location")).toBe(
      "/admin/orders?done=cleared",
    );
    const second = orderIdFrom(await invoice(other, twin, await items(other, twin, 1)));

    // A lapsed invoice (stickers off after the grace) stops the next one the same way.
    await rt.database.db.updateTable("orders").set({ lapsedAt: Date.now() }).where("id", "=", second).execute();
    expect((await invoice(u, org, await items(u, org, 1))).status).toBe(409);
    // Paying it settles it: the next invoice goes out.
    expect((await http.post(`/order/${second}/invoice`, {}, inScope(other, twin))).status).toBe(302);
    expect((await invoice(u, org, await items(u, org, 1))).status).toBe(302);
  });

  it(`at most ${CREDIT} items on credit until the first invoice is paid; then no limit`, async () => {
    const u = await admin();
    const org = await organisation(u);
    const first = orderIdFrom(await invoice(u, org, await items(u, org, 3)));
    const over = await invoice(u, org, await items(u, org, 2), "sv");
    expect(over.status).toBe(409);
    expect(await over.text()).toContain(`högst ${CREDIT} saker`);
    // Still within: one more.
    orderIdFrom(await invoice(u, org, await items(u, org, 1)));
    expect((await invoice(u, org, await items(u, org, 1))).status).toBe(409);
    expect((await ordersOf(org)).filter((o) => o.status === "invoiced")).toHaveLength(2);
    // The first invoice paid: the credit limit is gone.
    expect((await http.post(`/order/${first}/invoice`, {}, inScope(u, org))).status).toBe(302);
    orderIdFrom(await invoice(u, org, await items(u, org, CREDIT + 2)));
  });

  it("an invoice's stickers are posted once it is paid, or when staff release them: once", async () => {
    const u = await admin();
    const org = await organisation(u);
    const paidLater = orderIdFrom(await invoice(u, org, await items(u, org, 1)));
    expect(await shipmentsOf(paidLater)).toHaveLength(0);
    expect((await http.post(`/order/${paidLater}/invoice`, {}, inScope(u, org))).status).toBe(302);
    expect(await shipmentsOf(paidLater)).toHaveLength(1);

    const released = orderIdFrom(await invoice(u, org, await items(u, org, 1)));
    expect(await shipmentsOf(released)).toHaveLength(0);
    expect(
      (await http.post("/admin/orders", { intent: "releaseShipment", orderId: released }, inScope(u, org))).status,
    ).toBe(404);
    expect(await (await http.get("/admin/orders", { cookie: staff.cookie })).text()).toContain(
      "Release the stickers now",
    );
    for (let i = 0; i < 2; i++) {
      expect((await staffPost({ intent: "releaseShipment", orderId: released })).status).toBe(302);
    }
    expect(await shipmentsOf(released)).toHaveLength(1);
    // Paid afterwards: nothing posted twice.
    expect((await http.post(`/order/${released}/invoice`, {}, inScope(u, org))).status).toBe(302);
    expect(await shipmentsOf(released)).toHaveLength(1);
  });
});
