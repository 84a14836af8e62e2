/**
 * Unbounded request bodies (decision 012): a body over the limit is refused with 413 and a
 * page in the request's language, before React Router reads it, whether it declares its
 * length or streams chunked; the server's memory stays flat and /healthz keeps answering
 * meanwhile; the connection is closed rather than left hanging. SQLite and PostgreSQL.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_BODY_LIMIT } from "../../app/server/http/body-limit.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { createUser, type TestUser } from "../support/users";
import type { Runtime } from "../../app/server/runtime.server";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
let owner: TestUser;

beforeAll(async () => {
  db = await createTestDatabase("bodylimit");
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  owner = await createUser(rt);
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

/** Resident memory of the server process, from /proc (Linux). */
async function rssOf(pid: number): Promise<number> {
  const fs = await import("node:fs/promises");
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

interface Upload {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  /** How many bytes the client managed to write before the answer came. */
  written: number;
}

/**
 * POST `total` bytes in 64 KB chunks, chunked (no Content-Length) or with a declared
 * length, and resolve with the answer as soon as it arrives (the server may stop reading).
 */
function upload(
  path: string,
  total: number,
  opts: { chunked: boolean; lang?: string; cookie?: string },
): Promise<Upload> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = http.request(url, {
      method: "POST",
      agent: false, // a connection of its own: nothing left over reaches the next test
      headers: {
        Origin: server.url,
        "Content-Type": "application/x-www-form-urlencoded",
        "Accept-Language": opts.lang ?? "en",
        ...(opts.cookie ? { Cookie: opts.cookie } : {}),
        ...(opts.chunked ? {} : { "Content-Length": String(total) }),
      },
    });
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      // The server closes after its 413 while we may still be writing: once the status has
      // arrived, a socket error ending the answer early still answers with what came.
      const done = () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers, written });
      res.on("end", done);
      res.on("error", done);
      res.on("close", done);
    });
    // The server closing while we still upload is expected after a 413.
    req.on("error", (err) =>
      answered
        ? undefined
        : reject(Object.assign(new Error(`${path}: ${err.message} after ${written} bytes`), { cause: err })),
    );
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (written < total && !answered) {
        // Exactly `total` bytes: a byte more than declared would be parsed as a next request.
        const part = chunk.subarray(0, Math.min(chunk.length, total - written));
        written += part.length;
        if (!req.write(part)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

const uploadOnce = upload;

describe("request bodies over the limit", () => {
  it("a declared 300 MB POST to /login is refused at once with 413, before its body is read", async () => {
    const started = Date.now();
    const res = await upload("/login", 300 * 1024 * 1024, { chunked: false });
    expect(res.status).toBe(413);
    expect(res.body).toContain("<h1>Too much data</h1>");
    expect(res.written).toBeLessThan(50 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a chunked 10 MB upload is cut off at the limit: 413, flat memory, /healthz answers meanwhile", async () => {
    // Warm up (modules, JIT, buffers) so the measurement sees the upload only.
    await upload("/contact", 1024 * 1024, { chunked: true });
    const before = await rssOf(server.process.pid!);
    const health = httpClient(server.url);
    let healthy = 0;
    let slowest = 0;
    const probing = (async () => {
      for (let i = 0; i < 20; i++) {
        const t = Date.now();
        if ((await health.get("/healthz")).status === 200) healthy++;
        slowest = Math.max(slowest, Date.now() - t);
      }
    })();
    const res = await upload("/contact", 10 * 1024 * 1024, { chunked: true });
    await probing;
    const after = await rssOf(server.process.pid!);
    // Unbounded, this upload grew the server by ~42 MB (a 300 MB body: ~2 GB); now
    // at most the dropped chunks awaiting garbage collection: ~7.6 MB on a quiet machine,
    // more when a loaded machine delays the collector (16 MB was exceeded once at a load
    // average of 5-7), so the bar sits between that and the unbounded growth.
    expect(after - before, `server grew by ${((after - before) / 1048576).toFixed(1)} MB`).toBeLessThan(
      24 * 1024 * 1024,
    );
    expect(res.status).toBe(413);
    expect(healthy).toBe(20);
    expect(slowest, "slowest /healthz in ms").toBeLessThan(1000);
  });

  it("the 413 page is in the request's language", async () => {
    const sv = await upload("/user/register", 2 * FORM_BODY_LIMIT, { chunked: false, lang: "sv-SE" });
    expect(sv.status).toBe(413);
    expect(sv.body).toContain('<html lang="sv"');
    expect(sv.body).toContain("<h1>För mycket data</h1>");
  });

  it("/api/ answers a JSON 413", async () => {
    const api = await upload("/api/contact", 2 * FORM_BODY_LIMIT, { chunked: true });
    expect(api.status).toBe(413);
    expect(JSON.parse(api.body)).toEqual({ message: expect.stringContaining("100 KB") });
  });

  it("a form body just under the limit is still read (the limit is not a 400 on big forms)", async () => {
    const res = await httpClient(server.url).post("/contact", {
      email: "x@example.test",
      message: "m",
      pad: "a".repeat(FORM_BODY_LIMIT - 200),
    });
    expect(res.status).toBe(400); // no captcha: the form's own answer, not 413
  });

  it("only the CSV import takes a 1.5 MB body, with or without a trailing slash; other forms still refuse 200 KB", async () => {
    const big = 1.5 * 1024 * 1024;
    // Signed in, so the import reads the whole body before it answers: a signed-out request
    // is answered (sign in first) while the client still writes, and the socket then closing
    // under the writer (EPIPE) said nothing about the limit. A connection reset before an
    // answer is still asked again once (a server that always resets still fails).
    const upload = (path: string, total: number, opts: { chunked: boolean; cookie?: string }) =>
      uploadOnce(path, total, opts).catch((err: Error & { cause?: NodeJS.ErrnoException }) =>
        err.cause?.code === "EPIPE" || err.cause?.code === "ECONNRESET"
          ? uploadOnce(path, total, opts)
          : Promise.reject(err),
      );
    for (const path of ["/dashboard/import", "/dashboard/import/", "/dashboard/import.data"]) {
      const cookie = owner.cookie;
      expect((await upload(path, big, { chunked: false, cookie })).status, path).not.toBe(413);
      expect((await upload(path, big, { chunked: true, cookie })).status, path).not.toBe(413);
    }
    for (const path of ["/account", "/dashboard/import/template.csv", "/dashboard/importer", "/contact"]) {
      expect((await upload(path, 200 * 1024, { chunked: false })).status, path).toBe(413);
    }
  });

  it("after a 413 the server takes new connections at once (nothing hangs)", async () => {
    await upload("/login", 5 * 1024 * 1024, { chunked: true });
    const t = Date.now();
    expect((await httpClient(server.url).get("/healthz")).status).toBe(200);
    expect(Date.now() - t).toBeLessThan(1000);
  });
});
