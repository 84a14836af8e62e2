/**
 * No secret of a URL reaches the server's log (decision 029), on SQLite and, with
 * DATABASE_URL=postgres://…, on PostgreSQL. The URLs come from the one list the log
 * redactor is built from (app/server/secret-urls.server.ts): each is visited with a
 * secret of its own (page, `.data`, form post, an oversized post that the body limit
 * refuses and logs), and so are the real links of the mails that carry tokens (invite,
 * finder conversation, verification, reset). Then the server's whole output is searched
 * for every secret.
 */
import { createOrganisationWithDpa } from "../support/dpa";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { SECRET_URLS } from "../../app/server/secret-urls.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";
import { uniqueOrgNumber } from "../support/org-numbers";

let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
const http = httpClient(() => server.url);
/** Every secret sent to the server, with where it was sent (for the failure message). */
const secrets = new Map<string, string>();

function secret(where: string) {
  const s = `S3cr3t${randomBytes(16).toString("base64url")}`;
  secrets.set(s, where);
  return s;
}

/** A route of the list as a path, its secret segment filled in. */
function pathOf(route: string, value: string) {
  return route.replace(/:(token|secret)\w*/, value).replace(/:\w+/, "google");
}

async function newestMailLink(to: string, pattern: RegExp) {
  const mail = await rt.database.db
    .selectFrom("mail_outbox")
    .select("text")
    .where("to", "=", to)
    .orderBy("createdAt", "desc")
    .executeTakeFirstOrThrow();
  const m = pattern.exec(mail.text);
  expect(m, mail.text).not.toBeNull();
  return m!;
}

const OVERSIZED = "x".repeat(200 * 1024);

async function visit(path: string, opts: { cookie?: string } = {}) {
  const cookie = `ConsentApproved=true${opts.cookie ? `; ${opts.cookie}` : ""}`;
  const q = path.indexOf("?");
  const dataPath = q === -1 ? `${path}.data` : `${path.slice(0, q)}.data${path.slice(q)}`;
  for (const res of [
    await http.get(path, { cookie }),
    await http.get(dataPath, { cookie }),
    await http.post(path, { message: "hello", password: "not the password" }, { cookie }),
    await http.post(path, { message: OVERSIZED }, { cookie }),
  ]) {
    // Whatever the answer (a page, 404, 410, 413), the request is logged: never a 500.
    expect(res.status, path).toBeLessThan(500);
    await res.arrayBuffer();
  }
}

beforeAll(async () => {
  tdb = await createTestDatabase("logs");
  const env = testEnv(tdb, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await tdb?.drop();
});

describe("secrets in URLs never reach the request log", () => {
  it("every URL of the list, with a secret in its path or query", async () => {
    for (const entry of SECRET_URLS) {
      const hasSegment = /:(token|secret)/.test(entry.route);
      if (hasSegment) await visit(pathOf(entry.route, secret(entry.route)));
      for (const param of entry.query ?? []) {
        const path = pathOf(entry.route, hasSegment ? secret(entry.route) : "");
        await visit(`${path}?${param}=${secret(`${entry.route}?${param}`)}`);
      }
    }
  });

  it("the real links of the mails: invite, finder conversation, email verification, password reset", async () => {
    const admin: TestUser = await createUser(rt, { name: "Alva Admin" });
    const invitee: TestUser = await createUser(rt, { name: "Ivar Invited" });
    const org = await createOrganisationWithDpa(depsOf(rt), admin.id, {
      name: "Logs AB",
      orgNumber: uniqueOrgNumber(),
      billingEmail: "billing@logs.example",
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "903 26",
      invoiceCity: "Umeå",
      invoiceCountry: "SE",
      vatNumber: null,
      deskContact: "Reception",
    });
    const invited = await http.post(
      `/organisations/${org}`,
      { intent: "invite", email: invitee.email, role: "member" },
      { cookie: admin.cookie },
    );
    expect(invited.status).toBeLessThan(400);
    const [, inviteToken] = await newestMailLink(invitee.email, /\/invite\/([A-Za-z0-9_-]{43})/);
    secrets.set(inviteToken!, "invite mail");
    await visit(`/invite/${inviteToken}`, { cookie: invitee.cookie });

    const item = await createItem(
      depsOf(rt),
      admin.id,
      {
        name: "Nyckelknippa",
        findFee: 100,
        prodType: "other",
        contactInfo: "x",
        contactVisibility: "private",
        payment: "year",
        intent: "payLater",
      },
      "sv",
    );
    await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", item).execute();
    const sent = await http.post(`/${item}`, { message: "Found your keys" }, { cookie: "ConsentApproved=true" });
    const finderPath = /^\/m\/[A-Za-z0-9_-]{43}/.exec(sent.headers.get("location") ?? "")?.[0];
    expect(finderPath).toBeDefined();
    secrets.set(finderPath!.slice(3), "finder link");
    await visit(`${finderPath}?sent=1`);

    const unverified = await createUser(rt, { name: "Una Unverified", verified: false });
    expect((await http.post("/user/verify-email", {}, { cookie: unverified.cookie })).status).toBeLessThan(400);
    const [, verifyPath, verifyToken] = await newestMailLink(unverified.email, /(\/user\/verify-email\?token=)(\S+)/);
    secrets.set(decodeURIComponent(verifyToken!), "verification mail");
    await visit(`${verifyPath}${verifyToken}`);

    expect((await http.post("/resetpassword", { email: invitee.email })).status).toBe(200);
    const [, resetPath, resetToken] = await newestMailLink(invitee.email, /(\/resetpassword\/new\?token=)(\S+)/);
    secrets.set(decodeURIComponent(resetToken!), "reset mail");
    await visit(`${resetPath}${resetToken}`);
  });

  it("the log has a line for each of those requests, and none of their secrets", async () => {
    // Log lines are written in batches, at most 100 ms late.
    await new Promise((r) => setTimeout(r, 500));
    const log = server.logs();
    expect(log).toContain('"url":"/invite/[redacted]"');
    expect(log).toContain('"url":"/m/[redacted].data"');
    expect(log).toContain("request body too large");
    for (const [value, where] of secrets) {
      expect(log.includes(value), `the secret of ${where} is in the log`).toBe(false);
      expect(log.includes(encodeURIComponent(value)), `the secret of ${where} is in the log`).toBe(false);
    }
    expect(secrets.size).toBeGreaterThan(SECRET_URLS.length);
  });
});
