import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../../app/server/admin/admin.repository.server";
import { createAltchaChallenge } from "../../app/server/captcha/captcha.server";
import type { Runtime } from "../../app/server/runtime.server";
import { solveAltcha } from "../support/altcha";
import {
  createTestDatabase,
  createTestRuntime,
  TEST_AUTH_SECRET,
  testEnv,
  type TestDatabase,
} from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { httpClient } from "../support/http";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { createUser } from "../support/users";

const ADMIN_EMAIL = "admin-env@example.test";
const SUPPORT_EMAIL = "support@hittad.test";

interface App {
  env: Record<string, string>;
  db: TestDatabase;
  server: TestServer;
  rt: Runtime;
  smtp?: TestSmtpServer;
}

async function startApp(label: string, extra: Record<string, string>, withSmtp = false): Promise<App> {
  const db = await createTestDatabase(label);
  const smtp = withSmtp ? await startSmtpServer() : undefined;
  const env = testEnv(db, {
    SUPPORT_EMAIL,
    MAIL_POLL_MS: "100",
    ...(smtp ? { SMTP_URL: smtp.url } : {}),
    ...extra,
  });
  const server = await startServer(env);
  const rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  return { env, db, server, rt, smtp };
}

async function stopApp(app: App | undefined) {
  if (!app) return;
  await app.server.stop();
  await app.rt.database.close();
  await app.smtp?.close();
  await app.db.drop();
}

/** A fresh client IP per test (the server trusts X-Forwarded-For with TRUST_PROXY=1). */
function newIp() {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

function postContact(app: App, body: unknown, opts: { ip?: string; lang?: "en" | "sv"; raw?: string } = {}) {
  return httpClient(app.server.url).postJson("/api/contact", opts.raw ?? body, { ip: opts.ip, lang: opts.lang });
}

async function storedMessages(app: App) {
  return app.rt.database.db.selectFrom("contact_messages").selectAll().orderBy("createdAt").execute();
}

describe("POST /api/contact with ALTCHA", () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp("contact", { TRUST_PROXY: "1", ADMIN_EMAILS: ADMIN_EMAIL }, true);
  });
  afterAll(() => stopApp(app));

  it("stores a message with a solved captcha, answers 201 and mails support with reply-to the sender", async () => {
    const token = await solveAltcha(app.server.url);
    const res = await postContact(
      app,
      { name: "Fia Finder", email: "fia@example.test", message: "I found a laptop <b>here</b>.", captchaToken: token },
      { ip: newIp(), lang: "sv" },
    );
    expect(res.status).toBe(201);
    const rows = (await storedMessages(app)).filter((m) => m.email === "fia@example.test");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "Fia Finder", message: "I found a laptop <b>here</b>.", lang: "sv" });
    expect(rows[0]!.readAt).toBeNull();
    const mail = await app.smtp!.waitForMail((m) => m.to.includes(SUPPORT_EMAIL) && m.text.includes("Fia Finder"));
    expect(mail.replyTo).toEqual(["fia@example.test"]);
    // Support reads Swedish, with an English summary; the sender's language written out (decision 032).
    expect(mail.subject).toBe("Kontaktformuläret: Fia Finder");
    expect(mail.text).toContain("Språk: Svenska");
    expect(mail.text).toContain(
      "New message from the contact form, from Fia Finder <fia@example.test> (language: Svenska)",
    );
    expect(mail.text).toContain("I found a laptop <b>here</b>.");
    expect(mail.text).toContain(`${app.server.url}/admin/messages/${rows[0]!.id}`);
    // The HTML part shows the sender's text as text.
    expect(mail.html).not.toContain("<b>here</b>");
  });

  it("accepts each captcha solution once: a replay is refused and stores nothing", async () => {
    const token = await solveAltcha(app.server.url);
    const body = { name: "", email: "replay@example.test", message: "First", captchaToken: token };
    expect((await postContact(app, body, { ip: newIp() })).status).toBe(201);
    const again = await postContact(app, { ...body, message: "Second" }, { ip: newIp() });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: "This captcha has already been used. Please verify again." });
    const rows = (await storedMessages(app)).filter((m) => m.email === "replay@example.test");
    expect(rows.map((r) => r.message)).toEqual(["First"]);
  });

  it("refuses a message without a captcha solution with the translated captcha message", async () => {
    const res = await postContact(app, { name: "", email: "nocaptcha@example.test", message: "Hi" }, { ip: newIp() });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Please complete the captcha verification" });
    const sv = await postContact(
      app,
      { email: "nocaptcha@example.test", message: "Hej", captchaToken: "" },
      { ip: newIp(), lang: "sv" },
    );
    expect(await sv.json()).toEqual({ message: "Slutför captcha-verifieringen" });
    expect((await storedMessages(app)).filter((m) => m.email === "nocaptcha@example.test")).toEqual([]);
  });

  it("refuses a tampered solution and a challenge not signed with our key", async () => {
    const token = await solveAltcha(app.server.url);
    const payload = JSON.parse(Buffer.from(token, "base64").toString());
    const key: string = payload.solution.derivedKey;
    payload.solution.derivedKey = (key[0] === "0" ? "1" : "0") + key.slice(1);
    const tampered = Buffer.from(JSON.stringify(payload)).toString("base64");
    const res = await postContact(
      app,
      { email: "t@example.test", message: "x", captchaToken: tampered },
      { ip: newIp() },
    );
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("The captcha verification failed. Please try again.");

    const foreign = await createAltchaChallenge({ authSecret: "another-secret-0123456789abcdef0123456789" });
    const solution = await solveChallenge({ challenge: foreign, deriveKey });
    const forged = Buffer.from(JSON.stringify({ challenge: foreign, solution })).toString("base64");
    const res2 = await postContact(
      app,
      { email: "t@example.test", message: "x", captchaToken: forged },
      { ip: newIp() },
    );
    expect(res2.status).toBe(400);
    for (const junk of ["not-base64-json", Buffer.from('{"challenge":{}}').toString("base64")]) {
      const r = await postContact(app, { email: "t@example.test", message: "x", captchaToken: junk }, { ip: newIp() });
      expect(r.status).toBe(400);
    }
    expect((await storedMessages(app)).filter((m) => m.email === "t@example.test")).toEqual([]);
  });

  it("refuses a solution of a challenge older than 10 minutes", async () => {
    const old = await createAltchaChallenge({ authSecret: TEST_AUTH_SECRET }, Date.now() - 11 * 60_000);
    const solution = await solveChallenge({ challenge: old, deriveKey });
    const token = Buffer.from(JSON.stringify({ challenge: old, solution })).toString("base64");
    const res = await postContact(
      app,
      { email: "old@example.test", message: "x", captchaToken: token },
      { ip: newIp() },
    );
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("The captcha has expired. Please verify again.");
  });

  it("answers invalid input with 400 and a translated message, and keeps the captcha usable", async () => {
    const token = await solveAltcha(app.server.url);
    const ip = newIp();
    const bad = await postContact(app, { email: "nope", message: "x", captchaToken: token }, { ip, lang: "sv" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe("Ange en giltig e-postadress.");
    const long = await postContact(
      app,
      { email: "a@example.test", message: "x".repeat(5001), captchaToken: token },
      { ip },
    );
    expect((await long.json()).message).toBe("The message can be at most 5,000 characters.");
    const notJson = await postContact(app, null, { ip, raw: "{oops" });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).message).toBe("The request could not be read.");
    const wrongTypes = await postContact(app, { email: 1, message: {}, name: [] }, { ip });
    expect(wrongTypes.status).toBe(400);
    // Validation runs before the captcha is consumed: the same solution still works.
    const ok = await postContact(app, { email: "a@example.test", message: "Now valid", captchaToken: token }, { ip });
    expect(ok.status).toBe(201);
  });

  it("refuses a cross-origin POST", async () => {
    const res = await fetch(`${app.server.url}/api/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: JSON.stringify({ email: "x@example.test", message: "x" }),
    });
    expect(res.status).toBe(403);
  });

  it("rate-limits per client IP in the database: the 6th message in 15 minutes gets 429", async () => {
    const ip = newIp();
    for (let i = 0; i < 5; i++) {
      const token = await solveAltcha(app.server.url);
      const res = await postContact(
        app,
        { email: "burst@example.test", message: `n${i}`, captchaToken: token },
        { ip },
      );
      expect(res.status).toBe(201);
    }
    const token = await solveAltcha(app.server.url);
    const refused = await postContact(
      app,
      { email: "burst@example.test", message: "n5", captchaToken: token },
      { ip, lang: "sv" },
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).message).toMatch(
      /^För många meddelanden från ditt nätverk\. Försök igen om 1[45] minuter\.$/,
    );
    // Another client is not affected, and the refused captcha was not consumed.
    const other = await postContact(
      app,
      { email: "burst@example.test", message: "other", captchaToken: token },
      { ip: newIp() },
    );
    expect(other.status).toBe(201);
    const counter = await app.rt.database.db
      .selectFrom("app_rate_limits")
      .selectAll()
      .where("key", "=", `contact:ip:${ip}`)
      .executeTakeFirstOrThrow();
    expect(counter.count).toBe(6);
  });
});

describe("client IP without TRUST_PROXY", () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp("contact-noproxy", {});
  });
  afterAll(() => stopApp(app));

  it("ignores X-Forwarded-For, so a client cannot dodge the rate limit by forging it", async () => {
    for (let i = 0; i < 5; i++) {
      const token = await solveAltcha(app.server.url);
      const res = await postContact(
        app,
        { email: "f@example.test", message: `m${i}`, captchaToken: token },
        { ip: newIp() },
      );
      expect(res.status).toBe(201);
    }
    const token = await solveAltcha(app.server.url);
    const res = await postContact(
      app,
      { email: "f@example.test", message: "m5", captchaToken: token },
      { ip: newIp() },
    );
    expect(res.status).toBe(429);
  });
});

describe("POST /api/contact with reCAPTCHA", () => {
  let app: App;
  let verify: http.Server;
  const calls: URLSearchParams[] = [];
  beforeAll(async () => {
    // A stand-in for Google's siteverify endpoint.
    verify = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const params = new URLSearchParams(body);
        calls.push(params);
        const good = params.get("secret") === "test-recaptcha-secret" && params.get("response") === "good-token";
        const errorCodes =
          params.get("response") === "used-token" ? ["timeout-or-duplicate"] : ["invalid-input-response"];
        res.setHeader("Content-Type", "application/json");
        res.end(
          JSON.stringify(
            good ? { success: true, hostname: "localhost" } : { success: false, "error-codes": errorCodes },
          ),
        );
      });
    });
    await new Promise<void>((r) => verify.listen(0, "127.0.0.1", r));
    const { port } = verify.address() as AddressInfo;
    app = await startApp("contact-recaptcha", {
      CAPTCHA: "recaptcha",
      RECAPTCHA_SITE_KEY: "test-site-key",
      RECAPTCHA_SECRET: "test-recaptcha-secret",
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
      TRUST_PROXY: "1",
    });
  });
  afterAll(async () => {
    await stopApp(app);
    await new Promise((r) => verify.close(r));
  });

  it("accepts a token the verify endpoint confirms, sending our secret and the client IP", async () => {
    const ip = newIp();
    const res = await postContact(app, { email: "r@example.test", message: "Hej", captchaToken: "good-token" }, { ip });
    expect(res.status).toBe(201);
    const call = calls.find((c) => c.get("response") === "good-token")!;
    expect(call.get("secret")).toBe("test-recaptcha-secret");
    expect(call.get("remoteip")).toBe(ip);
    expect((await storedMessages(app)).map((m) => m.email)).toContain("r@example.test");
  });

  it("refuses tokens the verify endpoint rejects, and says reCAPTCHA when none is sent", async () => {
    const bad = await postContact(
      app,
      { email: "r2@example.test", message: "x", captchaToken: "bad-token" },
      { ip: newIp() },
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe("The captcha verification failed. Please try again.");
    const used = await postContact(
      app,
      { email: "r2@example.test", message: "x", captchaToken: "used-token" },
      { ip: newIp() },
    );
    expect((await used.json()).message).toBe("This captcha has already been used. Please verify again.");
    const none = await postContact(app, { email: "r2@example.test", message: "x" }, { ip: newIp() });
    expect(await none.json()).toEqual({ message: "Please complete the reCAPTCHA verification" });
    expect((await storedMessages(app)).map((m) => m.email)).not.toContain("r2@example.test");
  });

  it("does not issue ALTCHA challenges and allows Google's frame in the CSP", async () => {
    expect((await fetch(`${app.server.url}/api/captcha/challenge`)).status).toBe(404);
    const page = await fetch(`${app.server.url}/contact`);
    expect(page.headers.get("content-security-policy")).toContain("frame-src https://www.google.com/recaptcha/");
  });
});

describe("admin pages", () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp("contact-admin", { ADMIN_EMAILS: ADMIN_EMAIL }, true);
  });
  afterAll(() => stopApp(app));

  async function insertMessage(over: Partial<{ id: string; email: string; lang: string; createdAt: number }> = {}) {
    const id = over.id ?? `m-${randomBytes(6).toString("hex")}`;
    await app.rt.database.db
      .insertInto("contact_messages")
      .values({
        id,
        name: "Sven Sändare",
        email: over.email ?? "sven@example.test",
        message: "Var hittar jag mina klistermärken?",
        lang: over.lang ?? "sv",
        createdAt: over.createdAt ?? Date.now(),
        readAt: null,
        handledAt: null,
        handledBy: null,
      })
      .execute();
    return id;
  }

  function get(path: string, cookie?: string) {
    return fetch(`${app.server.url}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
  }
  function post(path: string, form: Record<string, string>, cookie?: string) {
    return fetch(`${app.server.url}${path}`, {
      method: "POST",
      headers: { Origin: app.server.url, ...(cookie ? { Cookie: cookie } : {}) },
      body: new URLSearchParams(form),
      redirect: "manual",
    });
  }

  it("are 404 for anonymous visitors and signed-in users without the admin role", async () => {
    const id = await insertMessage();
    const user = await createUser(app.rt);
    for (const cookie of [undefined, user.cookie]) {
      expect((await get("/admin/messages", cookie)).status).toBe(404);
      expect((await get(`/admin/messages/${id}`, cookie)).status).toBe(404);
      expect((await post(`/admin/messages/${id}`, { intent: "handled", handled: "1" }, cookie)).status).toBe(404);
      expect((await post(`/admin/messages/${id}`, { intent: "reply", text: "hi" }, cookie)).status).toBe(404);
    }
    const row = await app.rt.database.db
      .selectFrom("contact_messages")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.readAt).toBeNull();
    expect(row.handledAt).toBeNull();
    expect(await app.rt.database.db.selectFrom("contact_replies").selectAll().execute()).toEqual([]);
  });

  it("open for ADMIN_EMAILS and for users granted with npm run admin:grant, closed again after --revoke", async () => {
    const envAdmin = await createUser(app.rt, { email: ADMIN_EMAIL });
    expect((await get("/admin/messages", envAdmin.cookie)).status).toBe(200);
    const granted = await createUser(app.rt);
    expect((await get("/admin/messages", granted.cookie)).status).toBe(404);
    // The real command, as an operator runs it.
    const run = (...args: string[]) =>
      spawnSync("npm", ["run", "-s", "admin:grant", "--", ...args], {
        // (Vitest sets BASE_URL="/" in process.env; the app wants an origin.)
        env: { ...process.env, ...app.env, BASE_URL: app.server.url },
        encoding: "utf8",
      });
    const out = run(granted.email.toUpperCase());
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toContain(`Admin role granted to ${granted.email}.`);
    expect((await get("/admin/messages", granted.cookie)).status).toBe(200);
    expect(run("--revoke", granted.email).status).toBe(0);
    expect((await get("/admin/messages", granted.cookie)).status).toBe(404);
    expect(run("not-an-email").status).toBe(2);
  });

  it("opening marks read, mark handled records who, and a reply is mailed in the sender's language and recorded", async () => {
    const admin = await createUser(app.rt, { email: `admin-${randomBytes(3).toString("hex")}@example.test` });
    await grantAdmin(app.rt.database.db, admin.email);
    const id = await insertMessage({ email: "reply-to-me@example.test", lang: "sv" });
    const page = await get(`/admin/messages/${id}`, admin.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Var hittar jag mina klistermärken?");
    // The language written out, a real status, one "Reply" heading (decision 032).
    expect(html).toContain("Svenska");
    expect(html).not.toMatch(/>sv</);
    expect(html).toContain("Open: not handled yet");
    expect(html.match(/>Reply</g) ?? []).toHaveLength(1);
    const db = app.rt.database.db;
    const read = await db.selectFrom("contact_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(read.readAt).toBeGreaterThan(0);

    expect((await post(`/admin/messages/${id}`, { intent: "handled", handled: "1" }, admin.cookie)).status).toBe(200);
    const handled = await db.selectFrom("contact_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(handled.handledAt).toBeGreaterThan(0);
    expect(handled.handledBy).toBe(admin.email);

    const res = await post(`/admin/messages/${id}`, { intent: "reply", text: "De skickas i morgon." }, admin.cookie);
    expect(res.status).toBe(200);
    const mail = await app.smtp!.waitForMail((m) => m.to.includes("reply-to-me@example.test"));
    expect(mail.subject).toBe("Svar från Hittads support");
    expect(mail.text).toContain("De skickas i morgon.");
    expect(mail.text).toContain("> Var hittar jag mina klistermärken?");
    expect(mail.replyTo).toEqual([SUPPORT_EMAIL]);
    const replies = await db.selectFrom("contact_replies").selectAll().where("messageId", "=", id).execute();
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ authorEmail: admin.email, text: "De skickas i morgon." });
    const outbox = await db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("id", "=", replies[0]!.mailId)
      .executeTakeFirstOrThrow();
    expect(outbox.to).toBe("reply-to-me@example.test");

    const empty = await post(`/admin/messages/${id}`, { intent: "reply", text: "   " }, admin.cookie);
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please write a reply.");
    expect((await get("/admin/messages/does-not-exist", admin.cookie)).status).toBe(404);
  });

  it("pages through 10,000 messages newest first", async () => {
    const admin = await createUser(app.rt, { email: ADMIN_EMAIL.replace("admin-env", "admin-env2") });
    await grantAdmin(app.rt.database.db, admin.email);
    const db = app.rt.database.db;
    const base = Date.UTC(2020, 0, 1);
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      id: `bulk-${String(i).padStart(5, "0")}`,
      name: `Bulk ${i}`,
      email: `bulk${i}@example.test`,
      message: `Bulk message number ${i}`,
      lang: "en",
      createdAt: base + i * 1000,
      readAt: i % 2 === 0 ? base : null,
      handledAt: null,
      handledBy: null,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto("contact_messages")
        .values(rows.slice(i, i + 500))
        .execute();
    const started = Date.now();
    const first = await (await get("/admin/messages", admin.cookie)).text();
    expect(Date.now() - started).toBeLessThan(3000);
    const total = await db
      .selectFrom("contact_messages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const pages = Math.ceil(Number(total.n) / 25);
    expect(first).toContain(`Page 1 of ${pages}`);
    const last = await (await get(`/admin/messages?page=${pages}`, admin.cookie)).text();
    expect(last).toContain("Bulk message number 0<");
    expect(last).not.toContain("Bulk message number 9999<");
    const second = await (await get("/admin/messages?page=2", admin.cookie)).text();
    expect(second).toContain(`Page 2 of ${pages}`);
    // Out-of-range and junk page numbers land on a real page.
    expect((await get("/admin/messages?page=999999", admin.cookie)).status).toBe(200);
    expect((await get("/admin/messages?page=abc", admin.cookie)).status).toBe(200);
  });
});
