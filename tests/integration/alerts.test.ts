/**
 * Reaching the owner (decision 033) over HTTP against the production server, with the SMTP
 * and 46elks stand-ins, on SQLite and (DATABASE_URL=postgres://…) PostgreSQL: the mobile
 * number confirmed by a code, one finder message fanned out to mail and SMS with every
 * delivery recorded, 46elks' delivery reports (only with the SMS's own secret), a provider
 * that answers 5xx, the SMS cost guard, and two instances sending each alert once.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { isGsm, gsmLength } from "../../app/lib/domain/sms-text";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { startElks, type ElksStandIn } from "../support/elks";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { createUser, type TestUser } from "../support/users";

let tdb: TestDatabase;
let server: TestServer;
let second: TestServer | undefined;
let rt: Runtime;
let smtp: TestSmtpServer;
let elks: ElksStandIn;
let env: Record<string, string>;
const http = httpClient(() => server.url);

function newIp() {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

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
    "sv",
  );
  await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

async function sendFinderMessage(item: string, message: string, base = server.url) {
  const res = await httpClient(base).post(
    `/product/${item}`,
    { message, contact: "" },
    { cookie: "ConsentApproved=true", ip: newIp() },
  );
  expect(res.status).toBe(302);
  const token = (res.headers.get("location") ?? "").slice(3, 46);
  const row = await rt.database.db
    .selectFrom("conversations")
    .select("id")
    .where("finderToken", "=", token)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Signs up an owner and confirms their mobile number through the page, as a person would. */
async function ownerWithPhone(typed: string, e164: string, language: "en" | "sv" = "sv") {
  const owner = await createUser(rt, { language });
  const before = elks.messages.length;
  const sent = await http.post("/account/alerts", { intent: "phone", phone: typed }, { cookie: owner.cookie });
  expect(sent.status).toBe(302);
  const sms = await elks.waitFor((m) => m.to === e164 && elks.messages.indexOf(m) >= before);
  const code = /\d{6}/.exec(sms.message)![0];
  const ok = await http.post("/account/alerts", { intent: "code", code }, { cookie: owner.cookie });
  expect(ok.status).toBe(302);
  expect(ok.headers.get("location")).toBe("/account/alerts?done=phoneVerified");
  return owner;
}

async function deliveriesOf(conversationId: string) {
  return rt.database.db
    .selectFrom("alert_deliveries")
    .selectAll()
    .where("conversationId", "=", conversationId)
    .orderBy("channel")
    .execute();
}

async function waitUntil<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  tdb = await createTestDatabase("alerts");
  smtp = await startSmtpServer();
  elks = await startElks();
  env = testEnv(tdb, {
    TRUST_PROXY: "1",
    RATE_LIMIT_DISABLED: "1",
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: "100",
    ELKS_API_URL: elks.url,
    ELKS_API_USERNAME: elks.username,
    ELKS_API_PASSWORD: elks.password,
    SMS_LIMIT_PER_ITEM_DAY: "3",
  });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
});
afterAll(async () => {
  await second?.stop();
  await server?.stop();
  await rt?.database.close();
  await smtp?.close();
  await elks?.close();
  await tdb?.drop();
});

describe("the owner's mobile number is confirmed by a code", () => {
  it("reads a Swedish number as typed, sends a six-digit code by SMS and confirms it", async () => {
    const owner = await ownerWithPhone("070-123 45 67", "+46701234567");
    const row = await rt.database.db
      .selectFrom("user_phones")
      .selectAll()
      .where("userId", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(row.phone).toBe("+46701234567");
    expect(row.verifiedAt).not.toBeNull();
    expect(row.codeHash).toBeNull();
    const page = await (await http.get("/account/alerts", { cookie: owner.cookie })).text();
    expect(page).toContain("+46 70 123 45 67");
  });

  it("refuses an invalid number with a 400 and the typed text kept", async () => {
    const owner = await createUser(rt);
    const res = await http.post("/account/alerts", { intent: "phone", phone: "08-123 456" }, { cookie: owner.cookie });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("08-123 456");
    expect(html).toContain("Enter a mobile number");
  });

  it("a wrong code counts; after five tries even the right code is refused", async () => {
    const owner = await createUser(rt);
    const before = elks.messages.length;
    await http.post("/account/alerts", { intent: "phone", phone: "+46 73 555 00 01" }, { cookie: owner.cookie });
    const sms = await elks.waitFor((m) => m.to === "+46735550001" && elks.messages.indexOf(m) >= before);
    const code = /\d{6}/.exec(sms.message)![0];
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      const res = await http.post("/account/alerts", { intent: "code", code: wrong }, { cookie: owner.cookie });
      expect(res.status).toBe(400);
    }
    const late = await http.post("/account/alerts", { intent: "code", code }, { cookie: owner.cookie });
    expect(late.status).toBe(400);
    expect(await late.text()).toContain("Ask for a new code");
    const row = await rt.database.db
      .selectFrom("user_phones")
      .select("verifiedAt")
      .where("userId", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(row.verifiedAt).toBeNull();
  });
});

describe("one finder message reaches the owner by every channel set up", () => {
  it("mails and texts the owner, records each delivery, and a delivery report marks the SMS delivered", async () => {
    const owner = await ownerWithPhone("+46 70 200 00 01", "+46702000001");
    const item = await paidItem(owner, "Svart mobil");
    const message = "Hej! Jag hittade din telefon på bussen vid Centralen, ring mig så lämnar jag den. ".repeat(3);
    const conversationId = await sendFinderMessage(item, message);
    const sms = await elks.waitFor((m) => m.to === "+46702000001" && m.message.includes("Svart mobil"));
    const mail = await smtp.waitForMail((m) => m.to.includes(owner.email) && m.subject.includes("Svart mobil"));
    expect(mail.text).toContain(`/messages/${conversationId}`);
    // One part: GSM-7 (å ä ö included) within 160, the link whole, the finder quoted as far as it fits.
    expect(isGsm(sms.message)).toBe(true);
    expect(gsmLength(sms.message)).toBeLessThanOrEqual(160);
    expect(sms.message).toContain(`${server.url}/messages/${conversationId}`);
    expect(sms.message).toContain("Jag hittade din telefon");
    expect(sms.from).toBe("Hittad");
    expect(sms.whendelivered).toMatch(new RegExp(`^${server.url}/api/sms/report/[A-Za-z0-9_-]{32}$`));

    let rows = await waitUntil(
      () => deliveriesOf(conversationId),
      (r) => r.every((d) => d.status === "sent"),
    );
    expect(rows.map((d) => [d.channel, d.status, d.recipientLabel])).toEqual([
      ["email", "sent", `${owner.email[0]}…@example.test`],
      ["sms", "sent", "+46 70…"],
    ]);
    const smsRow = rows.find((d) => d.channel === "sms")!;
    expect(smsRow.providerId).toBe(sms.id);
    expect(Number(smsRow.attempts)).toBe(1);

    // A report to a made-up secret changes nothing.
    const forged = await elks.report(sms, "failed", `${server.url}/api/sms/report/${"x".repeat(32)}`);
    expect(forged).toBe(404);
    expect((await deliveriesOf(conversationId)).find((d) => d.channel === "sms")!.status).toBe("sent");

    expect(await elks.report(sms, "delivered")).toBe(204);
    rows = await deliveriesOf(conversationId);
    const delivered = rows.find((d) => d.channel === "sms")!;
    expect(delivered.status).toBe("delivered");
    expect(delivered.deliveredAt).not.toBeNull();

    // The owner sees it in the conversation; the finder's page says nothing of channels.
    const page = await (await http.get(`/messages/${conversationId}`, { cookie: owner.cookie, lang: "sv" })).text();
    expect(page).toContain("Levererat som sms till +46 70…");
  });

  it("a provider answering 503 is retried; the mail goes out meanwhile", async () => {
    const owner = await ownerWithPhone("+46 70 200 00 02", "+46702000002");
    const item = await paidItem(owner, "Vit mobil");
    elks.failNext(1, 503);
    const conversationId = await sendFinderMessage(item, "Found your phone");
    await smtp.waitForMail((m) => m.to.includes(owner.email) && m.subject.includes("Vit mobil"));
    const failed = await waitUntil(
      () => deliveriesOf(conversationId),
      // The outbox sends rows side by side (decision 040): the mail's record may land a moment later.
      (r) =>
        r.some((d) => d.channel === "sms" && d.lastError !== null) &&
        r.some((d) => d.channel === "email" && d.status === "sent"),
    );
    expect(failed.find((d) => d.channel === "sms")!.lastError).toContain("503");
    expect(failed.find((d) => d.channel === "email")!.status).toBe("sent");
    // Retried after the back-off (5 s).
    await elks.waitFor((m) => m.to === "+46702000002" && m.message.includes("Vit mobil"), 15_000);
    const rows = await waitUntil(
      () => deliveriesOf(conversationId),
      (r) => r.find((d) => d.channel === "sms")?.status === "sent",
    );
    expect(Number(rows.find((d) => d.channel === "sms")!.attempts)).toBe(2);
  }, 30_000);
});

describe("the SMS cost guard", () => {
  it("stops the SMS past the item's daily limit, records it, and tells the owner once by mail", async () => {
    const owner = await ownerWithPhone("+46 70 200 00 03", "+46702000003");
    const item = await paidItem(owner, "Guard phone");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await sendFinderMessage(item, `message ${i}`));
    const all = await waitUntil(
      async () => (await Promise.all(ids.map(deliveriesOf))).flat().filter((d) => d.channel === "sms"),
      (r) => r.filter((d) => d.status === "sent").length >= 3,
    );
    expect(all.filter((d) => d.status === "blocked")).toHaveLength(2);
    expect(all.filter((d) => d.status === "sent")).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 500));
    expect(elks.messages.filter((m) => m.to === "+46702000003" && m.message.includes("Guard phone"))).toHaveLength(3);
    await smtp.waitForMail((m) => m.to.includes(owner.email) && m.subject === "En sms-avisering skickades inte");
    expect(
      smtp.messages.filter((m) => m.to.includes(owner.email) && m.subject === "En sms-avisering skickades inte"),
    ).toHaveLength(1);
    // Mail still went for every message.
    const mails = await rt.database.db
      .selectFrom("alert_deliveries")
      .select("status")
      .where("conversationId", "in", ids)
      .where("channel", "=", "email")
      .execute();
    expect(mails).toHaveLength(5);
  });
});

describe("two instances on one database", () => {
  it("send each alert once", async () => {
    second = await startServer(env);
    const owner = await ownerWithPhone("+46 70 200 00 04", "+46702000004");
    const items = [await paidItem(owner, "Twin A"), await paidItem(owner, "Twin B")];
    const ids: string[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async (i) => {
        ids.push(await sendFinderMessage(items[i % 2]!, `twin ${i}`, i % 2 ? second!.url : server.url));
      }),
    );
    await waitUntil(
      async () => elks.messages.filter((m) => m.to === "+46702000004" && m.message.includes("twin")).length,
      (n) => n >= 6,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const texts = elks.messages
      .filter((m) => m.to === "+46702000004" && m.message.includes("twin"))
      .map((m) => m.message);
    expect(texts).toHaveLength(6);
    for (let i = 0; i < 6; i++) expect(texts.filter((t) => t.includes(`twin ${i}`))).toHaveLength(1);
    const mails = smtp.messages.filter((m) => m.to.includes(owner.email) && /Twin [AB]/.test(m.subject));
    expect(mails).toHaveLength(6);
  }, 60_000);
});
