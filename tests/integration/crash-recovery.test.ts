/**
 * Reliability (decision 010): `kill -9` of the server in the middle of a burst of
 * item saves loses no save that was acknowledged. Each save has a unique name; a save
 * counts as acknowledged when the client got the action's redirect. After a restart on
 * the same database every acknowledged item is there (SQLite here, PostgreSQL in CI's
 * PostgreSQL leg).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { freePort, startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

let db: TestDatabase;
let env: Record<string, string>;
let server: TestServer | undefined;
let rt: Runtime;
let user: TestUser;
let port: number;

beforeAll(async () => {
  db = await createTestDatabase("crash");
  port = await freePort();
  env = testEnv(db, { RATE_LIMIT_DISABLED: "1", BASE_URL: `http://localhost:${port}` });
  server = await startServer(env, { port });
  rt = await createTestRuntime(env);
  user = await createUser(rt, { name: "Crash Tester" });
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

describe("kill -9 during a burst of saves", () => {
  it("keeps every save that was acknowledged", async () => {
    const url = `http://localhost:${port}`;
    const acknowledged: string[] = [];
    const failed: string[] = [];
    let killed = false;
    let next = 0;
    const TOTAL = 400;
    const KILL_AFTER = 60;

    const save = async (name: string) => {
      const res = await fetch(`${url}/product/register`, {
        method: "POST",
        headers: { Origin: url, Cookie: user.cookie },
        body: new URLSearchParams({
          name,
          findFee: "10",
          prodType: "other",
          contactInfo: "crash test",
          payment: "year",
          intent: "payLater",
        }),
        redirect: "manual",
      });
      await res.arrayBuffer();
      return res.status;
    };

    const worker = async () => {
      while (next < TOTAL) {
        const name = `burst-${next++}`;
        try {
          const status = await save(name);
          if (status === 302) acknowledged.push(name);
          else failed.push(`${name}: ${status}`);
        } catch {
          // The connection died with the server: not acknowledged, may or may not be saved.
          failed.push(`${name}: no answer`);
        }
        if (!killed && acknowledged.length >= KILL_AFTER) {
          killed = true;
          server!.process.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(killed).toBe(true);
    await server!.stop(); // waits for the exit of the killed process
    expect(server!.process.signalCode).toBe("SIGKILL");
    // Some requests were in flight or sent after the kill: they got no answer.
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((f) => f.endsWith("no answer"))).toBe(true);

    // Restart on the same database: every acknowledged save is there.
    server = await startServer(env, { port });
    const rows = await rt.database.db
      .selectFrom("products")
      .select("name")
      .where("owner", "=", user.id)
      .where("name", "like", "burst-%")
      .execute();
    const saved = new Set(rows.map((r) => r.name));
    expect(acknowledged.filter((n) => !saved.has(n))).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    // And the restarted server serves them.
    const dashboard = await fetch(`${url}/dashboard`, { headers: { Cookie: user.cookie } });
    expect(dashboard.status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  }, 90_000);
});
