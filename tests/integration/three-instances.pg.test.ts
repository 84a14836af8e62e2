/**
 * Several instances, proven (decision 042; first two in decision 009): three app instances
 * on one PostgreSQL database, as behind a load balancer. Sessions live in the database, so
 * a sign-in on one is a session on the others; a limit counts on all of them together; an
 * edit reaches the other instances' cached finder pages within 5 seconds; the hourly jobs
 * started by all three send a reminder once; the mail queue, worked by three mail workers,
 * delivers each finder message's mail once. PostgreSQL only (*.pg.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import sharp from "sharp";
import { createItem } from "../../app/server/items/items.service.server";
import { attachPhotos, listManagedPhotos, preparePhotos } from "../../app/server/photos/photos.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { createUser, type TestUser } from "../support/users";

const DAY = 24 * 60 * 60_000;
let db: TestDatabase;
let smtp: TestSmtpServer;
const servers: TestServer[] = [];
let rt: Runtime;
let user: TestUser;
let reminded: TestUser;

const form = (name: string, contactInfo: string) =>
  new URLSearchParams({ name, findFee: "10", prodType: "laptop", contactInfo, payment: "year", intent: "payLater" });

async function paidItem(owner: TestUser, name: string, contactInfo = "call me") {
  const id = await createItem(
    depsOf(rt),
    owner.id,
    { name, findFee: 50, prodType: "other", contactInfo, payment: "year", intent: "payLater" },
    "en",
  );
  await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

beforeAll(async () => {
  db = await createTestDatabase("threeinst");
  smtp = await startSmtpServer();
  const env = testEnv(db, {
    TRUST_PROXY: "1",
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: "100",
    // The hourly jobs' first run, a few seconds after each start: all three run them.
    JOBS_FIRST_RUN_MS: "4000",
  });
  // Started one after the other: the later ones find the migrations already applied.
  servers.push(await startServer(env));
  rt = await createTestRuntime({ ...env, BASE_URL: servers[0]!.url });
  user = await createUser(rt, { name: "Tove Triplet" });
  // A yearly subscription that renews in 10 days: the billing job's reminder is due.
  reminded = await createUser(rt, { name: "Rut Reminded" });
  const deps = depsOf(rt);
  await keepOrderAddress(
    deps,
    reminded.id,
    {
      firstname: "Rut",
      lastname: "Reminded",
      email: reminded.email,
      co: "",
      address: "Storgatan 1",
      address2: "",
      city: "Uppsala",
      state: "",
      zip: "753 20",
      country: "Sweden",
    },
    false,
  );
  const item = await createItem(
    deps,
    reminded.id,
    { name: "Reminded camera", findFee: 50, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
    "en",
  );
  const order = await createOrder(deps, { userId: reminded.id, itemIds: [item], period: "year", lang: "en" });
  await completeTestPayment(deps, { userId: reminded.id, orderId: order.id });
  await rt.database.db
    .updateTable("orders")
    .set({ renewing: 1, paidUntil: Date.now() + 10 * DAY, reminderFor: null })
    .where("id", "=", order.id)
    .execute();
  servers.push(await startServer(env), await startServer(env));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await rt?.database.close();
  await smtp?.close();
  await db?.drop();
});

describe("three instances on one PostgreSQL", () => {
  it("a sign-in on one instance is a session on the others, and sign-out on another ends it everywhere", async () => {
    const [a, b, c] = servers as [TestServer, TestServer, TestServer];
    const login = await fetch(`${a.url}/login`, {
      method: "POST",
      headers: { Origin: a.url, Cookie: "ConsentApproved=true" },
      body: new URLSearchParams({ email: user.email, password: user.password }),
      redirect: "manual",
    });
    expect(login.status).toBe(302);
    const cookie = login.headers
      .getSetCookie()
      .find((h) => /session_token=/.test(h))!
      .split(";")[0]!;
    for (const s of [b, c]) {
      const page = await fetch(`${s.url}/dashboard`, { headers: { Cookie: `${cookie}; ConsentApproved=true` } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Tove Triplet");
    }
    const out = await fetch(`${c.url}/logout`, {
      method: "POST",
      headers: { Origin: c.url, Cookie: cookie },
      redirect: "manual",
    });
    expect(out.status).toBe(302);
    for (const s of [a, b]) {
      const page = await fetch(`${s.url}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toMatch(/\/login$/);
    }
  });

  it("a save on one instance is seen on the others", async () => {
    const [a, b, c] = servers as [TestServer, TestServer, TestServer];
    const cookie = `${user.cookie}; ConsentApproved=true`;
    const saved = await fetch(`${a.url}/product/register`, {
      method: "POST",
      headers: { Origin: a.url, Cookie: cookie },
      body: form("Saved on A", "call A"),
      redirect: "manual",
    });
    expect(saved.status).toBe(302);
    for (const s of [b, c])
      expect(await (await fetch(`${s.url}/dashboard`, { headers: { Cookie: cookie } })).text()).toContain("call A");
  });

  it("an edit on one instance reaches the others' cached finder pages within 5 seconds", async () => {
    const [a, b, c] = servers as [TestServer, TestServer, TestServer];
    const id = await paidItem(user, "Paid bag", "old contact");
    const finder = (s: TestServer) =>
      fetch(`${s.url}/${id}`, { headers: { Cookie: "ConsentApproved=true", "Accept-Language": "en" } }).then((r) =>
        r.text(),
      );
    // Every instance has rendered (and keeps) the page.
    for (const s of servers) expect(await finder(s)).toContain("old contact");
    for (const s of servers) expect(await finder(s)).toContain("old contact");

    const edit = await fetch(`${a.url}/product/edit/${id}`, {
      method: "POST",
      headers: { Origin: a.url, Cookie: `${user.cookie}; ConsentApproved=true` },
      body: form("Paid bag", "new contact"),
      redirect: "manual",
    });
    expect(edit.status).toBe(302);
    const edited = Date.now();
    expect(await finder(a)).toContain("new contact");
    await Promise.all(
      [b, c].map((s) => expect.poll(() => finder(s), { timeout: 5_000, interval: 200 }).toContain("new contact")),
    );
    expect(Date.now() - edited).toBeLessThanOrEqual(5_500);
  });

  it("a limit counts on all instances together, and each message's mail is delivered once by three mail workers", async () => {
    const owner = await createUser(rt, { name: "Limit Owner" });
    const item = await paidItem(owner, "Limited umbrella");
    const ip = "10.36.4.1";
    // relay:ip allows 5 messages per 15 minutes from one address: 9 tries, round robin.
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const s = servers[i % 3]!;
      const res = await fetch(`${s.url}/product/${item}`, {
        method: "POST",
        headers: { Origin: s.url, Cookie: "ConsentApproved=true", "X-Forwarded-For": ip },
        body: new URLSearchParams({ message: `Found it, message ${i}` }),
        redirect: "manual",
      });
      await res.text();
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s >= 300 && s < 400)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const stored = await rt.database.db
      .selectFrom("conversation_messages")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("text", "like", "Found it, message%")
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(5);

    const toOwner = () => smtp.messages.filter((m) => m.to.includes(owner.email));
    await expect.poll(() => toOwner().length, { timeout: 15_000, interval: 200 }).toBeGreaterThanOrEqual(5);
    // Time for a second delivery by another worker, if the queue let one through.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(toOwner()).toHaveLength(5);
  });

  it("the hourly jobs started by all three instances send a renewal reminder once", async () => {
    const reminders = () =>
      smtp.messages.filter(
        (m) => m.to.includes(reminded.email) && m.subject.startsWith("Your Hittad subscription renews on"),
      );
    await expect.poll(() => reminders().length, { timeout: 20_000, interval: 250 }).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(reminders()).toHaveLength(1);
  });

  it("a photo stored through one instance is served by every other (bytes in the shared database, issue #34)", async () => {
    const deps = depsOf(rt);
    const id = await createItem(
      deps,
      user.id,
      { name: "Triplet photo", findFee: 10, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
      "en",
    );
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#2a6" } })
      .png()
      .toBuffer();
    await attachPhotos(deps, user.id, id, await preparePhotos(deps, user.id, [png], { itemId: id }));
    const [photo] = await listManagedPhotos(deps, user.id, id);
    for (const server of servers) {
      const res = await fetch(`${server.url}${photo!.small.url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/webp");
    }
  });
});
