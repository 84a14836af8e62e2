/**
 * The router fallback: an unexpected server error is a 500 headed
 * 'Unexpected Application Error!' with the error's message, and leaks no internals.
 * The error is real, not staged through a test-only route: the session table is
 * renamed away, so the root loader's session lookup fails with an SQL error.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
let user: TestUser;

beforeAll(async () => {
  db = await createTestDatabase("errors");
  const env = testEnv(db);
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  user = await createUser(rt);
  await sql`alter table session rename to session_gone`.execute(rt.database.db);
});
afterAll(async () => {
  await rt?.database.close();
  await server?.stop();
  await db?.drop();
});

describe("unexpected errors", () => {
  it("answer 500 'Unexpected Application Error!' with the message and no stack trace", async () => {
    const res = await fetch(`${server.url}/`, {
      headers: { Cookie: `${user.cookie}; ConsentApproved=true`, "Accept-Language": "en" },
    });
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>Unexpected Application Error!<\/h1>/);
    // Production builds replace server errors' messages, so this is what the page shows.
    expect(html).toContain("Unexpected Server Error");
    expect(html).not.toMatch(/session_gone|no such table|does not exist|\bat \S+ \(|\.server\.ts/);
    // The failure is logged on the server, with the request's path (log lines are
    // written in batches, at least every 100 ms: decision 021).
    await expect.poll(() => server.logs(), { timeout: 2000, interval: 50 }).toMatch(/"msg":"unhandled error"/);
  });

  it("are translated in Swedish with the same status", async () => {
    const res = await fetch(`${server.url}/`, {
      headers: { Cookie: `${user.cookie}; ConsentApproved=true`, "Accept-Language": "sv" },
    });
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('<html lang="sv"');
    expect(html).toMatch(/<h1[^>]*>Oväntat programfel!<\/h1>/);
  });
});
