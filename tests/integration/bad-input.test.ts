/**
 * Bad input (decision 010): well over 1,000 generated malformed submissions across
 * every form action, the JSON API and the parameterised GET routes (missing fields,
 * wrong types, huge and unicode strings, NUL bytes, invalid JSON, wrong content types,
 * broken multipart bodies). Every answer must be < 500, the server must keep answering,
 * and nothing the victim already saved may change (a snapshot of their rows before and after).
 *
 * Reproduce a failure with the seed it prints: BAD_INPUT_SEED=<seed> (and BAD_INPUT_COUNT).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_FIELDS } from "../../app/lib/domain/address";
import { insertMessage } from "../../app/server/support/support.repository.server";
import { createItem } from "../../app/server/items/items.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { formBody, jsonApiBody, pathSegment, prng, redirectTarget, type Body, type Rng } from "../support/fuzz";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";
import { depsOf } from "../support/deps";
import { uniqueOrgNumber } from "../support/org-numbers";

const SEED = Number(process.env.BAD_INPUT_SEED ?? 20261123);
const COUNT = Number(process.env.BAD_INPUT_COUNT ?? 1_200);
const ADMIN_EMAIL = "fuzz-admin@example.test";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
let victim: TestUser;
let attacker: TestUser;
let admin: TestUser;
let victimItem: string;
let attackerItem: string;
let victimPaidItem: string;
let victimOrg: string;
let attackerOrg: string;
const victimMessage = "msgVictim0000000000000000";
const adminMessage = "msgAdmin00000000000000000";

beforeAll(async () => {
  db = await createTestDatabase("badinput");
  // Rate limits off so that plausible submissions reach the deeper code instead of a 429.
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "1", ADMIN_EMAILS: ADMIN_EMAIL });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  victim = await createUser(rt, { name: "Victim Viktorsson" });
  attacker = await createUser(rt, { name: "Attacker Andersson" });
  admin = await createUser(rt, { name: "Admin Adminsson", email: ADMIN_EMAIL });
  const input = {
    name: "Victim's phone",
    findFee: 500,
    prodType: "mobile",
    contactInfo: "Call 070-000",
    payment: "year",
    intent: "payLater",
  } as const;
  victimItem = await createItem(depsOf(rt), victim.id, input, "en");
  attackerItem = await createItem(depsOf(rt), attacker.id, { ...input, name: "Attacker's laptop" }, "en");
  // A paid item takes finder messages (decision 013).
  victimPaidItem = await createItem(depsOf(rt), victim.id, { ...input, name: "Victim's keys" }, "en");
  await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", victimPaidItem).execute();
  await keepOrderAddress(
    depsOf(rt),
    victim.id,
    {
      firstname: "Victim",
      lastname: "Viktorsson",
      email: victim.email,
      co: "",
      address: "Storgatan 1",
      address2: "",
      city: "Umeå",
      state: "",
      zip: "90326",
      country: "Sweden",
    },
    true,
  );
  const orgDetails = {
    name: "Victim AB",
    orgNumber: uniqueOrgNumber(),
    billingEmail: victim.email,
    invoiceStreet: "Storgatan 1",
    invoicePostcode: "90326",
    invoiceCity: "Umeå",
    invoiceCountry: "SE",
    vatNumber: null,
    deskContact: "Victim's desk",
  };
  victimOrg = await createOrganisation(depsOf(rt), victim.id, orgDetails);
  attackerOrg = await createOrganisation(depsOf(rt), attacker.id, {
    ...orgDetails,
    name: "Attacker AB",
    orgNumber: uniqueOrgNumber(),
  });
  for (const id of [victimMessage, adminMessage]) {
    await insertMessage(rt.database.db, {
      id,
      name: "Victim",
      email: victim.email,
      message: `Saved message ${id}`,
      lang: "en",
      createdAt: Date.now(),
    });
  }
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

/** Everything the victim has saved, in a stable, comparable form. */
async function victimSnapshot() {
  const d = rt.database.db;
  const rows = {
    user: await d.selectFrom("user").selectAll().where("id", "=", victim.id).execute(),
    account: await d.selectFrom("account").selectAll().where("userId", "=", victim.id).execute(),
    sessions: await d
      .selectFrom("session")
      .select(["id", "token", "expiresAt"])
      .where("userId", "=", victim.id)
      .execute(),
    products: await d.selectFrom("products").selectAll().where("owner", "=", victim.id).orderBy("id").execute(),
    orderDraft: await d.selectFrom("order_drafts").selectAll().where("userId", "=", victim.id).execute(),
    message: await d.selectFrom("contact_messages").selectAll().where("id", "=", victimMessage).execute(),
    replies: await d.selectFrom("contact_replies").selectAll().where("messageId", "=", victimMessage).execute(),
    organisation: await d.selectFrom("organisations").selectAll().where("id", "=", victimOrg).execute(),
    members: await d.selectFrom("organisation_members").selectAll().where("organisationId", "=", victimOrg).execute(),
    invites: await d.selectFrom("organisation_invites").selectAll().where("organisationId", "=", victimOrg).execute(),
  };
  return JSON.parse(JSON.stringify(rows)) as unknown;
}

type Who = "anon" | "attacker" | "admin";
interface Target {
  name: string;
  method: "GET" | "POST";
  who: Who;
  path: (rng: Rng) => string;
  fields?: readonly string[];
  api?: boolean;
}

const PRODUCT_FIELDS = ["name", "findFee", "prodType", "contactInfo", "payment", "intent", "package", "owner", "payed"];
const q = (rng: Rng) => pathSegment(rng);
const ORGANISATION_FIELDS = [
  "intent",
  "name",
  "orgNumber",
  "billingEmail",
  "invoiceStreet",
  "invoicePostcode",
  "invoiceCity",
  "invoiceCountry",
  "vatNumber",
  "deskContact",
  "email",
  "role",
  "userId",
  "inviteId",
];
const RELAY_FIELDS = ["message", "contact", "latitude", "longitude", "captchaToken", "js", "website"];

// Every route with an action, plus the GET routes that read parameters or a query.
const TARGETS: Target[] = [
  {
    name: "login",
    method: "POST",
    who: "anon",
    path: () => "/login",
    fields: ["email", "password", "rememberMe", "linkProvider", "intent", "provider"],
  },
  {
    name: "login (signed in)",
    method: "POST",
    who: "attacker",
    path: () => "/login",
    fields: ["email", "password", "intent", "provider"],
  },
  {
    name: "register",
    method: "POST",
    who: "anon",
    path: () => "/user/register",
    fields: ["name", "email", "password", "intent", "provider"],
  },
  { name: "reset request", method: "POST", who: "anon", path: () => "/resetpassword", fields: ["email"] },
  {
    name: "new password",
    method: "POST",
    who: "anon",
    path: (r) => `/resetpassword/new?token=${q(r)}`,
    fields: ["token", "password"],
  },
  {
    name: "contact form",
    method: "POST",
    who: "anon",
    path: () => "/contact",
    fields: ["name", "email", "message", "captchaToken"],
  },
  {
    name: "contact API",
    method: "POST",
    who: "anon",
    path: () => "/api/contact",
    fields: ["name", "email", "message", "captchaToken"],
    api: true,
  },
  { name: "consent", method: "POST", who: "anon", path: () => "/consent", fields: ["redirectTo"] },
  { name: "logout (anonymous)", method: "POST", who: "anon", path: () => "/logout", fields: ["x"] },
  {
    name: "product register",
    method: "POST",
    who: "attacker",
    path: () => "/product/register",
    fields: PRODUCT_FIELDS,
  },
  {
    name: "edit victim's product",
    method: "POST",
    who: "attacker",
    path: () => `/product/edit/${victimItem}`,
    fields: PRODUCT_FIELDS,
  },
  {
    name: "edit own product",
    method: "POST",
    who: "attacker",
    path: () => `/product/edit/${attackerItem}`,
    fields: PRODUCT_FIELDS,
  },
  {
    name: "lost mode of victim's item",
    method: "POST",
    who: "attacker",
    path: () => `/product/${victimItem}/lost`,
    fields: ["lost", "back"],
  },
  {
    name: "lost mode of own item",
    method: "POST",
    who: "attacker",
    path: (r) => `/product/${r.chance(0.5) ? attackerItem : q(r)}/lost`,
    fields: ["lost", "back"],
  },
  {
    name: "edit garbage id",
    method: "POST",
    who: "attacker",
    path: (r) => `/product/edit/${q(r)}`,
    fields: PRODUCT_FIELDS,
  },
  {
    name: "address",
    method: "POST",
    who: "attacker",
    path: () => "/user/register-adress",
    fields: [...ADDRESS_FIELDS, "save", "userId"],
  },
  {
    name: "admin action, not admin",
    method: "POST",
    who: "attacker",
    path: () => `/admin/messages/${victimMessage}`,
    fields: ["intent", "handled", "text"],
  },
  {
    name: "admin action",
    method: "POST",
    who: "admin",
    path: () => `/admin/messages/${adminMessage}`,
    fields: ["intent", "handled", "text"],
  },
  {
    name: "admin action, garbage id",
    method: "POST",
    who: "admin",
    path: (r) => `/admin/messages/${q(r)}`,
    fields: ["intent", "handled", "text"],
  },
  {
    name: "order",
    method: "POST",
    who: "attacker",
    path: () => "/order",
    fields: ["items", "payment", "intent", "total", "discount", "userId"],
  },
  {
    name: "test checkout, garbage id",
    method: "POST",
    who: "attacker",
    path: (r) => `/order/checkout/${q(r)}`,
    fields: ["x"],
  },
  {
    name: "cancel renewal",
    method: "POST",
    who: "attacker",
    path: () => "/dashboard",
    fields: ["intent", "orderId"],
  },
  {
    // Decision 023: the upload and the confirmation (the CSV text posted back) of the import.
    name: "csv import",
    method: "POST",
    who: "attacker",
    path: () => "/dashboard/import",
    fields: ["intent", "file", "csv", "contactInfo", "scope"],
  },
  {
    name: "stripe webhook",
    method: "POST",
    who: "anon",
    path: () => "/api/stripe/webhook",
    fields: ["id", "type"],
    api: true,
  },
  {
    name: "create organisation",
    method: "POST",
    who: "attacker",
    path: () => "/organisations/new",
    fields: ORGANISATION_FIELDS,
  },
  {
    name: "victim's organisation",
    method: "POST",
    who: "attacker",
    path: () => `/organisations/${victimOrg}`,
    fields: ORGANISATION_FIELDS,
  },
  {
    name: "own organisation",
    method: "POST",
    who: "attacker",
    path: (r) => `/organisations/${r.chance(0.5) ? attackerOrg : q(r)}`,
    fields: ORGANISATION_FIELDS,
  },
  { name: "scope switch", method: "POST", who: "attacker", path: () => "/scope", fields: ["scope", "redirectTo"] },
  { name: "invite, garbage token", method: "POST", who: "attacker", path: (r) => `/invite/${q(r)}`, fields: ["x"] },
  { name: "no action (home)", method: "POST", who: "anon", path: () => "/", fields: ["x"] },
  {
    name: "finder message, unpaid item",
    method: "POST",
    who: "attacker",
    path: () => `/product/${victimItem}`,
    fields: [...PRODUCT_FIELDS, ...RELAY_FIELDS],
  },
  {
    name: "finder message, paid item",
    method: "POST",
    who: "anon",
    path: (r) => (r.chance(0.5) ? `/product/${victimPaidItem}` : `/${victimPaidItem}`),
    fields: RELAY_FIELDS,
  },
  { name: "finder link, garbage token", method: "POST", who: "anon", path: (r) => `/m/${q(r)}`, fields: RELAY_FIELDS },
  {
    name: "owner reply, garbage id",
    method: "POST",
    who: "attacker",
    path: (r) => `/messages/${q(r)}`,
    fields: ["message"],
  },
  { name: "login query", method: "GET", who: "anon", path: (r) => `/login?provider=${q(r)}&error=${q(r)}` },
  { name: "item page", method: "GET", who: "anon", path: (r) => `/product/${q(r)}` },
  { name: "short url", method: "GET", who: "anon", path: (r) => `/${q(r)}` },
  {
    name: "qr code",
    method: "GET",
    who: "attacker",
    path: (r) => `/product/${r.chance(0.5) ? victimItem : q(r)}/qr.svg`,
  },
  { name: "edit page", method: "GET", who: "attacker", path: (r) => `/product/edit/${q(r)}` },
  { name: "order confirmation", method: "GET", who: "attacker", path: (r) => `/order/complete/${q(r)}` },
  { name: "test checkout page", method: "GET", who: "attacker", path: (r) => `/order/checkout/${q(r)}` },
  {
    name: "language",
    method: "GET",
    who: "attacker",
    path: (r) => `/language/${r.pick(["en", "sv", q(r)])}?redirectTo=${r.chance(0.5) ? redirectTarget(r) : q(r)}`,
  },
  { name: "new password page", method: "GET", who: "anon", path: (r) => `/resetpassword/new?token=${q(r)}` },
  { name: "contact hand-in", method: "GET", who: "anon", path: (r) => `/contact?item=${q(r)}` },
  { name: "admin inbox", method: "GET", who: "admin", path: (r) => `/admin/messages?page=${q(r)}` },
  { name: "organisation page", method: "GET", who: "attacker", path: (r) => `/organisations/${q(r)}` },
  { name: "invite page", method: "GET", who: "anon", path: (r) => `/invite/${q(r)}` },
  { name: "finder link page", method: "GET", who: "anon", path: (r) => `/m/${q(r)}` },
  { name: "conversation page", method: "GET", who: "attacker", path: (r) => `/messages/${q(r)}` },
  { name: "admin message", method: "GET", who: "admin", path: (r) => `/admin/messages/${q(r)}` },
  { name: "social return", method: "GET", who: "attacker", path: (r) => `/user/social?from=${q(r)}&error=${q(r)}` },
  {
    name: "OAuth callback",
    method: "GET",
    who: "anon",
    path: (r) => `/api/auth/callback/${r.pick(["google", "facebook", q(r)])}?code=${q(r)}&state=${q(r)}`,
  },
  { name: "captcha challenge", method: "GET", who: "anon", path: (r) => `/api/captcha/challenge?x=${q(r)}` },
];

function cookieFor(who: Who) {
  const consent = "ConsentApproved=true";
  if (who === "attacker") return `${attacker.cookie}; ${consent}`;
  if (who === "admin") return `${admin.cookie}; ${consent}`;
  return consent;
}

interface Outcome {
  i: number;
  ms?: number;
  path?: string;
  target: string;
  kind: string;
  status: number;
  detail?: string;
}

async function send(i: number, rng: Rng): Promise<Outcome> {
  const t = rng.pick(TARGETS);
  const path = t.path(rng);
  let body: Body = { kind: "get", headers: {} };
  if (t.method === "POST") body = t.api ? jsonApiBody(rng, t.fields ?? []) : formBody(rng, t.fields ?? []);
  const started = Date.now();
  const lang = rng.pick(["en", "sv-SE", "xx", "", "*;q=garbage"]);
  try {
    const res = await fetch(`${server.url}${path}`, {
      method: t.method,
      headers: {
        Origin: server.url,
        Cookie: cookieFor(t.who),
        "Accept-Language": lang,
        ...body.headers,
      },
      body: body.body,
      redirect: "manual",
      signal: AbortSignal.timeout(20_000),
    });
    await res.arrayBuffer();
    return {
      i,
      target: t.name,
      kind: body.kind,
      status: res.status,
      ms: Date.now() - started,
      path: path.slice(0, 200),
    };
  } catch (err) {
    return {
      i,
      target: t.name,
      kind: body.kind,
      status: 0,
      detail: `${String(err)} ${path.slice(0, 200)} lang=${lang} ${JSON.stringify(body.headers)} ${String(body.body).slice(0, 200)}`,
    };
  }
}

describe("bad input", () => {
  it(`${COUNT} malformed submissions: no 5xx, the server keeps answering, saved data unchanged (seed ${SEED})`, async () => {
    const before = await victimSnapshot();
    const rng = prng(SEED);
    // Generate every request up front from one sequence, so the seed fixes them all
    // however the responses interleave; then send them four at a time.
    const jobs = Array.from({ length: COUNT }, (_, i) => {
      const r = prng(Math.floor(rng.next() * 2 ** 32));
      return () => send(i, r);
    });
    const outcomes: Outcome[] = [];
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        outcomes.push(await job());
        if (outcomes.length % 200 === 0) {
          const health = await fetch(`${server.url}/healthz`);
          expect(health.status, "server answers /healthz during the run").toBe(200);
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);

    const failures = outcomes.filter((o) => o.status >= 500 || o.status === 0).sort((a, b) => a.i - b.i);
    if (failures.length) {
      console.error(`bad input failures (BAD_INPUT_SEED=${SEED}):\n${JSON.stringify(failures.slice(0, 30), null, 1)}`);
    }
    expect(failures).toEqual([]);
    expect(outcomes).toHaveLength(COUNT);
    // Every target was hit, so no form is silently left out.
    expect(new Set(outcomes.map((o) => o.target)).size).toBe(TARGETS.length);

    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const home = await fetch(`${server.url}/`, { headers: { Cookie: cookieFor("anon") } });
    expect(home.status).toBe(200);
    expect(await victimSnapshot()).toEqual(before);
    expect(server.process.exitCode).toBeNull();
  }, 240_000);

  it("a form action sent a non-form body answers 400 with the translated page", async () => {
    for (const [lang, title] of [
      ["en", "Bad request"],
      ["sv-SE", "Felaktig begäran"],
    ] as const) {
      for (const path of ["/login", "/user/register", "/resetpassword", "/resetpassword/new", "/contact"]) {
        const res = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: {
            Origin: server.url,
            Cookie: cookieFor("anon"),
            "Accept-Language": lang,
            "Content-Type": "application/json",
          },
          body: '{"email":"a@b.se"}',
          redirect: "manual",
        });
        expect(res.status, `${path} ${lang}`).toBe(400);
        expect(await res.text()).toMatch(new RegExp(`<h1[^>]*>${title}</h1>`));
      }
    }
  });

  it("a redirect target with a control character, U+2028, an emoji or a non-ASCII letter is a safe 302, never a 500", async () => {
    const http = httpClient(server.url);
    const cases: Array<[string, string]> = [
      ["/%0b", "/"],
      ["/%7F", "/"],
      ["/%E2%80%A8", "/%E2%80%A8"],
      ["/%F0%9F%98%80", "/%F0%9F%98%80"],
      ["/%C3%A5", "/%C3%A5"],
    ];
    for (const [target, location] of cases) {
      const lang = await http.get(`/language/sv?redirectTo=${target}`, { cookie: cookieFor("anon") });
      expect(lang.status, target).toBe(302);
      expect(lang.headers.get("location"), target).toBe(location);
      const consent = await http.post("/consent", { redirectTo: decodeURIComponent(target) });
      expect(consent.status, target).toBe(302);
      expect(consent.headers.get("location"), target).toBe(location);
    }
  });
});
