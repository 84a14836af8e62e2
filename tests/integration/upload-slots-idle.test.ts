/**
 * Upload slots cannot be held by idle posts (decision 058): an account whose email is not
 * verified saves its item form as anyone else (the form is multipart); one client address holds at most
 * UPLOADS_PER_IP slots, whichever accounts it uses; and a post that sends nothing for
 * UPLOAD_IDLE_MS is cut off, so its slots come back. Against the production server.
 */
import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { UPLOAD_IDLE_MS, UPLOADS_PER_IP } from "../../app/server/photos/photo-upload.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase, usingPostgres } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
const BOUNDARY = "----slots";

beforeAll(async () => {
  db = await createTestDatabase("upload_idle");
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "0", TRUST_PROXY: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

function headers(user: TestUser, ip: string, length: number) {
  return {
    Cookie: user.cookie,
    Origin: server.url,
    "X-Forwarded-For": ip,
    "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
    "Content-Length": String(length),
  };
}

/** A post that sends its first bytes, then nothing; answers the status if the server ends it. */
function openIdle(user: TestUser, ip: string) {
  const req = http.request(`${server.url}/product/register`, {
    method: "POST",
    headers: headers(user, ip, 10_000_000),
  });
  const ended = new Promise<string>((resolve) => {
    req.on("response", (res) => {
      res.resume();
      resolve(String(res.statusCode));
    });
    req.on("error", () => resolve("cut"));
    req.on("close", () => resolve("cut"));
  });
  req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nx`);
  return { req, ended };
}

function postSmall(user: TestUser, ip: string): Promise<number> {
  const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBlack phone\r\n--${BOUNDARY}--\r\n`;
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}/product/register`, {
      method: "POST",
      headers: headers(user, ip, Buffer.byteLength(body)),
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on("error", reject);
    req.end(body);
  });
}

it("an account whose email is not verified is not refused at the door: a new owner's item form is multipart", async () => {
  const unverified = await createUser(rt, { verified: false });
  expect(await postSmall(unverified, "198.51.100.1")).not.toBe(403);
});

it("one client address holds at most its share of slots, whichever accounts it uses", async () => {
  const held = [];
  for (let a = 0; a < UPLOADS_PER_IP / 2; a++) {
    const u = await createUser(rt);
    held.push(openIdle(u, "198.51.100.2"), openIdle(u, "198.51.100.2"));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const another = await createUser(rt);
  expect(await postSmall(another, "198.51.100.2")).toBe(429);
  // Someone at another address is not held up.
  expect(await postSmall(another, "198.51.100.3")).not.toBe(429);
  for (const h of held) h.req.destroy();
}, 30_000);

// Not a database rule (in-process slots and memory): the SQLite leg covers it; the PostgreSQL leg is kept to what differs by database.
it.skipIf(usingPostgres())(
  "an idle post is cut off after the idle time and its slot comes back",
  async () => {
    const u = await createUser(rt);
    const idle = [openIdle(u, "198.51.100.4"), openIdle(u, "198.51.100.4")];
    await new Promise((r) => setTimeout(r, 1000));
    expect(await postSmall(u, "198.51.100.5")).toBe(429);
    const started = Date.now();
    await Promise.all(idle.map((i) => i.ended));
    expect(Date.now() - started).toBeLessThan(UPLOAD_IDLE_MS + 5_000);
    expect(await postSmall(u, "198.51.100.5")).not.toBe(429);
  },
  60_000,
);
