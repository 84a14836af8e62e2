/**
 * Security suite (decision 010), over HTTP against the production server:
 * - the authorization matrix of tests/quality/route-table.ts: every route, GET and POST,
 *   as anonymous, owner, other user and admin, with the expected status (and redirect,
 *   and which private text may show);
 * - a Content-Security-Policy without 'unsafe-inline' scripts on every HTML response,
 *   and a nonce on every inline script;
 * - POSTs from a foreign Origin (or a cross-site fetch without one) refused on every route;
 * - a new session id at sign-in (no fixation), the old one not carried over;
 * - cookie flags: HttpOnly and SameSite always, Secure when BASE_URL is https.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertMessage } from "../../app/server/support/support.repository.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import "../../app/i18n/resources.server"; // the receipt mail of the test payment is translated
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { sendFinderMessage } from "../../app/server/relay/relay.service.server";
import { insertInvite } from "../../app/server/organisations/invites.repository.server";
import { insertMember } from "../../app/server/organisations/organisations.repository.server";
import {
  createOrganisation,
  hashInviteToken,
  removeMember,
} from "../../app/server/organisations/organisations.service.server";
import { startInvoice } from "../../app/server/orders/invoice.service.server";
import {
  ROLES,
  ROUTE_TABLE,
  SECRET_CONTACT,
  SECRET_FINDER_MESSAGE,
  SECRET_MESSAGE,
  SECRET_ORG_BILLING,
  type Expectation,
  type Role,
  type RouteRow,
  UNVERIFIED_ADMIN_AS,
  REMOVED_MEMBER_AS,
} from "../quality/route-table";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { httpClient } from "../support/http";
import { createUser, signIn, type TestUser } from "../support/users";
import { depsOf } from "../support/deps";
import { claimSticker, createBatch, getBatch, voidSticker } from "../../app/server/stickers/stickers.service.server";
import { uniqueOrgNumber } from "../support/org-numbers";

const ADMIN_EMAIL = "security-admin@example.test";
/** Listed in ADMIN_EMAILS too, but registered without clicking the verification link. */
const UNVERIFIED_ADMIN_EMAIL = "security-unverified-admin@example.test";
const MESSAGE_ID = "secMessage000000000000000";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
type Visitor = Role | "unverifiedAdmin" | "removedMember";
let users: Record<Exclude<Visitor, "anonymous">, TestUser>;
let item: string;
let spareItem: string;
let order: string;
let paidOrder: string;
let withdrawOrder: string;
let conversation: string;
let finderToken: string;
let organisation: string;
let invoiceOrder: string;
/** The removed member's card order for an organisation item, paid in its scope before removal. */
let membersOrder: string;
const stickers = { batch: "", unclaimed: "", claimed: "", claimedCode: "", voidedCode: "", voided: "" };
const inviteToken = randomBytes(32).toString("base64url");
const htmlResponses: { url: string; csp: string | null; body: string }[] = [];

beforeAll(async () => {
  db = await createTestDatabase("security");
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "1", ADMIN_EMAILS: `${ADMIN_EMAIL},${UNVERIFIED_ADMIN_EMAIL}` });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  users = {
    owner: await createUser(rt, { name: "Olivia Owner" }),
    other: await createUser(rt, { name: "Oscar Other" }),
    admin: await createUser(rt, { name: "Ada Admin", email: ADMIN_EMAIL }),
    unverifiedAdmin: await createUser(rt, { name: "Eve Early", email: UNVERIFIED_ADMIN_EMAIL, verified: false }),
    removedMember: await createUser(rt, { name: "Rolf Removed" }),
  };
  item = await createItem(
    depsOf(rt),
    users.owner.id,
    {
      name: "Olivia's phone",
      findFee: 100,
      prodType: "mobile",
      contactInfo: SECRET_CONTACT,
      payment: "year",
      intent: "payLater",
    },
    "en",
  );
  // An item of the owner's that the matrix deletes (decision 017: /product/{spareItem}/delete).
  spareItem = await createItem(
    depsOf(rt),
    users.owner.id,
    {
      name: "Olivia's umbrella",
      findFee: 10,
      prodType: "other",
      contactInfo: "x",
      payment: "year",
      intent: "payLater",
    },
    "en",
  );
  // A pending test-payment order of the owner's, for another item (the item above stays unpaid).
  const orderItem = await createItem(
    depsOf(rt),
    users.owner.id,
    { name: "Olivia's laptop", findFee: 50, prodType: "laptop", contactInfo: "x", payment: "year", intent: "payLater" },
    "en",
  );
  await keepOrderAddress(
    depsOf(rt),
    users.owner.id,
    {
      firstname: "Olivia",
      lastname: "Owner",
      email: users.owner.email,
      co: "",
      address: "Storgatan 1",
      address2: "",
      city: "Umeå",
      state: "",
      zip: "90326",
      country: "Sweden",
    },
    false,
  );
  order = (
    await createOrder(depsOf(rt), {
      userId: users.owner.id,
      itemIds: [orderItem],
      period: "year",
      lang: "en",
    })
  ).id;
  // And a paid one (a renewing subscription) whose renewal the dashboard can cancel.
  const paidItem = await createItem(
    depsOf(rt),
    users.owner.id,
    { name: "Olivia's keys", findFee: 20, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
    "en",
  );
  paidOrder = (
    await createOrder(depsOf(rt), {
      userId: users.owner.id,
      itemIds: [paidItem],
      period: "year",
      lang: "en",
    })
  ).id;
  await completeTestPayment(depsOf(rt), { userId: users.owner.id, orderId: paidOrder });
  // A consumer's paid order inside its 14 days (decision 041): the owner's POST withdraws it.
  const withdrawItem = await createItem(
    depsOf(rt),
    users.owner.id,
    { name: "Olivia's bike", findFee: 20, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
    "en",
  );
  withdrawOrder = (
    await createOrder(depsOf(rt), {
      userId: users.owner.id,
      itemIds: [withdrawItem],
      period: "year",
      lang: "en",
      immediateStart: true,
    })
  ).id;
  await completeTestPayment(depsOf(rt), { userId: users.owner.id, orderId: withdrawOrder });
  // Printed stickers (decision 036): one unclaimed, one the owner claimed, one voided.
  stickers.batch = await createBatch(depsOf(rt), users.admin.id, { size: 3, prepaidMonths: null, label: "Matrix" });
  const [unclaimed, claimed, voided] = (await getBatch(depsOf(rt), stickers.batch)).stickers;
  await claimSticker(
    depsOf(rt),
    { userId: users.owner.id, ip: "192.0.2.1" },
    { id: claimed!.id },
    { name: "Claimed bike", findFee: 0, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
    "en",
  );
  await voidSticker(depsOf(rt), stickers.batch, voided!.code);
  Object.assign(stickers, {
    unclaimed: unclaimed!.id,
    claimed: claimed!.id,
    claimedCode: claimed!.code,
    voided: voided!.id,
    voidedCode: voided!.code,
  });
  // A finder's message about the paid item (decision 013).
  const sent = await sendFinderMessage(
    depsOf(rt),
    paidItem,
    { message: SECRET_FINDER_MESSAGE, contact: "", captchaToken: "", js: false, trap: false },
    { ip: "192.0.2.1", lang: "en", viewerId: null },
  );
  conversation = sent.conversationId;
  finderToken = sent.token;
  // The owner's organisation and an open invite to an address no visitor has (decision 022).
  organisation = await createOrganisation(depsOf(rt), users.owner.id, {
    name: "Olivia's company",
    orgNumber: uniqueOrgNumber(),
    billingEmail: SECRET_ORG_BILLING,
    invoiceStreet: "Storgatan 1",
    invoicePostcode: "90326",
    invoiceCity: "Umeå",
    invoiceCountry: "SE",
    vatNumber: null,
    deskContact: "Reception",
  });
  // The organisation's simulated invoice for an item of it (decision 027), its billing
  // email confirmed as its mailed link does (decision 028).
  await rt.database.db
    .updateTable("organisations")
    .set({ billingEmailConfirmed: SECRET_ORG_BILLING })
    .where("id", "=", organisation)
    .execute();
  const orgItem = await createItem(
    depsOf(rt),
    users.owner.id,
    { name: "Company laptop", findFee: 10, prodType: "laptop", contactInfo: "x", payment: "year", intent: "payLater" },
    "en",
    organisation,
  );
  invoiceOrder = (
    await startInvoice(depsOf(rt), {
      userId: users.owner.id,
      itemIds: [orgItem],
      organisationId: organisation,
      period: "year",
      lang: "en",
    })
  ).orderId;
  // A member who paid for an organisation item by card in its scope, then was removed (decision 028).
  await insertMember(rt.database.db, {
    organisationId: organisation,
    userId: users.removedMember.id,
    role: "member",
    createdAt: Date.now(),
  });
  const membersItem = await createItem(
    depsOf(rt),
    users.removedMember.id,
    { name: "Member's laptop", findFee: 10, prodType: "laptop", contactInfo: "x", payment: "year", intent: "payLater" },
    "en",
    organisation,
  );
  await keepOrderAddress(
    depsOf(rt),
    users.removedMember.id,
    {
      firstname: "Rolf",
      lastname: "Removed",
      email: users.removedMember.email,
      co: "",
      address: "Hemvägen 2",
      address2: "",
      city: "Umeå",
      state: "",
      zip: "90326",
      country: "Sweden",
    },
    false,
  );
  membersOrder = (
    await createOrder(depsOf(rt), {
      userId: users.removedMember.id,
      itemIds: [membersItem],
      organisationId: organisation,
      period: "month",
      lang: "en",
    })
  ).id;
  await completeTestPayment(depsOf(rt), { userId: users.removedMember.id, orderId: membersOrder });
  await removeMember(depsOf(rt), users.owner.id, organisation, users.removedMember.id);
  await insertInvite(rt.database.db, {
    id: "matrix-invite",
    organisationId: organisation,
    email: "matrix-invitee@example.test",
    role: "member",
    tokenHash: hashInviteToken(inviteToken),
    invitedBy: users.owner.id,
    createdAt: Date.now(),
    expiresAt: Date.now() + 7 * 24 * 60 * 60_000,
    acceptedAt: null,
    acceptedBy: null,
  });
  await insertMessage(rt.database.db, {
    id: MESSAGE_ID,
    name: "Sam Sender",
    email: "sam@example.test",
    message: SECRET_MESSAGE,
    lang: "en",
    createdAt: Date.now(),
  });
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

const fill = (url: string) =>
  url
    .replaceAll("{item}", item)
    .replaceAll("{spareItem}", spareItem)
    .replaceAll("{message}", MESSAGE_ID)
    .replaceAll("{order}", order)
    .replaceAll("{paidOrder}", paidOrder)
    .replaceAll("{withdrawOrder}", withdrawOrder)
    .replaceAll("{conversation}", conversation)
    .replaceAll("{finderToken}", finderToken)
    .replaceAll("{invoiceOrder}", invoiceOrder)
    .replaceAll("{organisation}", organisation)
    .replaceAll("{inviteToken}", inviteToken)
    .replaceAll("{batch}", stickers.batch)
    .replaceAll("{unclaimedSticker}", stickers.unclaimed)
    .replaceAll("{claimedStickerCode}", stickers.claimedCode)
    .replaceAll("{claimedSticker}", stickers.claimed)
    .replaceAll("{voidedSticker}", stickers.voided)
    .replaceAll("{voidedStickerCode}", stickers.voidedCode);
const filledBody = (row: RouteRow) => Object.fromEntries(Object.entries(row.body ?? {}).map(([k, v]) => [k, fill(v)]));

async function cookieFor(role: Visitor, fresh = false) {
  if (role === "anonymous") return "ConsentApproved=true";
  const u = users[role];
  const cookie = fresh ? (await signIn(rt, u.email, u.password)).cookie : u.cookie;
  return `${cookie}; ConsentApproved=true`;
}

const http = httpClient(() => server.url);

async function request(row: RouteRow, method: "GET" | "POST", role: Visitor) {
  const cookie = await cookieFor(role, method === "POST" && row.freshSession);
  const url = fill(row.url);
  if (method === "GET") return http.get(url, { cookie });
  return row.json ? http.postJson(url, filledBody(row), { cookie }) : http.post(url, filledBody(row), { cookie });
}

function expectation(cell: number | Expectation): Expectation {
  return typeof cell === "number" ? { status: cell } : cell;
}

describe("authorization matrix (tests/quality/route-table.ts)", () => {
  for (const row of ROUTE_TABLE) {
    it(`${row.route === undefined ? "express" : "route"} ${row.url}`, async () => {
      // GETs first, then POSTs with the owner last: the owner's edit really saves.
      // The unverified holder of an admin email is held to `other`'s cells (decision 012).
      // So is the removed member (decision 028): an ex-member is an outsider everywhere.
      const order: Visitor[] = ["anonymous", "other", "unverifiedAdmin", "removedMember", "admin", "owner"];
      expect(order.filter((r) => r !== "unverifiedAdmin" && r !== "removedMember").sort()).toEqual([...ROLES].sort());
      const problems: string[] = [];
      for (const method of ["GET", "POST"] as const) {
        for (const role of order) {
          const cells = method === "GET" ? row.get : row.post;
          const want = expectation(
            cells[
              role === "unverifiedAdmin" ? UNVERIFIED_ADMIN_AS : role === "removedMember" ? REMOVED_MEMBER_AS : role
            ],
          );
          const res = await request(row, method, role);
          const text = await res.text();
          const label = `${method} ${row.url} as ${role}`;
          if (res.status !== want.status) problems.push(`${label}: ${res.status}, expected ${want.status}`);
          if (want.location !== undefined) {
            const location = res.headers.get("location");
            const path = location ? new URL(location, server.url).pathname : null;
            if (path !== fill(want.location))
              problems.push(`${label}: redirect to ${location}, expected ${want.location}`);
          }
          for (const s of want.contains ?? []) if (!text.includes(fill(s))) problems.push(`${label}: lacks "${s}"`);
          for (const s of want.absent ?? []) if (text.includes(s)) problems.push(`${label}: shows "${s}"`);
          if (res.headers.get("content-type")?.startsWith("text/html")) {
            htmlResponses.push({ url: `${label}`, csp: res.headers.get("content-security-policy"), body: text });
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it("a removed member gets an outsider's answer on every order route for the order they paid in the organisation's scope", async () => {
    // Every order route of the table, requested for the removed member's own order: what
    // `other` gets for an order not theirs, and never the organisation's item names.
    const ORDER_IN_URL = /\{(?:order|paidOrder|invoiceOrder)\}/;
    const rows = ROUTE_TABLE.filter((r) => ORDER_IN_URL.test(r.url));
    expect(rows.length).toBeGreaterThanOrEqual(8);
    const cookie = await cookieFor("removedMember");
    const problems: string[] = [];
    for (const row of rows) {
      const url = row.url.replace(ORDER_IN_URL, membersOrder);
      for (const method of ["GET", "POST"] as const) {
        const want = expectation((method === "GET" ? row.get : row.post)[REMOVED_MEMBER_AS]);
        const res =
          method === "GET" ? await http.get(url, { cookie }) : await http.post(url, filledBody(row), { cookie });
        const text = await res.text();
        if (res.status !== want.status) problems.push(`${method} ${url}: ${res.status}, expected ${want.status}`);
        if (text.includes("Member&#x27;s laptop") || text.includes("Member's laptop"))
          problems.push(`${method} ${url}: shows the organisation's item`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("an edit by anyone but the owner changed nothing; the owner's was saved", async () => {
    const row = await rt.database.db
      .selectFrom("products")
      .selectAll()
      .where("id", "=", item)
      .executeTakeFirstOrThrow();
    expect(row.owner).toBe(users.owner.id);
    expect(row.name).toBe("Renamed"); // the owner's POST, last in the matrix
    const others = await rt.database.db
      .selectFrom("products")
      .select("id")
      .where("owner", "!=", users.owner.id)
      .execute();
    expect(others).toEqual([]);
  });
});

describe("Content-Security-Policy", () => {
  it("is on every HTML response of the matrix, without 'unsafe-inline' scripts, and every inline script has its nonce (the anonymous finder page, answered as the page cache stores it, its hash)", () => {
    expect(htmlResponses.length).toBeGreaterThan(50);
    for (const r of htmlResponses) {
      expect(r.csp, r.url).toBeTruthy();
      const directives = Object.fromEntries(
        r.csp!.split(";").map((d) => {
          const [name, ...values] = d.trim().split(/\s+/);
          return [name, values];
        }),
      );
      const scriptSrc: string[] = directives["script-src"] ?? directives["default-src"];
      expect(scriptSrc, r.url).toBeDefined();
      expect(scriptSrc, r.url).not.toContain("'unsafe-inline'");
      expect(scriptSrc, r.url).not.toContain("'unsafe-eval'");
      expect(directives["script-src-attr"] ?? [], r.url).not.toContain("'unsafe-inline'");
      expect(directives["object-src"], r.url).toEqual(["'none'"]);
      expect(directives["frame-ancestors"], r.url).toEqual(["'none'"]);
      const nonce = /'nonce-([^']+)'/.exec(scriptSrc.join(" "))?.[1];
      if (!nonce) {
        // A finder page that missed the cache is answered with the page as stored: no
        // nonce, its inline scripts allowed by hash (decision 045). Only there.
        expect(r.url).toMatch(/^GET \/(?:product\/)?\{\w+\} as anonymous$/);
        for (const m of r.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
          expect(m[1], r.url).not.toMatch(/\ssrc=|nonce=/);
          expect(scriptSrc, r.url).toContain(`'sha256-${createHash("sha256").update(m[2]!).digest("base64")}'`);
        }
        continue;
      }
      for (const tag of r.body.match(/<script\b[^>]*>/g) ?? []) {
        expect(tag, r.url).toContain(`nonce="${nonce}"`);
      }
    }
  });

  it("covers the anonymous finder page served from the page cache: inline scripts allowed by hash only", async () => {
    const paid = await createItem(
      depsOf(rt),
      users.owner.id,
      { name: "Paid wallet", findFee: 10, prodType: "other", contactInfo: "call", payment: "year", intent: "payLater" },
      "en",
    );
    await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", paid).execute();
    for (const path of [`/${paid}`, `/${paid}`, `/product/${paid}`, `/product/${paid}`]) {
      const res = await fetch(`${server.url}${path}`, { headers: { Cookie: "ConsentApproved=true" } });
      expect(res.status).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1]?.split(/\s+/) ?? [];
      expect(scriptSrc, path).not.toEqual([]);
      expect(scriptSrc, path).not.toContain("'unsafe-inline'");
      const html = await res.text();
      const nonce = /'nonce-([^']+)'/.exec(scriptSrc.join(" "))?.[1];
      for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
        const [, attrs, body] = m;
        if (/\ssrc=/.test(attrs!)) continue;
        const hash = `'sha256-${createHash("sha256").update(body!).digest("base64")}'`;
        const allowed = (nonce && attrs!.includes(`nonce="${nonce}"`)) || scriptSrc.includes(hash);
        expect(allowed, `${path}: inline script neither nonced nor hashed`).toBeTruthy();
      }
    }
  });

  it("uses a new nonce for every response", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/`, { headers: { Cookie: "ConsentApproved=true" } });
      nonces.add(/'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1] ?? "");
    }
    expect(nonces.size).toBe(3);
  });
});

describe("foreign origins", () => {
  const posts = ROUTE_TABLE.filter((r) => r.route !== undefined && !r.noOriginCheck);

  it("every POST with a foreign Origin, a null Origin (unless the browser says same-origin) or a cross-site fetch without one is refused with 403", async () => {
    const problems: string[] = [];
    for (const row of posts) {
      for (const role of ROLES) {
        const variants: Record<string, string>[] = [
          { Origin: "http://evil.example" },
          { Origin: "null" },
          { Origin: "null", "Sec-Fetch-Site": "cross-site" },
          { Origin: "null", "Sec-Fetch-Site": "same-site" },
          { Origin: server.url.replace("localhost", "127.0.0.1") },
          { "Sec-Fetch-Site": "cross-site" },
        ];
        for (const extra of variants) {
          const res = await fetch(`${server.url}${fill(row.url)}`, {
            method: "POST",
            headers: { Cookie: await cookieFor(role), ...extra },
            body: new URLSearchParams(filledBody(row)),
            redirect: "manual",
          });
          if (res.status !== 403) problems.push(`${row.url} as ${role} with ${JSON.stringify(extra)}: ${res.status}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Nothing was changed by the refused requests.
    const msg = await rt.database.db
      .selectFrom("contact_messages")
      .selectAll()
      .where("id", "=", MESSAGE_ID)
      .executeTakeFirstOrThrow();
    expect(msg.message).toBe(SECRET_MESSAGE);
  });

  it("a form on a page that hides its address (Origin: null, Sec-Fetch-Site: same-origin) is our own: accepted", async () => {
    // What a browser sends for the cookie banner of /m/{token} under `Referrer-Policy: no-referrer` (decision 050).
    const res = await fetch(`${server.url}/consent`, {
      method: "POST",
      headers: { Origin: "null", "Sec-Fetch-Site": "same-origin" },
      body: new URLSearchParams({ redirectTo: "/m/abc" }),
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/m/abc");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("ConsentApproved="))).toBe(true);
  });
});

/** The session cookie from a sign-in response. */
function sessionCookie(res: Response) {
  return res.headers.getSetCookie().find((c) => /session_token=[^;]/.test(c));
}

async function signInOverHttp(base: string, origin: string, email: string, password: string, cookie = "") {
  const jar = `ConsentApproved=true${cookie ? `; ${cookie}` : ""}`;
  return httpClient(base).post("/login", { email, password }, { origin, cookie: jar });
}

describe("sessions", () => {
  it("sign-in issues a new session id: a planted or earlier one is not carried over", async () => {
    const u = await createUser(rt, { name: "Fixation Target" });
    const planted = "hittad.session_token=attacker-chosen-value.signature";
    const first = await signInOverHttp(server.url, server.url, u.email, u.password, planted);
    expect(first.status).toBe(302);
    const a = sessionCookie(first)!;
    expect(a).toBeTruthy();
    expect(a).not.toContain("attacker-chosen-value");
    const aPair = a.split(";")[0]!;

    // Signing in again while signed in: yet another id.
    const second = await signInOverHttp(server.url, server.url, u.email, u.password, aPair);
    const bPair = sessionCookie(second)!.split(";")[0]!;
    expect(bPair).not.toBe(aPair);
    expect(bPair).not.toBe(u.cookie);

    // Signing out ends that session on the server, not just in the browser.
    const out = await fetch(`${server.url}/logout`, {
      method: "POST",
      headers: { Origin: server.url, Cookie: bPair },
      redirect: "manual",
    });
    expect(out.status).toBe(302);
    const after = await fetch(`${server.url}/dashboard`, { headers: { Cookie: bPair }, redirect: "manual" });
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toMatch(/\/login$/);
  });

  it("session cookies are HttpOnly and SameSite (no Secure on plain-http BASE_URL)", async () => {
    const u = await createUser(rt, { name: "Cookie Flags" });
    const res = await signInOverHttp(server.url, server.url, u.email, u.password);
    const cookies = res.headers.getSetCookie().filter((c) => /session_(token|data)=/.test(c));
    expect(cookies.length).toBeGreaterThan(0);
    for (const c of cookies) {
      expect(c).toMatch(/;\s*HttpOnly/i);
      expect(c).toMatch(/;\s*SameSite=(Lax|Strict)/i);
      expect(c).toMatch(/;\s*Path=\//i);
    }
  });
});

describe("cookie flags with an https BASE_URL", () => {
  let httpsServer: TestServer;
  let httpsDb: TestDatabase;
  let httpsRt: Runtime;
  let origin: string;

  beforeAll(async () => {
    httpsDb = await createTestDatabase("sechttps");
    // Served at https behind a TLS-terminating proxy (TRUST_PROXY=1, X-Forwarded-Proto):
    // the test plays the proxy, talks plain HTTP and sends the https Origin a browser would.
    const port = await import("../support/server").then((m) => m.freePort());
    origin = `https://localhost:${port}`;
    const env = testEnv(httpsDb, { RATE_LIMIT_DISABLED: "1", BASE_URL: origin, TRUST_PROXY: "1" });
    httpsServer = await startServer(env, { port });
    httpsRt = await createTestRuntime(env);
  });
  afterAll(async () => {
    await httpsServer?.stop();
    await httpsRt?.database.close();
    await httpsDb?.drop();
  });

  it("every cookie the app sets is Secure and SameSite; session cookies also HttpOnly", async () => {
    const base = `http://localhost:${httpsServer.port}`;
    const u = await createUser(httpsRt, { name: "Secure Cookies" });
    const proxied = { Origin: origin, "X-Forwarded-Proto": "https" };
    const responses = [
      await fetch(`${base}/login`, {
        method: "POST",
        headers: { ...proxied, Cookie: "ConsentApproved=true" },
        body: new URLSearchParams({ email: u.email, password: u.password }),
        redirect: "manual",
      }),
      await fetch(`${base}/consent`, { method: "POST", headers: proxied, redirect: "manual" }),
      await fetch(`${base}/language/sv`, { headers: proxied, redirect: "manual" }),
    ];
    expect(responses.map((r) => r.status)).toEqual([302, 302, 302]);
    const cookies = responses.flatMap((r) => r.headers.getSetCookie());
    expect(cookies.some((c) => /^__Secure-hittad\.session_token=/.test(c))).toBe(true);
    expect(cookies.some((c) => /^ConsentApproved=/.test(c))).toBe(true);
    for (const c of cookies) {
      expect(c).toMatch(/;\s*Secure/i);
      expect(c).toMatch(/;\s*SameSite=(Lax|Strict)/i);
      if (/session_(token|data)=/.test(c)) expect(c).toMatch(/;\s*HttpOnly/i);
    }
  });
  it("every response of an https deployment carries HSTS (one year, subdomains)", async () => {
    const base = `http://localhost:${httpsServer.port}`;
    for (const p of ["/", "/login", "/no-such-page", "/healthz"]) {
      const res = await fetch(base + p, { headers: { "X-Forwarded-Proto": "https" }, redirect: "manual" });
      expect(res.headers.get("strict-transport-security"), p).toBe("max-age=31536000; includeSubDomains");
    }
  });
});

describe("responses to signed-in requests are never stored", () => {
  it("dashboard, edit, admin and .data answers say Cache-Control: private, no-store; anonymous pages do not", async () => {
    const http = httpClient(server.url);
    const owner = `${users.owner.cookie}; ConsentApproved=true`;
    const admin = `${users.admin.cookie}; ConsentApproved=true`;
    for (const [p, cookie] of [
      ["/dashboard", owner],
      [`/product/edit/${item}`, owner],
      ["/dashboard.data", owner],
      [`/product/${item}`, owner],
      ["/", owner],
      ["/admin/messages", admin],
      [`/admin/messages/${MESSAGE_ID}`, admin],
      ["/admin/messages.data", admin],
    ] as const) {
      const res = await http.get(p, { cookie });
      expect(res.status, p).toBeLessThan(500);
      expect(res.headers.get("cache-control"), p).toBe("private, no-store");
    }
    const anon = await http.get("/", { cookie: "ConsentApproved=true" });
    expect(anon.headers.get("cache-control") ?? "").not.toContain("private");
  });

  it("a plain-http deployment sends no HSTS", async () => {
    expect((await fetch(`${server.url}/`)).headers.get("strict-transport-security")).toBeNull();
  });
});
