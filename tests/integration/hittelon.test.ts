/**
 * Hittelön the Swedish way and a sticker that never stops helping a finder (decision 019),
 * over HTTP against the production server, on SQLite and, with DATABASE_URL=postgres://…,
 * on PostgreSQL: the fee suggestion without JavaScript (nothing saved), the private
 * approximate value (never in finder HTML or the page cache, yes in the owner's export),
 * the "Can't meet the owner?" section, "I have my item back" (owner only, idempotent, one
 * mail, lost mode ends at once on the cached page), and lapsed items that still relay.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { DAY_MS } from "../../app/lib/domain/dates";
import { depsOf } from "../support/deps";
import { insertKeptPayment } from "../support/service-fixtures";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { createUser, type TestUser } from "../support/users";

const CONTACT = "070-555 12 34 (contact)";
const VALUE = 7_340_123;

let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
let smtp: TestSmtpServer;
let owner: TestUser;
let other: TestUser;
const http = httpClient(() => server.url);
const anon = { cookie: "ConsentApproved=true" };

function newIp() {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

async function item(name: string, paid: { payed: 0 | 1; paidUntil: number | null } | null) {
  const id = await createItem(
    depsOf(rt),
    owner.id,
    {
      name,
      findFee: 250,
      prodType: "other",
      contactInfo: CONTACT,
      contactVisibility: "public",
      payment: "year",
      intent: "payLater",
      approxValue: VALUE,
    },
    "sv",
  );
  if (paid) await rt.database.db.updateTable("products").set(paid).where("id", "=", id).execute();
  // A period paid for, ended: the lapsed relay is earned (decision 050).
  if (paid?.paidUntil != null) await insertKeptPayment(rt.database.db, owner.id, id, paid.paidUntil - 365 * DAY_MS);
  return id;
}

const FORM = {
  name: "Kamera",
  findFee: "10",
  prodType: "other",
  contactInfo: "070-1",
  contactVisibility: "public",
  payment: "year",
};

beforeAll(async () => {
  tdb = await createTestDatabase("hittelon");
  smtp = await startSmtpServer();
  const env = testEnv(tdb, { TRUST_PROXY: "1", RATE_LIMIT_DISABLED: "1", SMTP_URL: smtp.url, MAIL_POLL_MS: "100" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  owner = await createUser(rt, { name: "Olle Ägaresson", language: "sv" });
  other = await createUser(rt, { name: "Otto Annan" });
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await smtp?.close();
  await tdb?.drop();
});

describe("the fee suggestion (point 1)", () => {
  it("'Suggest fee' without JavaScript answers the form with about 10 % of the value and saves nothing", async () => {
    const before = await rt.database.db.selectFrom("products").select("id").execute();
    for (const lang of ["en", "sv"] as const) {
      const res = await http.post(
        "/product/register",
        { ...FORM, approxValue: "3000", intent: "suggest" },
        { cookie: owner.cookie, lang },
      );
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toMatch(/id="product-findFee"[^>]*value="300"|value="300"[^>]*id="product-findFee"/);
      // Live figures sit in their own elements (decision 057): compare the text a reader sees.
      expect(html.replace(/<[^>]+>/g, "")).toContain(
        lang === "sv" ? "Föreslagen hittelön: 300 kr" : "Suggested finder&#x27;s fee: €300",
      );
      expect(html).toContain("https://polisen.se/tjanster-tillstand/hittegods/");
    }
    expect(await rt.database.db.selectFrom("products").select("id").execute()).toHaveLength(before.length);
  });

  it("a suggestion without a value, or with a bad one, is a translated 400 next to the field, never a 500", async () => {
    for (const approxValue of ["", "12,5", "99999999999"]) {
      const res = await http.post(
        "/product/register",
        { ...FORM, approxValue, intent: "suggest" },
        { cookie: owner.cookie },
      );
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('id="product-approxValue-error"');
    }
  });

  it("'Suggest fee' on another user's item is a 404", async () => {
    const id = await item("Någon annans", null);
    const res = await http.post(
      `/product/edit/${id}`,
      { ...FORM, approxValue: "100", intent: "suggest" },
      { cookie: other.cookie },
    );
    expect(res.status).toBe(404);
  });

  it("the approximate value is saved for the owner, never in finder HTML, .data or the page cache, yes in the export", async () => {
    const saved = await http.post(
      "/product/register",
      { ...FORM, approxValue: "4711", intent: "payLater" },
      { cookie: owner.cookie },
    );
    expect(saved.status).toBe(302);
    const row = await rt.database.db
      .selectFrom("products")
      .select(["id", "approxValue"])
      .where("owner", "=", owner.id)
      .where("approxValue", "=", 4711)
      .executeTakeFirstOrThrow();
    const edit = await (await http.get(`/product/edit/${row.id}`, { cookie: owner.cookie })).text();
    expect(edit).toContain('value="4711"');

    const paid = await item("Dyr klocka", { payed: 1, paidUntil: null });
    for (let i = 0; i < 3; i++) {
      // The first renders and stores the page; the next are cache hits.
      for (const path of [`/${paid}`, `/product/${paid}`, `/product/${paid}.data`]) {
        const body = await (await http.get(path, anon)).text();
        expect(body).toContain("Dyr klocka");
        expect(body).not.toContain(String(VALUE));
      }
    }
    const exp = await http.post("/account/export", {}, { cookie: owner.cookie });
    expect(exp.status).toBe(200);
    const data = JSON.parse(await exp.text());
    expect(data.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: paid, approxValue: VALUE })]));
  });

  it("the finder page states the fee in the owner's currency, in Swedish as hittelön", async () => {
    const paid = await item("Paraply", { payed: 1, paidUntil: null });
    expect(await (await http.get(`/${paid}`, { ...anon, lang: "sv" })).text()).toContain("Hittelön: 250 kr");
    expect(await (await http.get(`/${paid}`, { ...anon, lang: "en" })).text()).toContain("Finder&#x27;s fee: 250 kr");
  });
});

describe("can't meet the owner (point 2)", () => {
  it("a collapsible section with the police, post-box keys and the item's typeable code, in both languages, no script", async () => {
    const paid = await item("Nycklar", { payed: 1, paidUntil: null });
    const code = await rt.database.db
      .selectFrom("products")
      .select("code")
      .where("id", "=", paid)
      .executeTakeFirstOrThrow();
    const typed = `${code.code.slice(0, 3)}-${code.code.slice(3, 6)}-${code.code.slice(6)}`;
    for (const [lang, summary, keys] of [
      ["en", "Can&#x27;t meet the owner?", "post box"],
      ["sv", "Kan du inte träffa ägaren?", "brevlåda"],
    ] as const) {
      const html = await (await http.get(`/product/${paid}`, { ...anon, lang })).text();
      const section = html.slice(html.indexOf('<details class="cant-meet'), html.indexOf("</details>") + 10);
      expect(section).toContain(summary);
      expect(section).toContain(keys);
      expect(section).toContain(typed);
      expect(section).toContain("https://polisen.se/tjanster-tillstand/hittegods/");
      expect(section).not.toContain("<script");
    }
  });
});

describe("return confirmed (point 3)", () => {
  async function conversation(itemId: string) {
    const res = await http.post(
      `/product/${itemId}`,
      { message: "Hittade den vid stationen", contact: "finder@example.test" },
      { ...anon, ip: newIp(), lang: "sv" },
    );
    expect(res.status).toBe(302);
    const path = (res.headers.get("location") ?? "").replace(/\?.*$/, "");
    const { id } = await rt.database.db
      .selectFrom("conversations")
      .select("id")
      .where("finderToken", "=", path.slice(3))
      .executeTakeFirstOrThrow();
    return { path, id };
  }

  it("only the owner can confirm; the finder sees the thank-you with the fee; one summary mail; lost mode ends on the cached page", async () => {
    const id = await item("Svart ryggsäck <b>", { payed: 1, paidUntil: null });
    expect((await http.post(`/product/${id}/lost`, { lost: "1", back: "item" }, { cookie: owner.cookie })).status).toBe(
      302,
    );
    const { path, id: conv } = await conversation(id);
    expect(await (await http.get(`/${id}`, anon)).text()).toContain("This item is lost");
    expect(await (await http.get(`/${id}`, anon)).text()).toContain("This item is lost"); // cached

    // Another user: 404, nothing recorded.
    expect(
      (await http.post(`/messages/${conv}`, { intent: "returned", confirm: "1" }, { cookie: other.cookie })).status,
    ).toBe(404);
    expect((await http.post(`/messages/${conv}`, { intent: "returned", confirm: "1" }, anon)).status).toBe(302); // to /login
    const row0 = await rt.database.db
      .selectFrom("conversations")
      .select("returnedAt")
      .where("id", "=", conv)
      .executeTakeFirstOrThrow();
    expect(row0.returnedAt).toBeNull();

    // The first tap only asks: nothing is recorded until confirmed.
    const ask = await http.post(`/messages/${conv}`, { intent: "returned" }, { cookie: owner.cookie });
    expect(ask.status).toBe(302);
    expect(ask.headers.get("location")).toBe(`/messages/${conv}?confirmReturn=1#return`);
    const asked = await rt.database.db
      .selectFrom("conversations")
      .select("returnedAt")
      .where("id", "=", conv)
      .executeTakeFirstOrThrow();
    expect(asked.returnedAt).toBeNull();
    const confirmPage = await (
      await http.get(`/messages/${conv}?confirmReturn=1`, { cookie: owner.cookie, lang: "en" })
    ).text();
    expect(confirmPage).toContain("Do you have the item back?");
    expect(confirmPage).toContain('name="confirm" value="1"');

    for (let i = 0; i < 2; i++) {
      const res = await http.post(`/messages/${conv}`, { intent: "returned", confirm: "1" }, { cookie: owner.cookie });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/messages/${conv}?returned=1`);
    }
    const own = await (await http.get(`/messages/${conv}?returned=1`, { cookie: owner.cookie, lang: "sv" })).text();
    expect(own).toContain("Återlämningen är bekräftad");
    expect(own).toContain("Hittelön: 250 kr");

    for (const [lang, thanks] of [
      ["sv", "Ägaren har fått tillbaka saken"],
      ["en", "The owner has the item back"],
    ] as const) {
      const finder = await (await http.get(path, { lang })).text();
      expect(finder).toContain(thanks);
      expect(finder).toContain("250 kr");
      expect(finder).not.toContain(owner.email);
    }
    // The cached finder page forgot the lost banner at once.
    const page = await (await http.get(`/${id}`, anon)).text();
    expect(page).not.toContain("This item is lost");
    expect(page).toContain("Finder&#x27;s fee: 250 kr");

    const mail = await smtp.waitForMail(
      (m) => m.to.includes(owner.email) && m.subject.startsWith("Du har fått tillbaka"),
    );
    expect(mail.subject).toBe("Du har fått tillbaka Svart ryggsäck <b>");
    expect(mail.text).toContain("Hittelön: 250 kr");
    expect(mail.html ?? "").not.toContain("<b>");
    await new Promise((r) => setTimeout(r, 500));
    const summaries = await rt.database.db
      .selectFrom("mail_outbox")
      .select("id")
      .where("subject", "like", "Du har fått tillbaka%")
      .where("to", "=", owner.email)
      .execute();
    expect(summaries).toHaveLength(1);
  });
});

describe("a sticker that never dies (point 4)", () => {
  it("a lapsed item shows 'not paid', never the contact info, still the message form; the owner's mail links to /order", async () => {
    const id = await item("Gammal cykel", { payed: 1, paidUntil: Date.now() - 60_000 });
    for (let i = 0; i < 2; i++) {
      for (const [lang, notPaid] of [
        ["en", "This item is not paid."],
        ["sv", "Den här saken är inte betald."],
      ] as const) {
        const html = await (await http.get(`/${id}`, { ...anon, lang })).text();
        expect(html).toContain(notPaid);
        expect(html).not.toContain(CONTACT);
        expect(html).toContain('name="message"');
        expect(html).toContain('<details class="cant-meet');
      }
    }
    const res = await http.post(`/${id}`, { message: "Cykeln står vid stationen" }, { ...anon, ip: newIp() });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/m\/[A-Za-z0-9_-]{43}\?sent=1$/);
    const mail = await smtp.waitForMail(
      (m) => m.to.includes(owner.email) && m.text.includes("Cykeln står vid stationen"),
    );
    expect(mail.text).toContain("Ditt klistermärke är inte aktivt");
    expect(mail.text).toContain(`${server.url}/order`);
  });

  it("an item never paid keeps the spec's page: the notice and the hand-in path, no form; a forged message is 404", async () => {
    const id = await item("Aldrig betald", null);
    const html = await (await http.get(`/${id}`, anon)).text();
    expect(html).toContain("This item is not paid.");
    expect(html).toContain("/contact?item=");
    expect(html).not.toContain(`/contact?item=${id}`);
    expect(html).not.toContain('name="message"');
    expect(html).not.toContain(CONTACT);
    expect((await http.post(`/${id}`, { message: "Hej" }, { ...anon, ip: newIp() })).status).toBe(404);
  });
});
