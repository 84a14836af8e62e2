/**
 * The finder-to-owner relay over HTTP against the production server (decision 013), on
 * SQLite and, with DATABASE_URL=postgres://…, on PostgreSQL: private contact info never
 * leaves the server, the no-JavaScript message form, the private link, who may read and
 * answer, mails through the real SMTP stand-in, bad coordinates, rate limits (database
 * counters) and the 180-day retention.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import { runHousekeeping } from "../../app/server/jobs/jobs.service.server";
import { formatStickerCode } from "../../app/lib/domain/sticker-code";
import { sendDueDigests } from "../../app/server/relay/digest.service.server";
import { CONVERSATION_RETENTION_MS } from "../../app/server/relay/relay.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { solveAltcha } from "../support/altcha";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { createUser, type TestUser } from "../support/users";

const PRIVATE_CONTACT = "private-070-555-SECRET";
const PUBLIC_CONTACT = "public-070-777-shown";

let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
let smtp: TestSmtpServer;
let owner: TestUser;
let other: TestUser;
let privateItem: string;
let publicItem: string;
const http = httpClient(() => server.url);

function newIp() {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

async function paidItem(visibility: "public" | "private", contactInfo: string, name: string) {
  const id = await createItem(
    depsOf(rt),
    owner.id,
    {
      name,
      findFee: 300,
      prodType: "other",
      contactInfo,
      contactVisibility: visibility,
      payment: "year",
      intent: "payLater",
    },
    "sv",
  );
  await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

/** Sends a finder message as a browser without JavaScript would; returns the redirect's path. */
async function send(item: string, fields: Record<string, string>, opts: { ip?: string; lang?: "en" | "sv" } = {}) {
  return http.post(`/product/${item}`, fields, {
    cookie: "ConsentApproved=true",
    ip: opts.ip ?? newIp(),
    lang: opts.lang,
  });
}

async function sendOk(item: string, fields: Record<string, string>, opts: { ip?: string; lang?: "en" | "sv" } = {}) {
  const res = await send(item, fields, opts);
  expect(res.status).toBe(302);
  const location = res.headers.get("location") ?? "";
  expect(location).toMatch(/^\/m\/[A-Za-z0-9_-]{43}\?sent=1$/);
  return location.slice(0, location.indexOf("?"));
}

async function conversationIdOf(path: string) {
  const token = path.slice("/m/".length);
  const row = await rt.database.db
    .selectFrom("conversations")
    .select("id")
    .where("finderToken", "=", token)
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  tdb = await createTestDatabase("relay");
  smtp = await startSmtpServer();
  const env = testEnv(tdb, { TRUST_PROXY: "1", RATE_LIMIT_DISABLED: "0", SMTP_URL: smtp.url, MAIL_POLL_MS: "100" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  owner = await createUser(rt, { name: "Olle Ägaresson", language: "sv" });
  other = await createUser(rt, { name: "Otto Annan" });
  privateItem = await paidItem("private", PRIVATE_CONTACT, "Blå ryggsäck");
  publicItem = await paidItem("public", PUBLIC_CONTACT, "Röd cykel");
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await smtp?.close();
  await tdb?.drop();
});

describe("per-item visibility on the finder page", () => {
  it("a private item's contact info is never in the finder page's HTML or .data, cached or not", async () => {
    for (const path of [`/product/${privateItem}`, `/${privateItem}`]) {
      for (let i = 0; i < 3; i++) {
        // The first request renders and stores the page; the next ones are cache hits.
        const res = await http.get(path, { cookie: "ConsentApproved=true" });
        expect(res.status).toBe(200);
        const html = await res.text();
        expect(html).not.toContain(PRIVATE_CONTACT);
        expect(html).not.toContain(owner.email);
        expect(html).toContain("Blå ryggsäck");
        expect(html).toContain('name="message"');
      }
      for (const cookie of ["ConsentApproved=true", `${other.cookie}; ConsentApproved=true`]) {
        const data = await http.get(
          `${path === `/${privateItem}` ? `/${privateItem}` : `/product/${privateItem}`}.data`,
          {
            cookie,
          },
        );
        expect(data.status).toBe(200);
        const body = await data.text();
        expect(body).toContain("Blå ryggsäck");
        expect(body).not.toContain(PRIVATE_CONTACT);
      }
    }
  });

  it("the owner still sees their private contact info; a public item shows it to everyone", async () => {
    const own = await (
      await http.get(`/product/${privateItem}`, { cookie: `${owner.cookie}; ConsentApproved=true` })
    ).text();
    expect(own).toContain(PRIVATE_CONTACT);
    const pub = await (await http.get(`/product/${publicItem}`, { cookie: "ConsentApproved=true" })).text();
    expect(pub).toContain(PUBLIC_CONTACT);
    expect(pub).toContain('name="message"');
  });

  it("switching an item to private drops its contact info from the stored finder page at once", async () => {
    const id = await paidItem("public", "switch-070-SECRET", "Grön mössa");
    expect(await (await http.get(`/${id}`, { cookie: "ConsentApproved=true" })).text()).toContain("switch-070-SECRET");
    const res = await http.post(
      `/product/edit/${id}`,
      {
        name: "Grön mössa",
        findFee: "300",
        prodType: "other",
        contactInfo: "switch-070-SECRET",
        contactVisibility: "private",
        intent: "update",
      },
      { cookie: `${owner.cookie}; ConsentApproved=true` },
    );
    expect(res.status).toBe(302);
    expect(await (await http.get(`/${id}`, { cookie: "ConsentApproved=true" })).text()).not.toContain(
      "switch-070-SECRET",
    );
  });
});

describe("finder messages without JavaScript", () => {
  it("a plain form post reaches the owner by mail (in Swedish) and leads to the private link with the success text", async () => {
    const link = await sendOk(privateItem, { message: "Found it <b>by the station</b>", contact: "" }, { lang: "en" });
    const page = await http.get(`${link}?sent=1`, { cookie: "ConsentApproved=true" });
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    // Browsers apply the last policy they know of a list: helmet's default, then ours.
    expect(page.headers.get("referrer-policy")?.split(",").at(-1)?.trim()).toBe("same-origin");
    const html = await page.text();
    expect(html).toContain("Your message has been sent to the owner.");
    expect(html).toContain("Found it &lt;b&gt;by the station&lt;/b&gt;");
    expect(html).not.toContain("<b>by the station</b>");
    expect(html).not.toContain(owner.email);
    expect(html).not.toContain(owner.name);
    const id = await conversationIdOf(link);
    const mail = await smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes("by the station"));
    expect(mail.subject).toBe("En upphittare har skrivit till dig om Blå ryggsäck");
    expect(mail.text).toContain(`${server.url}/messages/${id}`);
    expect(mail.text).toContain("Ingen position delades.");
    expect(mail.html).not.toContain("<b>by the station</b>");
  });

  it("in Swedish the finder reads 'Ditt meddelande har skickats till ägaren.' and gets the link by mail", async () => {
    const link = await sendOk(privateItem, { message: "Hittade den", contact: "hittare@example.test" }, { lang: "sv" });
    const html = await (await http.get(`${link}?sent=1`, { cookie: "ConsentApproved=true", lang: "sv" })).text();
    expect(html).toContain("Ditt meddelande har skickats till ägaren.");
    const mail = await smtp.waitForMail((m) => m.to.includes("hittare@example.test"));
    expect(mail.subject).toBe("Ditt meddelande har skickats till ägaren");
    expect(mail.text).toContain(`${server.url}${link}`);
    expect(mail.text).not.toContain(owner.email);
  });

  it("a shared location reaches the owner as a maps link", async () => {
    await sendOk(privateItem, {
      message: "Here it is",
      contact: "",
      latitude: "63.8258",
      longitude: "20.263",
      js: "0",
    });
    const mail = await smtp.waitForMail((m) => m.to.includes(owner.email) && m.text.includes("Here it is"));
    expect(mail.text).toContain("https://www.google.com/maps/search/?api=1&query=63.8258,20.263");
  });

  it("bad coordinates are a translated 400 and the typed message is kept", async () => {
    for (const [latitude, longitude] of [
      ["91", "10"],
      ["10", "-181"],
      ["abc", "10"],
      ["10", ""],
    ]) {
      const res = await send(privateItem, {
        message: "Keep me",
        contact: "",
        latitude: latitude!,
        longitude: longitude!,
      });
      expect(res.status, `${latitude},${longitude}`).toBe(400);
      const html = await res.text();
      expect(html).toContain("latitude must be between −90 and 90");
      expect(html).toContain("Keep me");
    }
    const sv = await send(privateItem, { message: "x", contact: "", latitude: "-95", longitude: "0" }, { lang: "sv" });
    expect(sv.status).toBe(400);
    expect(await sv.text()).toContain("latituden måste vara mellan −90 och 90");
  });

  it("a filled-in honeypot is refused (400) and nothing is stored", async () => {
    const before = await rt.database.db.selectFrom("conversations").select("id").execute();
    const res = await send(privateItem, { message: "cheap pills", contact: "", website: "http://spam.test" });
    expect(res.status).toBe(400);
    expect(await rt.database.db.selectFrom("conversations").select("id").execute()).toHaveLength(before.length);
  });

  it("an unpaid item takes no messages (404)", async () => {
    const id = await createItem(
      depsOf(rt),
      owner.id,
      { name: "Unpaid", findFee: 1, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
      "en",
    );
    expect((await send(id, { message: "hello", contact: "" })).status).toBe(404);
  });
});

describe("conversations", () => {
  it("the owner lists, opens and answers; the finder reads the reply at the link and by mail", async () => {
    const link = await sendOk(privateItem, { message: "Where shall I leave it?", contact: "svar@example.test" });
    const id = await conversationIdOf(link);
    // The finder's mailbox says yes on the page the first mail's link opens (decision 058).
    const first = await smtp.waitForMail((m) => m.to.includes("svar@example.test") && m.text.includes("?c="));
    const code = /\?c=([A-Za-z0-9_-]+)/.exec(first.text)![1]!;
    const opened = await (await http.get(`${link}?c=${code}`, { cookie: "ConsentApproved=true" })).text();
    expect(opened).toContain('value="confirmMail"');
    const yes = await http.post(link, { intent: "confirmMail", c: code }, { cookie: "ConsentApproved=true" });
    expect(yes.status).toBe(302);
    const ownerCookie = `${owner.cookie}; ConsentApproved=true`;
    const list = await (await http.get("/messages", { cookie: ownerCookie, lang: "sv" })).text();
    expect(list).toContain("Where shall I leave it?");
    expect(list).toContain("olästa");
    const thread = await http.get(`/messages/${id}`, { cookie: ownerCookie });
    expect(thread.status).toBe(200);
    expect(await thread.text()).toContain("svar@example.test");
    const reply = await http.post(`/messages/${id}`, { message: "At the reception, thanks!" }, { cookie: ownerCookie });
    expect(reply.status).toBe(302);
    expect(reply.headers.get("location")).toBe(`/messages/${id}?replied=1`);
    const finderPage = await (await http.get(link, { cookie: "ConsentApproved=true" })).text();
    expect(finderPage).toContain("At the reception, thanks!");
    expect(finderPage).not.toContain(owner.email);
    expect(finderPage).not.toContain(owner.name);
    const mail = await smtp.waitForMail(
      (m) => m.to.includes("svar@example.test") && m.text.includes("At the reception"),
    );
    expect(mail.text).toContain(`${server.url}${link}`);
    expect(mail.text).not.toContain(owner.email);
    expect(mail.replyTo.filter(Boolean)).toEqual([]);
  });

  it("another user can neither read nor answer a conversation (404), and nothing is added", async () => {
    const link = await sendOk(privateItem, { message: "Only for the owner", contact: "" });
    const id = await conversationIdOf(link);
    const cookie = `${other.cookie}; ConsentApproved=true`;
    expect((await http.get(`/messages/${id}`, { cookie })).status).toBe(404);
    expect((await http.get(`/messages/${id}.data`, { cookie })).status).toBe(404);
    expect((await http.post(`/messages/${id}`, { message: "I am the owner now" }, { cookie })).status).toBe(404);
    expect(await (await http.get("/messages", { cookie })).text()).not.toContain("Only for the owner");
    const messages = await rt.database.db
      .selectFrom("conversation_messages")
      .select("text")
      .where("conversationId", "=", id)
      .execute();
    expect(messages.map((m) => m.text)).toEqual(["Only for the owner"]);
    expect((await http.get(`/messages/${id}`)).status).toBe(302);
  });

  it("a wrong /m/ token is 'Page not found' (404), for the page, its .data and a post", async () => {
    const wrong = randomBytes(32).toString("base64url");
    expect((await http.get(`/m/${wrong}`, { cookie: "ConsentApproved=true" })).status).toBe(404);
    expect((await http.get(`/m/${wrong}.data`)).status).toBe(404);
    expect((await http.get("/m/short")).status).toBe(404);
    expect((await http.post(`/m/${wrong}`, { message: "hello" }, { ip: newIp() })).status).toBe(404);
  });

  it("the finder writes again at the link; the owner's unread count covers it", async () => {
    const link = await sendOk(publicItem, { message: "First", contact: "" });
    const res = await http.post(link, { message: "Second, from the link" }, { ip: newIp() });
    expect(res.status).toBe(302);
    const html = await (await http.get(`/messages/${await conversationIdOf(link)}`, { cookie: owner.cookie })).text();
    expect(html).toContain("Second, from the link");
  });
});

describe("rate limits (database counters)", () => {
  it("the sixth message from one IP within 15 minutes is a translated 429 with Retry-After", async () => {
    const ip = newIp();
    for (let i = 0; i < 5; i++) await sendOk(publicItem, { message: `burst ${i}`, contact: "" }, { ip });
    const res = await send(publicItem, { message: "one too many", contact: "" }, { ip, lang: "sv" });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.text()).toContain("För många meddelanden");
    const counter = await rt.database.db
      .selectFrom("app_rate_limits")
      .select("count")
      .where("key", "=", `relay:ip:${ip}`)
      .executeTakeFirstOrThrow();
    expect(Number(counter.count)).toBe(6);
  });
});

describe("a flood of finder messages (issue #29)", () => {
  async function flood(name: string) {
    const id = await paidItem("private", "x", name);
    // The lean finder page, stored in the page cache before the flood.
    expect(await (await http.get(`/${id}`, { cookie: "ConsentApproved=true" })).text()).not.toContain(
      "__reactRouterContext",
    );
    for (let i = 0; i < 10; i++) await sendOk(id, { message: `from ${i}`, contact: "" });
    return id;
  }
  const code = async (id: string) =>
    formatStickerCode(
      (await rt.database.db.selectFrom("products").select("code").where("id", "=", id).executeTakeFirstOrThrow()).code,
    );

  it("past ten messages an hour a sender without JavaScript is told the captcha needs it, with the hand-in help and the sticker code", async () => {
    const id = await flood("Översvämmad väska");
    const refused = await send(id, { message: "Jag har din väska", contact: "" }, { lang: "sv" });
    expect(refused.status).toBe(429);
    const html = await refused.text();
    expect(html).toContain("kontrollen kräver JavaScript");
    expect(html).toContain("fungerar bara med JavaScript");
    expect(html).toContain("Lämna in den på en polisstation");
    expect(html).toContain(await code(id));
    // The typed message is kept.
    expect(html).toContain("Jag har din väska");
    // The finder page itself now asks up front, with the full app (the captcha), never from the cache.
    for (let i = 0; i < 2; i++) {
      const page = await (await http.get(`/${id}`, { cookie: "ConsentApproved=true" })).text();
      expect(page).toContain("only works with JavaScript");
      expect(page).toContain(await code(id));
      expect(page).toContain("__reactRouterContext");
    }
  });

  it("an honest finder with a solved captcha gets through while it lasts, and the owner gets one digest instead of a mail each", async () => {
    const id = await flood("Flödad cykel");
    for (let i = 0; i < 5; i++) expect((await send(id, { message: `bot ${i}`, contact: "" })).status).toBe(429);
    const res = await send(id, {
      message: "Your bike is at the station",
      contact: "",
      js: "1",
      captchaToken: await solveAltcha(server.url),
    });
    expect(res.status).toBe(302);
    const digest = await smtp.waitForMail(
      (m) => m.to.includes(owner.email) && m.subject.includes("Flödad cykel") && m.subject.startsWith("1 nytt"),
    );
    expect(digest.subject).toBe("1 nytt meddelande om Flödad cykel");
    expect(digest.text).toContain(`${server.url}/messages`);
    expect(digest.text).not.toContain("Your bike is at the station");
    // Messages within the quarter hour wait for the next digest (the job, here with a clock 15 minutes on).
    const more = await send(id, {
      message: "And again",
      contact: "",
      js: "1",
      captchaToken: await solveAltcha(server.url),
    });
    expect(more.status).toBe(302);
    const later = { ...depsOf(rt), clock: () => Date.now() + 15 * 60_000 };
    expect(await sendDueDigests(later)).toBe(1);
    expect(await sendDueDigests(later)).toBe(0);
    // The job ran on a clock 15 minutes on, so its mail is due then (the outbox takes the
    // caller's time): brought to the present for the server's worker, which runs on the real clock.
    await rt.database.db
      .updateTable("mail_outbox")
      .set({ nextAttemptAt: Date.now() })
      .where("status", "=", "pending")
      .where("nextAttemptAt", ">", Date.now())
      .execute();
    const second = await smtp.waitForMail((m) => m.subject === "1 nytt meddelande om Flödad cykel" && m !== digest);
    expect(second.text).toContain("1 nytt sedan vårt förra mejl");
    // Ten single mails before the flood, then the two digests: nothing for the twelve bots and finders.
    await expect
      .poll(() => smtp.messages.filter((m) => m.to.includes(owner.email) && m.text.includes("Flödad cykel")).length)
      .toBe(12);
  });
});

describe("retention", () => {
  it("housekeeping deletes conversations and their messages 180 days after the last message", async () => {
    const link = await sendOk(publicItem, { message: "Old news", contact: "" });
    const id = await conversationIdOf(link);
    const last = Number(
      (
        await rt.database.db
          .selectFrom("conversations")
          .select("lastMessageAt")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).lastMessageAt,
    );
    const deps = { db: rt.database.db, clock: () => last + CONVERSATION_RETENTION_MS + 1 };
    const result = await runHousekeeping(deps, rt.database.dialect);
    expect(result?.conversations).toBeGreaterThanOrEqual(1);
    expect(await rt.database.db.selectFrom("conversations").select("id").where("id", "=", id).execute()).toEqual([]);
    expect(
      await rt.database.db.selectFrom("conversation_messages").select("id").where("conversationId", "=", id).execute(),
    ).toEqual([]);
    expect((await http.get(link)).status).toBe(404);
  });
});
