/**
 * SIGTERM drains (decision 048), as a load balancer's rolling restart needs: /readyz answers
 * 503 at once, requests that still arrive within SHUTDOWN_DELAY_MS are answered (and close
 * their connection), a request under way when the signal came is finished, the scans of
 * the last second are written, and the process exits 0.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem } from "../../app/server/items/items.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { startServer, type TestServer } from "../support/server";
import { createUser } from "../support/users";

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const DELAY = 1500;
let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
let item: string;

beforeAll(async () => {
  tdb = await createTestDatabase("drain");
  const env = testEnv(tdb, { RATE_LIMIT_DISABLED: "1", SHUTDOWN_DELAY_MS: String(DELAY) });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  const owner = await createUser(rt);
  item = await createItem(
    depsOf(rt),
    owner.id,
    { name: "Drained bike", findFee: 50, prodType: "other", contactInfo: "ring", payment: "year", intent: "payLater" },
    "en",
  );
  await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", item).execute();
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await tdb?.drop();
});

/** A sign-in whose body arrives in two halves, the second when `finish` is called. */
function slowPost(port: number) {
  const body = "email=nobody%40example.test&password=wrong-password-123";
  const req = http.request({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/login",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": Buffer.byteLength(body),
      Origin: `http://localhost:${port}`,
    },
  });
  const answer = new Promise<number>((resolve, reject) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
  req.write(body.slice(0, 20));
  return {
    finish: () => {
      req.end(body.slice(20));
      return answer;
    },
  };
}

describe("SIGTERM", () => {
  it("drains: 503 on /readyz, answers for SHUTDOWN_DELAY_MS, finishes what is under way, writes the last scans, exits 0", async () => {
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const underWay = slowPost(server.port);
    await new Promise((r) => setTimeout(r, 100));
    const signalled = Date.now();
    const exited = server.stop("SIGTERM");
    // The signal is handled on the server's next turn: /readyz turns 503 within the delay.
    let ready = await fetch(`${server.url}/readyz`);
    while (ready.status === 200 && Date.now() - signalled < DELAY / 2) {
      await ready.text();
      ready = await fetch(`${server.url}/readyz`);
    }
    expect([ready.status, await ready.text()]).toEqual([503, "draining"]);
    const page = await fetch(`${server.url}/product/${item}`, { headers: { "User-Agent": PHONE } });
    expect(page.status).toBe(200);
    expect(page.headers.get("connection")).toBe("close");
    expect(await page.text()).toContain("Drained bike");
    expect(await underWay.finish()).toBeLessThan(500);

    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DELAY);
    await expect(fetch(`${server.url}/readyz`)).rejects.toThrow();
    // The finder page's scan, still in memory at the signal, was written on the way out.
    const scans = await rt.database.db
      .selectFrom("item_scans")
      .select("productId")
      .where("productId", "=", item)
      .execute();
    expect(scans).toHaveLength(1);
  });
});
