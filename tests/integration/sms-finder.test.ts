/**
 * Finders who only have SMS (decision 055) through the production server and the 46elks
 * stand-in, on SQLite and (DATABASE_URL=postgres://…) PostgreSQL: the stand-in posts
 * incoming SMS to the webhook as 46elks does (form fields, resent on non-2xx) and records
 * what goes out with its `from`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { confirmPhone, setPendingPhone } from "../../app/server/alerts/alerts.repository.server";
import { createItem } from "../../app/server/items/items.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { startElks, type ElksStandIn } from "../support/elks";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { createUser, type TestUser } from "../support/users";

const NUMBER = "+46766861000";
const SECRET = "integration-webhook-secret-0123456789";
const OWNER_PHONE = "+46701230000";

let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
let smtp: TestSmtpServer;
let elks: ElksStandIn;
let owner: TestUser;
let code: string;
let finderSeq = 0;
const http = httpClient(() => server.url);
const webhook = (secret = SECRET) => `${server.url}/webhooks/46elks/sms?secret=${secret}`;
const newFinder = () => `+4673${String(1_000_000 + ++finderSeq).slice(1)}0`;

const finderMessages = () =>
  rt.database.db.selectFrom("conversation_messages").selectAll().where("author", "=", "finder").execute();

beforeAll(async () => {
  tdb = await createTestDatabase("smsfinder");
  smtp = await startSmtpServer();
  elks = await startElks();
  const env = testEnv(tdb, {
    RATE_LIMIT_DISABLED: "1",
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: "100",
    ELKS_API_URL: elks.url,
    ELKS_API_USERNAME: elks.username,
    ELKS_API_PASSWORD: elks.password,
    SMS_NUMBER: NUMBER,
    ELKS_WEBHOOK_SECRET: SECRET,
    SMS_LIMIT_PER_ITEM_DAY: "100",
  });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  owner = await createUser(rt, { language: "sv" });
  await setPendingPhone(rt.database.db, owner.id, {
    phone: OWNER_PHONE,
    codeHash: "x",
    expiresAt: Date.now() + 60_000,
  });
  await confirmPhone(rt.database.db, owner.id, OWNER_PHONE, Date.now());
  const id = await createItem(
    depsOf(rt),
    owner.id,
    {
      name: "Blå cykel",
      findFee: 300,
      prodType: "other",
      contactInfo: "private",
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    },
    "sv",
  );
  await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  code = (await rt.database.db.selectFrom("products").select("code").where("id", "=", id).executeTakeFirstOrThrow())
    .code;
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await smtp?.close();
  await elks?.close();
  await tdb?.drop();
});

describe("46elks' webhook through the server", () => {
  it("a wrong secret is 404 and stores nothing", async () => {
    const before = (await finderMessages()).length;
    const res = await elks.incoming(
      webhook("wrong-secret-000000000000000"),
      {
        from: newFinder(),
        to: NUMBER,
        message: `${code} hittade`,
      },
      { tries: 1 },
    );
    expect(res.statuses).toEqual([404]);
    expect(await finderMessages()).toHaveLength(before);
    const ids = await rt.database.db.selectFrom("elks_incoming").selectAll().execute();
    expect(ids.map((r) => r.id)).not.toContain(res.id);
  });

  it("a finder's code SMS reaches the owner by mail and SMS from SMS_NUMBER; resends of its id make one message", async () => {
    const finder = newFinder();
    const before = (await finderMessages()).length;
    const first = await elks.incoming(webhook(), {
      id: "elks-same-id",
      from: finder,
      to: NUMBER,
      message: `${code} hittade din cykel vid Centralen`,
    });
    expect(first.statuses).toEqual([200]);
    expect(first.reply).toMatch(/^Hittad: ägaren har fått ditt meddelande/);
    const again = await elks.incoming(webhook(), {
      id: "elks-same-id",
      from: finder,
      to: NUMBER,
      message: `${code} hittade din cykel vid Centralen`,
    });
    expect(again.reply).toBe(first.reply);
    expect(await finderMessages()).toHaveLength(before + 1);
    const alert = await elks.waitFor((m) => m.to === OWNER_PHONE && m.message.includes("Blå cykel"));
    expect(alert.message).toMatch(/#\d{4}/);
    expect(alert.from).toBe(NUMBER);
    expect(alert.message).not.toContain(finder.slice(3));
    const mail = await smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes("Centralen"));
    expect(mail.text).not.toContain(finder.slice(3));
    // The owner answers on the web; the finder gets it from SMS_NUMBER, without the owner's number.
    const conv = await rt.database.db
      .selectFrom("conversations")
      .select("id")
      .where("finderPhone", "=", finder)
      .executeTakeFirstOrThrow();
    const page = await (await http.get("/messages", { cookie: owner.cookie })).text();
    expect(page).toMatch(/by SMS|via sms/);
    expect(page).not.toContain(finder.slice(3));
    const replied = await http.post(
      `/messages/${conv.id}`,
      { intent: "reply", message: "Tack! Jag hämtar den i kväll." },
      { cookie: owner.cookie },
    );
    expect(replied.status).toBe(302);
    const answer = await elks.waitFor((m) => m.to === finder && m.message.includes("hämtar den i kväll"));
    expect(answer.from).toBe(NUMBER);
    expect(answer.message).not.toContain(OWNER_PHONE.slice(3));
  });

  it("11 SMS in an hour from one number make 10 messages and no reply to the 11th", async () => {
    const finder = newFinder();
    const before = (await finderMessages()).length;
    const results = [];
    for (let i = 0; i < 11; i++) {
      results.push(await elks.incoming(webhook(), { from: finder, to: NUMBER, message: `${code} meddelande ${i}` }));
    }
    expect(await finderMessages()).toHaveLength(before + 10);
    expect(results[10]!.statuses).toEqual([204]);
    expect(results[10]!.reply).toBeNull();
  });

  it("STOP is honoured: answered once, and no SMS goes to the number afterwards", async () => {
    const finder = newFinder();
    await elks.incoming(webhook(), { from: finder, to: NUMBER, message: `${code} hittade` });
    const stop = await elks.incoming(webhook(), { from: finder, to: NUMBER, message: "STOP" });
    expect(stop.reply).toBe("Hittad: du får inga fler sms från oss.");
    const again = await elks.incoming(webhook(), { from: finder, to: NUMBER, message: "stopp" });
    expect(again.reply).toBeNull();
    const conv = await rt.database.db
      .selectFrom("conversations")
      .select("id")
      .where("finderPhone", "=", finder)
      .executeTakeFirstOrThrow();
    const sentBefore = elks.messages.filter((m) => m.to === finder).length;
    await http.post(`/messages/${conv.id}`, { intent: "reply", message: "Hallå?" }, { cookie: owner.cookie });
    await new Promise((r) => setTimeout(r, 1500));
    expect(elks.messages.filter((m) => m.to === finder)).toHaveLength(sentBefore);
  });

  it("a delivery report with status sent is answered 204", async () => {
    const sms = await elks.waitFor((m) => m.to === OWNER_PHONE && m.whendelivered !== null);
    expect(await elks.report(sms, "sent")).toBe(204);
    expect(await elks.report(sms, "delivered")).toBe(204);
  });
});
