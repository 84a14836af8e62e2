/**
 * Trusted contacts (decision 040) over HTTP against the production
 * server, with the SMTP and 46elks stand-ins, on SQLite and (DATABASE_URL=postgres://…)
 * PostgreSQL: nothing reaches a contact before they confirm (by the mailed link, or the
 * SMS link when they gave only a number); a confirmed contact gets the finder's message
 * with a private reply link and a stop link; their reply goes through the relay (the
 * finder sees the owner's side, never the contact) and the owner sees it; a wrong token is
 * 404; stop stops; the owner's per-item choice holds; bad input gets a translated 400.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { startElks, type ElksStandIn } from "../support/elks";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { createUser, type TestUser } from "../support/users";

let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
let smtp: TestSmtpServer;
let elks: ElksStandIn;
const http = httpClient(() => server.url);

async function paidItem(owner: TestUser, name: string) {
  const id = await createItem(
    depsOf(rt),
    owner.id,
    {
      name,
      findFee: 300,
      prodType: "mobile",
      contactInfo: "private",
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    },
    "en",
  );
  await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

/** A finder writes (no JavaScript); answers the conversation's id and the finder's token. */
async function finderWrites(item: string, message: string) {
  const b = randomBytes(3);
  const res = await http.post(
    `/product/${item}`,
    { message, contact: "" },
    { cookie: "ConsentApproved=true", ip: `10.${b[0]}.${b[1]}.${b[2]}` },
  );
  expect(res.status).toBe(302);
  const token = (res.headers.get("location") ?? "").slice(3, 46);
  const row = await rt.database.db
    .selectFrom("conversations")
    .select("id")
    .where("finderToken", "=", token)
    .executeTakeFirstOrThrow();
  return { id: row.id, token };
}

const pathOf = (text: string, prefix: string) => {
  const m = new RegExp(`https?://[^/\\s]+(${prefix}[A-Za-z0-9_-]+)`).exec(text);
  if (!m) throw new Error(`no ${prefix} link in: ${text}`);
  return m[1]!;
};

const settle = () => new Promise((r) => setTimeout(r, 1200));

async function addContact(owner: TestUser, fields: Record<string, string>) {
  return http.post(
    "/account/alerts",
    { intent: "addContact", name: "", email: "", phone: "", ...fields },
    {
      cookie: owner.cookie,
    },
  );
}

beforeAll(async () => {
  tdb = await createTestDatabase("trusted");
  smtp = await startSmtpServer();
  elks = await startElks();
  const env = testEnv(tdb, {
    TRUST_PROXY: "1",
    RATE_LIMIT_DISABLED: "1",
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: "100",
    ELKS_API_URL: elks.url,
    ELKS_API_USERNAME: elks.username,
    ELKS_API_PASSWORD: elks.password,
  });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await smtp?.close();
  await elks?.close();
  await tdb?.drop();
});

describe("a trusted contact by email", () => {
  it("gets nothing before confirming; once confirmed, the finder's message with a reply link; the reply reaches the finder and the owner", async () => {
    const owner = await createUser(rt, { name: "Olle Owner", language: "en" });
    const kim = `kim-${randomBytes(3).toString("hex")}@example.test`;
    const item = await paidItem(owner, "Red phone");
    const added = await addContact(owner, { name: "Kim Partner", email: kim });
    expect(added.status).toBe(302);
    const invite = await smtp.waitForMail((m) => m.to.includes(kim));
    // The one consent request (decision 046): no name in the subject, the first name in the text.
    expect(invite.subject).toBe("Will you be a trusted contact on Hittad?");
    expect(invite.text).toContain("Olle uses Hittad");
    expect(invite.text).not.toContain("Owner");
    expect(invite.text).toMatch(/\/t\/n\/[A-Za-z0-9_-]{12}/);
    const confirmPath = pathOf(invite.text, "/t/c/");

    // Not confirmed yet: the owner is reached, the contact is not.
    const before = await finderWrites(item, "Found it by the lake");
    await smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes("Found it by the lake"));
    await settle();
    expect(smtp.messages.filter((m) => m.to.includes(kim))).toHaveLength(1);
    const page = await (await http.get("/account/alerts", { cookie: owner.cookie })).text();
    expect(page).toContain("Waiting for confirmation");

    // Following the link only shows the page; the button confirms.
    const show = await http.get(confirmPath);
    expect(show.status).toBe(200);
    const shown = await show.text();
    expect(shown).toContain("Olle asks you");
    expect(shown).not.toContain("Olle Owner");
    expect(shown).toContain(">Confirm</button>");
    const confirmed = await http.post(confirmPath, {});
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("You are now a trusted contact");
    expect(await (await http.get(confirmPath)).text()).toContain("You are now a trusted contact");

    const found = await finderWrites(item, "I have your red phone, call me");
    const mail = await smtp.waitForMail((m) => m.to.includes(kim) && m.text.includes("I have your red phone"));
    expect(mail.subject).toBe("A finder wrote about Olle Owner's Red phone");
    const replyPath = pathOf(mail.text, "/t/r/");
    expect(mail.text).toMatch(/\/t\/s\/[A-Za-z0-9_-]{38}/);
    expect(before.id).not.toBe(found.id);

    const replyPage = await http.get(replyPath);
    expect(replyPage.status).toBe(200);
    expect(await replyPage.text()).toContain("I have your red phone, call me");
    const sent = await http.post(replyPath, { message: "Kim here: I can fetch it at six" });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe(`${replyPath}?sent=1`);

    // The finder reads it as the owner's side and learns nothing of Kim.
    const finderPage = await (await http.get(`/m/${found.token}`)).text();
    expect(finderPage).toContain("Kim here: I can fetch it at six");
    expect(finderPage).not.toContain("Kim Partner");
    expect(finderPage).not.toContain(kim);
    // The owner is told (the "reply" event) and sees who wrote it in the conversation.
    const told = await smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes("I can fetch it at six"));
    expect(told.text).toContain("Kim Partner");
    const conversation = await (await http.get(`/messages/${found.id}`, { cookie: owner.cookie })).text();
    expect(conversation).toContain("Kim Partner, your trusted contact");
    expect(conversation).toContain("by email to Kim Partner (k…@example.test)");
  });

  it("a wrong or altered reply token is 404 and changes nothing", async () => {
    const bad = [
      "/t/r/short",
      `/t/r/${"A".repeat(60)}`,
      `/t/r/${randomBytes(45).toString("base64url").slice(0, 60)}`,
      "/t/s/nothing",
      `/t/c/${randomBytes(18).toString("base64url")}`,
    ];
    for (const path of bad) {
      expect((await http.get(path)).status, path).toBe(404);
      expect((await http.post(path, { message: "hello" })).status, path).toBe(404);
    }
  });
});

describe("a trusted contact by SMS", () => {
  it("confirms with the SMS's code on the page it links to, gets finder messages by SMS, and stops through the SMS's stop link", async () => {
    const owner = await createUser(rt, { name: "Siv Owner", language: "sv" });
    const item = await paidItem(owner, "Blå mobil");
    expect((await addContact(owner, { name: "Bo", phone: "070-555 12 34" })).status).toBe(302);
    const invite = await elks.waitFor((m) => m.to === "+46705551234");
    const confirmPath = pathOf(invite.message, "/t/c/");
    const code = /Kod (\d{6})/.exec(invite.message)![1]!;
    const form = await (await http.get(confirmPath, { lang: "sv" })).text();
    expect(form).toContain("Kod från sms:et");
    // The link alone confirms nothing; a wrong code is a translated 400 with what was typed.
    const empty = await http.post(confirmPath, { code: "" }, { lang: "sv" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Skriv de sex siffrorna från sms:et.");
    const wrong = await http.post(confirmPath, { code: code === "000000" ? "111111" : "000000" }, { lang: "sv" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Koden stämmer inte. 4 försök kvar.");
    const ok = await http.post(confirmPath, { code }, { lang: "sv" });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Nu är du betrodd kontakt");

    const first = await finderWrites(item, "Hittade den vid busshållplatsen");
    const sms = await elks.waitFor((m) => m.to === "+46705551234" && m.message.includes("Blå mobil"));
    expect(sms.message.length).toBeLessThanOrEqual(160);
    const replyPath = pathOf(sms.message, "/t/r/");
    expect((await http.get(replyPath, { lang: "sv" })).status).toBe(200);
    const stopPath = pathOf(sms.message, "/t/s/");
    expect(await (await http.get(stopPath, { lang: "sv" })).text()).toContain("Sluta få meddelanden");
    expect((await http.post(stopPath, {}, { lang: "sv" })).status).toBe(200);
    // Stopped: the reply link is closed, and the next message does not reach them.
    expect((await http.get(replyPath)).status).toBe(404);
    const count = elks.messages.filter((m) => m.to === "+46705551234").length;
    await finderWrites(item, "Är du kvar?");
    await smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes("Är du kvar?"));
    await settle();
    expect(elks.messages.filter((m) => m.to === "+46705551234")).toHaveLength(count);
    const page = await (await http.get("/account/alerts", { cookie: owner.cookie, lang: "sv" })).text();
    expect(page).toContain("Har slutat ta emot meddelanden");
    expect(first.id).toBeTruthy();
  });
});

describe("the owner's choices", () => {
  it("an item the owner unticked for a contact sends them nothing; the other item still does", async () => {
    const owner = await createUser(rt, { name: "Per Owner" });
    const ada = `ada-${randomBytes(3).toString("hex")}@example.test`;
    const quiet = await paidItem(owner, "Quiet laptop");
    const loud = await paidItem(owner, "Loud phone");
    await addContact(owner, { name: "Ada", email: ada });
    const invite = await smtp.waitForMail((m) => m.to.includes(ada));
    await http.post(pathOf(invite.text, "/t/c/"), {});
    const contact = await rt.database.db
      .selectFrom("trusted_contacts")
      .select("id")
      .where("email", "=", ada)
      .executeTakeFirstOrThrow();
    // Ticked for "Loud phone" only.
    const saved = await http.post(
      "/account/alerts",
      { intent: "itemContacts", items: `${quiet},${loud}`, [`item.${loud}.${contact.id}`]: "on" },
      { cookie: owner.cookie },
    );
    expect(saved.status).toBe(302);
    await finderWrites(quiet, "quiet one found");
    await finderWrites(loud, "loud one found");
    await smtp.waitForMail((m) => m.to.includes(ada) && m.text.includes("loud one found"));
    await smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes("quiet one found"));
    await settle();
    expect(smtp.messages.filter((m) => m.to.includes(ada) && m.text.includes("quiet one found"))).toEqual([]);
  });

  it("refuses bad input with a translated 400 and keeps what was typed; at most three contacts", async () => {
    const owner = await createUser(rt);
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: "Eva", email: "not-an-address" }, "Enter an email address like name@example.com."],
      [{ name: "Eva", phone: "08-123 456" }, "Enter a mobile number"],
      [{ name: "Eva" }, "Enter an email address or a mobile number."],
      [{ name: "", email: "eva@example.test" }, "Enter their name"],
    ];
    for (const [fields, message] of cases) {
      const res = await addContact(owner, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      const html = await res.text();
      expect(html).toContain(message);
      for (const v of Object.values(fields)) if (v) expect(html).toContain(v);
      // A contact's refusal is the contacts' own, beside its field (not the alerts' phone message).
      if (fields.phone) expect(html).toContain('id="trusted-phone-error"');
    }
    for (let i = 0; i < 3; i++) {
      expect(
        (await addContact(owner, { name: `C${i}`, email: `c${i}-${owner.id.slice(0, 6)}@example.test` })).status,
      ).toBe(302);
    }
    const fourth = await addContact(owner, { name: "C3", email: "c3@example.test" });
    expect(fourth.status).toBe(400);
    expect(await fourth.text()).toContain("at most three trusted contacts");
    const sv = await http.post(
      "/account/alerts",
      { intent: "addContact", name: "Eva", email: "nej", phone: "" },
      { cookie: (await createUser(rt, { language: "sv" })).cookie, lang: "sv" },
    );
    expect(await sv.text()).toContain("Skriv en e-postadress som namn@exempel.se.");
  });
});

describe("only accountable accounts ask anyone anything (decision 046)", () => {
  it("an account whose email is not verified gets a translated 403 for a contact or a code, nothing is queued, and the page says why", async () => {
    const fresh = await createUser(rt, { verified: false, language: "sv" });
    const stranger = `stranger-${randomBytes(3).toString("hex")}@example.test`;
    const invite = await http.post(
      "/account/alerts",
      { intent: "addContact", name: "Stranger", email: stranger, phone: "070-555 98 76" },
      { cookie: fresh.cookie, lang: "sv" },
    );
    expect(invite.status).toBe(403);
    const html = await invite.text();
    expect(html).toContain("Bekräfta din e-postadress först");
    // What was typed is kept.
    expect(html).toContain(stranger);
    const code = await http.post(
      "/account/alerts",
      { intent: "phone", phone: "070-555 98 77" },
      { cookie: fresh.cookie, lang: "sv" },
    );
    expect(code.status).toBe(403);
    const queued = await rt.database.db
      .selectFrom("mail_outbox")
      .select("id")
      .where("to", "in", [stranger, "+46705559876", "+46705559877"])
      .execute();
    expect(queued).toEqual([]);
    const page = await (await http.get("/account/alerts", { cookie: fresh.cookie, lang: "sv" })).text();
    expect(page).toContain("Bekräfta din e-postadress för att lägga till ett mobilnummer eller betrodda kontakter");
    expect(page).not.toContain('name="intent" value="addContact"');
  });

  it("a number outside SMS_COUNTRIES is refused when typed, with the allowed codes named", async () => {
    const owner = await createUser(rt);
    const res = await addContact(owner, { name: "Hans", phone: "+49 151 23456789" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("We can only send SMS to numbers that start with +46, +47, +45, +358.");
    const own = await http.post(
      "/account/alerts",
      { intent: "phone", phone: "+49 151 23456789" },
      { cookie: owner.cookie },
    );
    expect(own.status).toBe(400);
    expect(await own.text()).toContain("+46, +47, +45, +358");
  });
});
