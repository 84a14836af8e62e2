/**
 * Reliability (issue #8, item 6): two app instances on one PostgreSQL database, as behind
 * a load balancer. A session made by signing in on one works on the other (sessions live
 * in the database); a save on one is seen on the other, including on the anonymous finder
 * page, which each instance keeps rendered in memory (its version check against the
 * database bounds the staleness to a few seconds). PostgreSQL only (*.pg.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { createItem } from "../../app/server/items/items.service.server";
import { attachPhotos, listManagedPhotos, preparePhotos } from "../../app/server/photos/photos.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";
import { depsOf } from "../support/deps";

let db: TestDatabase;
let a: TestServer;
let b: TestServer;
let rt: Runtime;
let user: TestUser;

beforeAll(async () => {
  db = await createTestDatabase("twoinst");
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "1" });
  // Started one after the other: the second finds the migrations already applied.
  a = await startServer(env);
  b = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: a.url });
  user = await createUser(rt, { name: "Tove Twin" });
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await rt?.database.close();
  await db?.drop();
});

const form = (name: string, contactInfo: string) =>
  new URLSearchParams({ name, findFee: "10", prodType: "laptop", contactInfo, payment: "year", intent: "payLater" });

describe("two instances on one PostgreSQL", () => {
  it("a sign-in on one instance is a session on the other, and sign-out on the other ends it", async () => {
    const login = await fetch(`${a.url}/login`, {
      method: "POST",
      headers: { Origin: a.url, Cookie: "ConsentApproved=true" },
      body: new URLSearchParams({ email: user.email, password: user.password }),
      redirect: "manual",
    });
    expect(login.status).toBe(302);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => /session_token=/.test(c))!
      .split(";")[0]!;

    const onB = await fetch(`${b.url}/dashboard`, { headers: { Cookie: `${cookie}; ConsentApproved=true` } });
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain("Tove Twin");

    const out = await fetch(`${b.url}/logout`, {
      method: "POST",
      headers: { Origin: b.url, Cookie: cookie },
      redirect: "manual",
    });
    expect(out.status).toBe(302);
    const onA = await fetch(`${a.url}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(onA.status).toBe(302);
    expect(onA.headers.get("location")).toMatch(/\/login$/);
  });

  it("a save on one instance is seen on the other", async () => {
    const cookie = `${user.cookie}; ConsentApproved=true`;
    const saved = await fetch(`${a.url}/product/register`, {
      method: "POST",
      headers: { Origin: a.url, Cookie: cookie },
      body: form("Saved on A", "call A"),
      redirect: "manual",
    });
    expect(saved.status).toBe(302);
    const dashboardB = await fetch(`${b.url}/dashboard`, { headers: { Cookie: cookie } });
    expect(await dashboardB.text()).toContain("call A");
  });

  it("an edit on one instance reaches the other's anonymous finder page within seconds", async () => {
    const id = await createItem(
      depsOf(rt),
      user.id,
      {
        name: "Paid bag",
        findFee: 50,
        prodType: "other",
        contactInfo: "old contact",
        payment: "year",
        intent: "payLater",
      },
      "en",
    );
    await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
    const finder = (s: TestServer) =>
      fetch(`${s.url}/${id}`, { headers: { Cookie: "ConsentApproved=true", "Accept-Language": "en" } }).then((r) =>
        r.text(),
      );
    // Both instances have rendered (and may keep) the page.
    expect(await finder(a)).toContain("old contact");
    expect(await finder(b)).toContain("old contact");

    const edit = await fetch(`${a.url}/product/edit/${id}`, {
      method: "POST",
      headers: { Origin: a.url, Cookie: `${user.cookie}; ConsentApproved=true` },
      body: form("Paid bag", "new contact"),
      redirect: "manual",
    });
    expect(edit.status).toBe(302);
    expect(await finder(a)).toContain("new contact");
    await expect.poll(() => finder(b), { timeout: 15_000, interval: 250 }).toContain("new contact");
  });

  it("a photo stored through one instance is served by the other (bytes in the shared database)", async () => {
    const deps = depsOf(rt);
    const id = await createItem(
      deps,
      user.id,
      { name: "Twin photo", findFee: 10, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
      "en",
    );
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#2a6" } })
      .png()
      .toBuffer();
    await attachPhotos(deps, user.id, id, await preparePhotos(deps, user.id, [png]));
    const [photo] = await listManagedPhotos(deps, user.id, id);
    for (const server of [a, b]) {
      const res = await fetch(`${server.url}${photo!.small.url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/webp");
    }
  });
});
