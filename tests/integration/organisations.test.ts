/**
 * Organisations over HTTP against the production server (decision 022), on SQLite and, with
 * DATABASE_URL=postgres://…, on PostgreSQL: who may see and change an organisation (admin,
 * member, outsider, member of another organisation), invites (mailed link, once, 7 days,
 * only for the verified invited address), the last admin, removal handing items back to
 * the organisation, the scope cookie checked against membership, and the /companies call
 * to action with its sign-up-and-return path.
 */
import { createOrganisationWithDpa } from "../support/dpa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { RETURN_TO_COOKIE } from "../../app/lib/domain/return-to";
import { createItem } from "../../app/server/items/items.service.server";
import {
  acceptInvite,
  hashInviteToken,
  INVITE_RULE,
  inviteMember,
  OrganisationError,
} from "../../app/server/organisations/organisations.service.server";
import { resolveScope } from "../../app/server/organisations/scope.server";
import { RECIPIENT_DAY_LIMIT } from "../../app/server/recipients/recipients.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, markVerified, type TestUser } from "../support/users";
import { uniqueOrgNumber } from "../support/org-numbers";

const DETAILS = {
  name: "Acme AB",
  // One number makes one organisation (decision 057): each form its own, without the dash.
  get orgNumber() {
    return uniqueOrgNumber().replace("-", "");
  },
  billingEmail: "Billing@Acme.example",
  invoiceStreet: "Storgatan 1",
  invoicePostcode: "903 26",
  invoiceCity: "Umeå",
  invoiceCountry: "se",
  vatNumber: "",
  deskContact: "Acme reception, 090-123 45",
};

let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
let admin: TestUser;
let member: TestUser;
let outsider: TestUser;
let otherAdmin: TestUser;
let org: string;
let otherOrg: string;
const http = httpClient(() => server.url);
const as = (u: TestUser) => ({ cookie: `${u.cookie}; ConsentApproved=true` });

/** The newest invite mail to `email` and the token in its link. */
async function inviteTokenFor(email: string) {
  const mail = await rt.database.db
    .selectFrom("mail_outbox")
    .select(["text", "subject"])
    .where("to", "=", email)
    .orderBy("createdAt", "desc")
    .executeTakeFirstOrThrow();
  const token = /\/invite\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
  expect(token, mail.text).toBeDefined();
  return { token: token!, mail };
}

async function invite(by: TestUser, organisationId: string, email: string, role = "member") {
  return http.post(`/organisations/${organisationId}`, { intent: "invite", email, role }, as(by));
}

async function roleOf(organisationId: string, userId: string) {
  const row = await rt.database.db
    .selectFrom("organisation_members")
    .select("role")
    .where("organisationId", "=", organisationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row?.role ?? null;
}

async function addMember(organisationId: string, user: TestUser, role: "admin" | "member") {
  await rt.database.db
    .insertInto("organisation_members")
    .values({ organisationId, userId: user.id, role, createdAt: Date.now() })
    .execute();
}

beforeAll(async () => {
  tdb = await createTestDatabase("orgs");
  const env = testEnv(tdb, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  admin = await createUser(rt, { name: "Alva Admin", language: "sv" });
  member = await createUser(rt, { name: "Max Member" });
  outsider = await createUser(rt, { name: "Otto Outsider" });
  otherAdmin = await createUser(rt, { name: "Berit Boss" });
  const parsed = {
    ...DETAILS,
    invoiceCountry: "SE",
    vatNumber: null,
    // Each organisation its own number (decision 057), as the form would have stored it.
    get orgNumber() {
      return uniqueOrgNumber();
    },
  };
  org = await createOrganisationWithDpa(depsOf(rt), admin.id, parsed);
  await addMember(org, member, "member");
  otherOrg = await createOrganisationWithDpa(depsOf(rt), otherAdmin.id, { ...parsed, name: "Other Org AB" });
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await tdb?.drop();
});

describe("creating an organisation", () => {
  it("a signed-in user creates one with a Luhn-checked organisation number and becomes its admin", async () => {
    const creator = await createUser(rt, { name: "Cecilia Creator" });
    const typed = uniqueOrgNumber().replace("-", "");
    const res = await http.post("/organisations/new", { ...DETAILS, orgNumber: typed }, as(creator));
    expect(res.status).toBe(302);
    const id = /^\/organisations\/([A-Za-z0-9]{10})\?done=created$/.exec(res.headers.get("location") ?? "")?.[1];
    expect(id).toBeDefined();
    const row = await rt.database.db
      .selectFrom("organisations")
      .selectAll()
      .where("id", "=", id!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      orgNumber: `${typed.slice(0, 6)}-${typed.slice(6)}`,
      billingEmail: "billing@acme.example",
      invoiceCountry: "SE",
      vatNumber: null,
    });
    expect(await roleOf(id!, creator.id)).toBe("admin");
  });

  it("the new organisation becomes the active scope: the header names it, its page links to its items, and the header switches back without the user menu", async () => {
    const creator = await createUser(rt, { name: "Sigge Scope" });
    const res = await http.post("/organisations/new", { ...DETAILS, name: "Scope Bolaget AB" }, as(creator));
    const id = /^\/organisations\/([A-Za-z0-9]{10})/.exec(res.headers.get("location") ?? "")![1]!;
    const scopeCookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith("hittad.scope="))
      ?.split(";")[0];
    expect(scopeCookie).toBe(`hittad.scope=${id}`);
    const cookie = { cookie: `${creator.cookie}; ConsentApproved=true; ${scopeCookie}` };
    const page = await (await http.get(`/organisations/${id}?done=created`, cookie)).text();
    // The header's switch shows the organisation as the active account.
    expect(page).toMatch(new RegExp(`<option value="${id}" selected="">Scope Bolaget AB</option>`));
    // Its items: a switch to the organisation that opens its dashboard.
    expect(page).toContain('name="redirectTo" value="/dashboard"');
    expect(page).toContain("Go to the items of Scope Bolaget AB");
    const dashboard = await (await http.get("/dashboard", cookie)).text();
    expect(dashboard).toContain("Scope Bolaget AB");
    // Back to personal from the header's form: the same POST /scope as the menu.
    const back = await http.post("/scope", { scope: "personal", redirectTo: "/dashboard" }, cookie);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/dashboard");
  });

  it("a wrong check digit is a 400 with a translated message and the input kept", async () => {
    const res = await http.post(
      "/organisations/new",
      { ...DETAILS, orgNumber: "556036-0794" },
      { ...as(outsider), lang: "sv" },
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Ange ett giltigt svenskt organisationsnummer");
    expect(html).toContain('value="556036-0794"');
    expect(html).toContain("Acme reception, 090-123 45");
  });

  it("a second organisation with a number another has is a 409 beside the field, offering to ask its admins for an invite", async () => {
    const taken = await rt.database.db
      .selectFrom("organisations")
      .select("orgNumber")
      .where("id", "=", org)
      .executeTakeFirstOrThrow();
    // The same number typed without its dash, in Swedish.
    const res = await http.post(
      "/organisations/new",
      { ...DETAILS, name: "Copy AB", orgNumber: taken.orgNumber.replace("-", "") },
      { ...as(outsider), lang: "sv" },
    );
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("Det finns redan en organisation med det här numret på Hittad.");
    expect(html).toContain("Be någon av dess administratörer att bjuda in dig");
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain("Copy AB");
    expect(
      await rt.database.db.selectFrom("organisations").select("id").where("name", "=", "Copy AB").execute(),
    ).toEqual([]);
    // Another organisation's admin cannot change theirs to it either (en).
    const update = await http.post(
      `/organisations/${otherOrg}`,
      { intent: "details", ...DETAILS, name: "Other Org AB", orgNumber: taken.orgNumber },
      as(otherAdmin),
    );
    expect(update.status).toBe(409);
    expect(await update.text()).toContain("An organisation with this number is already on Hittad.");
  });

  it("signed-out visitors are sent to register first and come back to /organisations/new", async () => {
    const res = await http.get("/organisations/new");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/user/register");
    const remember = res.headers.getSetCookie().find((c) => c.startsWith(`${RETURN_TO_COOKIE}=`));
    expect(remember).toBeDefined();
    const reg = await http.post(
      "/user/register",
      { name: "Rita Registers", email: `rita-${Date.now()}@example.test`, password: "a-long-Secret-123" },
      { cookie: `${remember!.split(";")[0]}; ConsentApproved=true` },
    );
    expect(reg.status).toBe(302);
    expect(reg.headers.get("location")).toBe("/organisations/new");
  });
});

describe("/companies call to action", () => {
  it("signed-in users get 'Create a company account', others sign up first; both lead to /organisations/new", async () => {
    const signedIn = await (await http.get("/companies", as(outsider))).text();
    expect(signedIn).toContain("Create a company account");
    expect(signedIn).toContain('href="/organisations/new"');
    const sv = await (await http.get("/companies", { ...as(outsider), lang: "sv" })).text();
    expect(sv).toContain("Skapa ett företagskonto");
    const anonymous = await (await http.get("/companies")).text();
    expect(anonymous).toContain("Sign up and create a company account");
    expect(anonymous).toContain('href="/organisations/new"');
  });
});

describe("who sees and changes an organisation", () => {
  it("the admin sees members, roles and invites; a member only their own role; outsiders and other organisations get 404", async () => {
    const adminPage = await http.get(`/organisations/${org}`, as(admin));
    expect(adminPage.status).toBe(200);
    const html = await adminPage.text();
    expect(html).toContain(member.email);
    expect(html).toContain('name="intent" value="invite"');

    const memberPage = await http.get(`/organisations/${org}`, as(member));
    expect(memberPage.status).toBe(200);
    const mhtml = await memberPage.text();
    expect(mhtml).toContain("Acme AB");
    expect(mhtml).not.toContain(admin.email);
    expect(mhtml).not.toContain('value="invite"');

    for (const u of [outsider, otherAdmin]) {
      const res = await http.get(`/organisations/${org}`, as(u));
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain(member.email);
    }
  });

  it("members cannot invite, edit, change roles or remove (403); outsiders and other admins get 404; nothing changes", async () => {
    const attempts: Record<string, string>[] = [
      { intent: "invite", email: "friend@example.test", role: "admin" },
      { intent: "details", ...DETAILS, name: "Hijacked AB" },
      { intent: "role", confirmed: "yes", userId: member.id, role: "admin" },
      { intent: "remove", confirmed: "yes", userId: admin.id },
    ];
    for (const body of attempts) {
      expect((await http.post(`/organisations/${org}`, body, as(member))).status).toBe(403);
      expect((await http.post(`/organisations/${org}`, body, as(outsider))).status).toBe(404);
      expect((await http.post(`/organisations/${org}`, body, as(otherAdmin))).status).toBe(404);
    }
    const row = await rt.database.db
      .selectFrom("organisations")
      .select("name")
      .where("id", "=", org)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe("Acme AB");
    expect(await roleOf(org, member.id)).toBe("member");
    expect(await roleOf(org, admin.id)).toBe("admin");
    const invites = await rt.database.db
      .selectFrom("organisation_invites")
      .select("id")
      .where("email", "=", "friend@example.test")
      .execute();
    expect(invites).toEqual([]);
  });

  it("the admin edits the details; bad details are a 400 and change nothing", async () => {
    const bad = await http.post(
      `/organisations/${org}`,
      { intent: "details", ...DETAILS, invoiceCountry: "XX" },
      as(admin),
    );
    expect(bad.status).toBe(400);
    const ok = await http.post(
      `/organisations/${org}`,
      { intent: "details", ...DETAILS, deskContact: "Desk 2" },
      as(admin),
    );
    expect(ok.status).toBe(302);
    const row = await rt.database.db
      .selectFrom("organisations")
      .select(["deskContact", "invoiceCountry"])
      .where("id", "=", org)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ deskContact: "Desk 2", invoiceCountry: "SE" });
  });
});

describe("invites", () => {
  it("'Create an account' from an invite types the invited address in, and registering and the verification link (also one sent again) both come back to the invite, never off-site", async () => {
    const email = `new-invitee-${Date.now()}@example.test`;
    expect((await invite(admin, org, email)).status).toBe(302);
    const { token } = await inviteTokenFor(email);
    const path = `/invite/${token}`;
    const page = await (await http.get(path)).text();
    const href = /href="(\/user\/register\?[^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, "&");
    expect(href).toBe(`/user/register?${new URLSearchParams({ email, next: path })}`);
    const form = await (await http.get(href!)).text();
    expect(form).toContain(`value="${email}"`);
    expect(form).toContain(`name="next" value="${path}"`);

    const registered = await http.post("/user/register", {
      name: "Nina New",
      email,
      password: "a-long-Secret-99",
      next: path,
    });
    expect(registered.status).toBe(302);
    expect(registered.headers.get("location")).toBe(path);
    const cookie = registered.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    // Unverified: the invite asks for the link, and can send it again (coming back here too).
    const waiting = await (await http.get(path, { cookie })).text();
    expect(waiting).toContain("Verify your email address first");
    expect(waiting).toContain(`name="next" value="${path}"`);
    const verifyMails = async () => {
      const rows = await rt.database.db
        .selectFrom("mail_outbox")
        .select("text")
        .where("to", "=", email)
        .orderBy("createdAt", "desc")
        .execute();
      return rows.map((r) => /\/user\/verify-email\?(\S+)/.exec(r.text)?.[1]).filter((q) => q !== undefined);
    };
    const [first] = await verifyMails();
    expect(new URLSearchParams(first).get("next")).toBe(path);
    const resent = await http.post("/user/verify-email", { next: path }, { cookie });
    expect(resent.status).toBe(200);
    const mails = await verifyMails();
    expect(mails).toHaveLength(2);
    const again = new URLSearchParams(mails[0]);
    expect(again.get("next")).toBe(path);

    // A link altered to leave the site verifies but sends nobody off-site.
    for (const evil of ["https://evil.example/x", "//evil.example", "/\\evil.example"]) {
      const res = await http.get(
        `/user/verify-email?token=${encodeURIComponent(again.get("token")!)}&next=${encodeURIComponent(evil)}`,
      );
      expect(res.status, evil).toBeLessThan(400);
      expect(res.headers.get("location") ?? "", evil).not.toContain("evil");
    }
    const verified = await http.get(`/user/verify-email?${again}`, { cookie });
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe(path);
    expect(await (await http.get(path, { cookie })).text()).toContain("Accept the invite");
  });

  it("an invite is mailed in the invitee's language with a link that works once", async () => {
    const invitee = await createUser(rt, { name: "Ivar Invited", language: "sv" });
    expect((await invite(admin, org, invitee.email.toUpperCase(), "admin")).status).toBe(302);
    const { token, mail } = await inviteTokenFor(invitee.email);
    // A consent request (decision 046): the organisation is named on the invite page, not in the mail.
    expect(mail.subject).toBe("Du är inbjuden till en organisation på Hittad");
    expect(mail.text).not.toContain("Acme AB");
    const row = await rt.database.db
      .selectFrom("organisation_invites")
      .selectAll()
      .where("email", "=", invitee.email)
      .executeTakeFirstOrThrow();
    // Only the hash is stored; the invite lasts exactly 7 days.
    expect(row.tokenHash).not.toContain(token);
    expect(Number(row.expiresAt) - Number(row.createdAt)).toBe(7 * 24 * 60 * 60_000);

    const page = await http.get(`/invite/${token}`, as(invitee));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Acme AB");
    const accept = await http.post(`/invite/${token}`, {}, as(invitee));
    expect(accept.status).toBe(302);
    expect(accept.headers.get("location")).toBe(`/organisations/${org}?done=joined`);
    expect(await roleOf(org, invitee.id)).toBe("admin");

    const again = await http.post(`/invite/${token}`, {}, as(invitee));
    expect(again.status).toBe(410);
    expect((await http.get(`/invite/${token}`)).status).toBe(410);
  });

  it("a signed-out invitee is asked to sign in and comes back to the invite", async () => {
    const email = `later-${Date.now()}@example.test`;
    await invite(admin, org, email);
    const { token } = await inviteTokenFor(email);
    const res = await http.get(`/invite/${token}`);
    expect(res.status).toBe(200);
    const remember = res.headers.getSetCookie().find((c) => c.startsWith(`${RETURN_TO_COOKIE}=`));
    expect(decodeURIComponent(remember ?? "")).toContain(`/invite/${token}`);
    expect(await res.text()).toContain('href="/login"');
    expect((await http.post(`/invite/${token}`, {})).headers.get("location")).toBe("/login");
  });

  it("only the verified invited address may accept: another account or an unverified one is refused", async () => {
    const email = `verify-${Date.now()}@example.test`;
    await invite(admin, org, email);
    const { token } = await inviteTokenFor(email);
    const wrong = await http.post(`/invite/${token}`, {}, as(outsider));
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain("This invite was sent to another email address");
    const unverified = await createUser(rt, { email, verified: false });
    const res = await http.post(`/invite/${token}`, {}, as(unverified));
    expect(res.status).toBe(403);
    expect(await roleOf(org, unverified.id)).toBeNull();
    expect(await roleOf(org, outsider.id)).toBeNull();
    await markVerified(rt, email);
    expect((await http.post(`/invite/${token}`, {}, as(unverified))).status).toBe(302);
    expect(await roleOf(org, unverified.id)).toBe("member");
  });

  it("an invite expires after 7 days", async () => {
    const invitee = await createUser(rt, { name: "Elsa Expired" });
    await invite(admin, org, invitee.email);
    const { token } = await inviteTokenFor(invitee.email);
    await rt.database.db
      .updateTable("organisation_invites")
      .set({ expiresAt: Date.now() - 1 })
      .where("email", "=", invitee.email)
      .execute();
    const res = await http.post(`/invite/${token}`, {}, as(invitee));
    expect(res.status).toBe(410);
    expect(await res.text()).toContain("This invite has expired");
    expect(await roleOf(org, invitee.id)).toBeNull();
  });

  it("an admin revokes an invite: its link then finds nothing; members and outsiders cannot revoke", async () => {
    const email = `revoked-${Date.now()}@example.test`;
    await invite(admin, org, email);
    const { token } = await inviteTokenFor(email);
    const { id } = await rt.database.db
      .selectFrom("organisation_invites")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect((await http.post(`/organisations/${org}`, { intent: "revoke", inviteId: id }, as(member))).status).toBe(403);
    expect(
      (await http.post(`/organisations/${otherOrg}`, { intent: "revoke", inviteId: id }, as(otherAdmin))).status,
    ).toBe(404);
    expect((await http.get(`/invite/${token}`)).status).toBe(200);
    expect((await http.post(`/organisations/${org}`, { intent: "revoke", inviteId: id }, as(admin))).status).toBe(302);
    expect((await http.get(`/invite/${token}`)).status).toBe(404);
  });

  it("an admin's invites are rate-limited (no mailer for a stolen session)", async () => {
    const boss = await createUser(rt, { name: "Busy Boss" });
    const id = await createOrganisationWithDpa(depsOf(rt), boss.id, {
      ...DETAILS,
      orgNumber: uniqueOrgNumber(),
      invoiceCountry: "SE",
      vatNumber: null,
    });
    const deps = { ...depsOf(rt), config: { ...rt.config, rateLimitDisabled: false } };
    const send = (i: number) =>
      inviteMember(
        deps,
        { id: boss.id, name: "Busy Boss", emailVerified: true },
        id,
        { email: `bulk-${i}@example.test`, role: "member" },
        "en",
      );
    for (let i = 0; i < INVITE_RULE.limit; i++) await send(i);
    await expect(send(INVITE_RULE.limit)).rejects.toThrowError(OrganisationError);
    await expect(send(INVITE_RULE.limit)).rejects.toMatchObject({ code: "rateLimited" });
  });

  it("inviting someone who is already a member is refused", async () => {
    const res = await invite(admin, org, member.email.toUpperCase());
    expect(res.status).toBe(409);
  });
});

describe("the last admin", () => {
  it("cannot be demoted, removed or leave; once another admin exists they can", async () => {
    const solo = await createUser(rt, { name: "Solo Admin" });
    const colleague = await createUser(rt, { name: "Colleague" });
    const id = await createOrganisationWithDpa(depsOf(rt), solo.id, {
      ...DETAILS,
      orgNumber: uniqueOrgNumber(),
      invoiceCountry: "SE",
      vatNumber: null,
    });
    await addMember(id, colleague, "member");
    const demote = await http.post(
      `/organisations/${id}`,
      { intent: "role", confirmed: "yes", userId: solo.id, role: "member" },
      as(solo),
    );
    expect(demote.status).toBe(409);
    expect(await demote.text()).toContain("at least one admin");
    expect(
      (await http.post(`/organisations/${id}`, { intent: "remove", confirmed: "yes", userId: solo.id }, as(solo)))
        .status,
    ).toBe(409);
    expect((await http.post(`/organisations/${id}`, { intent: "leave", confirmed: "yes" }, as(solo))).status).toBe(409);
    expect(await roleOf(id, solo.id)).toBe("admin");

    expect(
      (
        await http.post(
          `/organisations/${id}`,
          { intent: "role", confirmed: "yes", userId: colleague.id, role: "admin" },
          as(solo),
        )
      ).status,
    ).toBe(302);
    const leave = await http.post(`/organisations/${id}`, { intent: "leave", confirmed: "yes" }, as(solo));
    expect(leave.status).toBe(302);
    expect(await roleOf(id, solo.id)).toBeNull();
    expect(await roleOf(id, colleague.id)).toBe("admin");
  });
});

describe("removing a member", () => {
  it("hands their items back to the organisation; nothing is deleted", async () => {
    const leaver = await createUser(rt, { name: "Lena Leaver" });
    await addMember(org, leaver, "member");
    const item = await createItem(
      depsOf(rt),
      admin.id,
      {
        name: "Company laptop",
        findFee: 500,
        prodType: "laptop",
        contactInfo: "x",
        payment: "year",
        intent: "payLater",
      },
      "en",
    );
    await rt.database.db
      .updateTable("products")
      .set({ organisationId: org, assignedTo: leaver.id })
      .where("id", "=", item)
      .execute();
    expect(
      (await http.post(`/organisations/${org}`, { intent: "remove", confirmed: "yes", userId: leaver.id }, as(admin)))
        .status,
    ).toBe(302);
    expect(await roleOf(org, leaver.id)).toBeNull();
    const row = await rt.database.db
      .selectFrom("products")
      .select(["organisationId", "assignedTo"])
      .where("id", "=", item)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ organisationId: org, assignedTo: null });
  });
});

describe("the scope cookie", () => {
  it("is checked against membership: another organisation's id, a garbage value or a lost membership mean personal", async () => {
    const db = rt.database.db;
    expect(await resolveScope(db, member.id, org)).toEqual({
      kind: "organisation",
      organisationId: org,
      name: "Acme AB",
      role: "member",
    });
    expect(await resolveScope(db, member.id, otherOrg)).toEqual({ kind: "personal" });
    expect(await resolveScope(db, member.id, "personal")).toEqual({ kind: "personal" });
    expect(await resolveScope(db, member.id, "x".repeat(500))).toEqual({ kind: "personal" });
    expect(await resolveScope(db, member.id, undefined)).toEqual({ kind: "personal" });
    const gone = await createUser(rt, { name: "Gone Soon" });
    await addMember(org, gone, "admin");
    expect((await resolveScope(db, gone.id, org)).kind).toBe("organisation");
    await http.post(`/organisations/${org}`, { intent: "remove", confirmed: "yes", userId: gone.id }, as(admin));
    expect(await resolveScope(db, gone.id, org)).toEqual({ kind: "personal" });
  });
});

describe("items in an organisation's scope", () => {
  const inScope = (u: TestUser, scope: string) => ({ cookie: `${as(u).cookie}; hittad.scope=${scope}` });
  const register = (u: TestUser, scope: string, name: string) =>
    http.post(
      "/product/register",
      { name, findFee: "50", prodType: "other", contactInfo: "070-1", payment: "year", intent: "payLater" },
      inScope(u, scope),
    );

  it("an item registered in an organisation's scope is listed there (dashboard and /order), not in the personal scope, and the other way round", async () => {
    const owner = await createUser(rt, { name: "Olle Ordning" });
    await addMember(org, owner, "member");
    expect((await register(owner, org, "Acme laptop 7")).status).toBe(302);
    expect((await register(owner, "personal", "Private bike 7")).status).toBe(302);
    const rows = await rt.database.db
      .selectFrom("products")
      .select(["name", "organisationId", "owner"])
      .where("owner", "=", owner.id)
      .orderBy("name")
      .execute();
    expect(rows).toEqual([
      { name: "Acme laptop 7", organisationId: org, owner: owner.id },
      { name: "Private bike 7", organisationId: null, owner: owner.id },
    ]);
    for (const path of ["/dashboard", "/order"]) {
      const inOrg = await (await http.get(path, inScope(owner, org))).text();
      expect(inOrg, path).toContain("Acme laptop 7");
      expect(inOrg, path).not.toContain("Private bike 7");
      const personal = await (await http.get(path, inScope(owner, "personal"))).text();
      expect(personal, path).toContain("Private bike 7");
      expect(personal, path).not.toContain("Acme laptop 7");
    }
  });

  it("a forged scope cookie registers a personal item and lists personal items only", async () => {
    expect((await register(outsider, org, "Outsider umbrella")).status).toBe(302);
    const row = await rt.database.db
      .selectFrom("products")
      .select("organisationId")
      .where("name", "=", "Outsider umbrella")
      .executeTakeFirstOrThrow();
    expect(row.organisationId).toBeNull();
    const html = await (await http.get("/dashboard", inScope(outsider, org))).text();
    expect(html).toContain("Outsider umbrella");
    expect(html).not.toContain("Acme laptop 7");
  });
});

describe("the account and organisations", () => {
  const details = {
    ...DETAILS,
    invoiceCountry: "SE",
    vatNumber: null,
    // Each organisation its own number (decision 057), as the form would have stored it.
    get orgNumber() {
      return uniqueOrgNumber();
    },
  };
  // Organisations the user is the only member of go knowingly (decision 051).
  const deleteAccount = (u: TestUser) =>
    http.post(
      "/account/delete",
      { intent: "delete", password: u.password, confirm: "on", deleteOrganisations: "on" },
      as(u),
    );
  const exists = async (table: "organisations" | "user", id: string) =>
    !!(await rt.database.db.selectFrom(table).select("id").where("id", "=", id).executeTakeFirst());

  it("the export lists the user's memberships with organisation and role", async () => {
    const res = await http.post("/account/export", {}, as(member));
    expect(res.status).toBe(200);
    const data = JSON.parse(await res.text()) as { organisations: unknown[] };
    expect(data.organisations).toEqual([
      expect.objectContaining({ organisationId: org, organisation: "Acme AB", role: "member" }),
    ]);
  });

  it("the last admin of an organisation with other members cannot delete their account", async () => {
    const boss = await createUser(rt, { name: "Bo Boss" });
    const staff = await createUser(rt, { name: "Stina Staff" });
    const id = await createOrganisationWithDpa(depsOf(rt), boss.id, { ...details, name: "Kept AB" });
    await addMember(id, staff, "member");
    const res = await deleteAccount(boss);
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("You are the only admin of Kept AB");
    expect(await exists("user", boss.id)).toBe(true);
    expect(await roleOf(id, boss.id)).toBe("admin");
  });

  it("the only member's organisation is deleted with the account, with its items", async () => {
    const solo = await createUser(rt, { name: "Sam Solo" });
    const id = await createOrganisationWithDpa(depsOf(rt), solo.id, { ...details, name: "Gone AB" });
    const item = await createItem(
      depsOf(rt),
      solo.id,
      { name: "Solo laptop", findFee: 100, prodType: "laptop", contactInfo: "x", payment: "year", intent: "payLater" },
      "en",
    );
    await rt.database.db.updateTable("products").set({ organisationId: id }).where("id", "=", item).execute();
    expect((await deleteAccount(solo)).status).toBe(302);
    expect(await exists("organisations", id)).toBe(false);
    expect(await rt.database.db.selectFrom("products").select("id").where("id", "=", item).execute()).toEqual([]);
  });

  it("a member who deletes their account leaves the organisation's items with it, owned by an admin", async () => {
    const boss = await createUser(rt, { name: "Britt Boss" });
    const staff = await createUser(rt, { name: "Sven Staff" });
    const id = await createOrganisationWithDpa(depsOf(rt), boss.id, { ...details, name: "Stays AB" });
    await addMember(id, staff, "member");
    const item = await createItem(
      depsOf(rt),
      staff.id,
      { name: "Staff phone", findFee: 100, prodType: "mobile", contactInfo: "x", payment: "year", intent: "payLater" },
      "en",
    );
    await rt.database.db
      .updateTable("products")
      .set({ organisationId: id, assignedTo: staff.id })
      .where("id", "=", item)
      .execute();
    expect((await deleteAccount(staff)).status).toBe(302);
    expect(await exists("user", staff.id)).toBe(false);
    const row = await rt.database.db
      .selectFrom("products")
      .select(["owner", "organisationId", "assignedTo"])
      .where("id", "=", item)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ owner: boss.id, organisationId: id, assignedTo: null });
  });
});

describe("the scope switch", () => {
  const scopeCookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith("hittad.scope="))
      ?.split(";")[0];

  it("sets the cookie only for the user's own organisations, and every page shows the active one", async () => {
    const res = await http.post("/scope", { scope: org, redirectTo: "/account" }, as(member));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/account");
    const chosen = scopeCookieOf(res);
    expect(chosen).toBe(`hittad.scope=${org}`);
    const page = await (await http.get("/account", { cookie: `${as(member).cookie}; ${chosen}` })).text();
    expect(page).toMatch(/scope-badge[^>]*>.*Acme AB/);

    const forged = await http.post("/scope", { scope: otherOrg }, as(member));
    expect(forged.status).toBe(404);
    expect(scopeCookieOf(forged)).toBeUndefined();
    // A cookie set by hand with another organisation's id shows the personal scope.
    const html = await (
      await http.get("/account", { cookie: `${as(member).cookie}; hittad.scope=${otherOrg}` })
    ).text();
    expect(html).not.toContain("Other Org AB");
    expect(html).toMatch(/scope-badge[^>]*>.*Personal/);

    const personal = await http.post("/scope", { scope: "personal", redirectTo: "https://evil.example/" }, as(member));
    expect(personal.headers.get("location")).toBe("/dashboard");
    expect(scopeCookieOf(personal)).toBe("hittad.scope=personal");
  });
});

describe("review fixes (issue #20)", () => {
  const details = {
    ...DETAILS,
    invoiceCountry: "SE",
    vatNumber: null,
    // Each organisation its own number (decision 057), as the form would have stored it.
    get orgNumber() {
      return uniqueOrgNumber();
    },
  };
  const newOrg = (creator: TestUser, name: string) =>
    createOrganisationWithDpa(depsOf(rt), creator.id, { ...details, name });
  const post = (u: TestUser, id: string, form: Record<string, string>) =>
    http.post(`/organisations/${id}`, form, as(u));
  const itemOf = async (owner: TestUser, organisationId: string, name: string) => {
    const id = await createItem(
      depsOf(rt),
      owner.id,
      { name, findFee: 100, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
      "en",
    );
    await rt.database.db.updateTable("products").set({ organisationId }).where("id", "=", id).execute();
    return id;
  };
  const product = (id: string) =>
    rt.database.db
      .selectFrom("products")
      .select(["owner", "organisationId", "assignedTo"])
      .where("id", "=", id)
      .executeTakeFirst();
  const admins = async (organisationId: string) =>
    (
      await rt.database.db
        .selectFrom("organisation_members")
        .select("userId")
        .where("organisationId", "=", organisationId)
        .where("role", "=", "admin")
        .execute()
    ).map((r) => r.userId);
  const pendingInvitesTo = async (email: string) =>
    (await rt.database.db.selectFrom("organisation_invites").select("id").where("email", "=", email).execute()).length;

  it("a removed or departing member's organisation items pass to the longest-standing remaining admin", async () => {
    const first = await createUser(rt, { name: "First Admin" });
    const id = await newOrg(first, "Heir AB");
    const second = await createUser(rt, { name: "Second Admin" });
    const removed = await createUser(rt, { name: "Removed Member" });
    const leaver = await createUser(rt, { name: "Leaving Member" });
    await addMember(id, second, "admin");
    await addMember(id, removed, "member");
    await addMember(id, leaver, "member");
    const removedItem = await itemOf(removed, id, "Removed member's drill");
    const leaverItem = await itemOf(leaver, id, "Leaver's tablet");
    const personal = await createItem(
      depsOf(rt),
      leaver.id,
      {
        name: "Leaver's own bike",
        findFee: 100,
        prodType: "other",
        contactInfo: "x",
        payment: "year",
        intent: "payLater",
      },
      "en",
    );
    expect((await post(second, id, { intent: "remove", confirmed: "yes", userId: removed.id })).status).toBe(302);
    expect((await post(leaver, id, { intent: "leave", confirmed: "yes" })).status).toBe(302);
    expect(await product(removedItem)).toEqual({ owner: first.id, organisationId: id, assignedTo: null });
    expect(await product(leaverItem)).toEqual({ owner: first.id, organisationId: id, assignedTo: null });
    // Their personal items stay theirs.
    expect(await product(personal)).toEqual({ owner: leaver.id, organisationId: null, assignedTo: null });
    // The ex-member can no longer manage the item (sent to their dashboard); the heir can.
    const exMember = await http.get(`/product/edit/${removedItem}`, as(removed));
    expect([exMember.status, exMember.headers.get("location")]).toEqual([302, "/dashboard"]);
    expect((await http.get(`/product/edit/${removedItem}`, as(first))).status).toBe(200);
  });

  it("deleting the last member's account deletes only their items; another owner's item goes back to its owner", async () => {
    const solo = await createUser(rt, { name: "Last Member" });
    const stranger = await createUser(rt, { name: "Other Owner" });
    const id = await newOrg(solo, "Last AB");
    const mine = await itemOf(solo, id, "Last member's laptop");
    const theirs = await itemOf(stranger, id, "Other owner's laptop");
    // The delete page names the organisation and its stickers; it goes only when ticked (decision 051).
    const page = await (await http.get("/account/delete", as(solo))).text();
    expect(page).toContain("You are the only member of Last AB, so it is deleted with your account");
    expect(page).toContain("Last member&#x27;s laptop (sticker ");
    const unticked = await http.post(
      "/account/delete",
      { intent: "delete", password: solo.password, confirm: "on" },
      as(solo),
    );
    expect(unticked.status).toBe(409);
    expect(await product(mine)).toBeDefined();
    const res = await http.post(
      "/account/delete",
      { intent: "delete", password: solo.password, confirm: "on", deleteOrganisations: "on" },
      as(solo),
    );
    expect(res.status).toBe(302);
    expect(await product(mine)).toBeUndefined();
    expect(await product(theirs)).toEqual({ owner: stranger.id, organisationId: null, assignedTo: null });
  });

  it("the last admin holds under a race: two admins demoting each other at once leave one admin", async () => {
    // Several organisations at once, so the two requests of a pair interleave.
    const pairs = await Promise.all(
      [0, 1, 2, 3, 4].map(async (i) => {
        const a = await createUser(rt, { name: `Race Admin A${i}` });
        const b = await createUser(rt, { name: `Race Admin B${i}` });
        const id = await newOrg(a, `Race ${i} AB`);
        await addMember(id, b, "admin");
        return { a, b, id };
      }),
    );
    const results = await Promise.all(
      pairs.map(({ a, b, id }) =>
        Promise.all([
          post(a, id, { intent: "role", userId: b.id, role: "member", confirmed: "yes" }),
          post(b, id, { intent: "role", userId: a.id, role: "member", confirmed: "yes" }),
        ]).then((rs) => rs.map((r) => r.status).sort()),
      ),
    );
    for (const [i, { id }] of pairs.entries()) {
      // The loser is no longer an admin when its turn comes.
      expect(results[i]).toEqual([302, 403]);
      expect(await admins(id)).toHaveLength(1);
    }
  });

  it("the last admin holds under a race: two admins deleting their accounts at once leave one admin", async () => {
    const a = await createUser(rt, { name: "Deleting Admin A" });
    const b = await createUser(rt, { name: "Deleting Admin B" });
    const staff = await createUser(rt, { name: "Staying Member" });
    const id = await newOrg(a, "Race Delete AB");
    await addMember(id, b, "admin");
    await addMember(id, staff, "member");
    const del = (u: TestUser) =>
      http.post("/account/delete", { intent: "delete", password: u.password, confirm: "on" }, as(u));
    const statuses = await Promise.all([del(a), del(b)]).then((rs) => rs.map((r) => r.status).sort());
    expect(statuses).toEqual([302, 409]);
    expect(await admins(id)).toHaveLength(1);
  });

  it("an admin who is demoted, removed or leaves loses the invites they sent; an invite needs its sender to still be admin", async () => {
    const boss = await createUser(rt, { name: "Invite Boss" });
    const id = await newOrg(boss, "Invites AB");
    const sender = await createUser(rt, { name: "Invite Sender" });
    await addMember(id, sender, "admin");
    const stamp = Date.now();
    for (const [i, step] of (
      [
        { intent: "role", confirmed: "yes", userId: sender.id, role: "member" },
        { intent: "remove", confirmed: "yes", userId: sender.id },
        { intent: "leave", confirmed: "yes" },
      ] as Record<string, string>[]
    ).entries()) {
      const email = `authority-${i}-${stamp}@example.test`;
      expect((await invite(sender, id, email)).status).toBe(302);
      expect(await pendingInvitesTo(email)).toBe(1);
      expect((await post(step.intent === "leave" ? sender : boss, id, step)).status).toBe(302);
      expect(await pendingInvitesTo(email), step.intent).toBe(0);
      // Back as admin for the next step.
      if (!(await roleOf(id, sender.id))) await addMember(id, sender, "admin");
      else
        await rt.database.db
          .updateTable("organisation_members")
          .set({ role: "admin" })
          .where("organisationId", "=", id)
          .where("userId", "=", sender.id)
          .execute();
    }
    // The sender stops being admin some other way: the invite no longer works.
    const invitee = await createUser(rt, { name: "Late Invitee" });
    expect((await invite(sender, id, invitee.email)).status).toBe(302);
    const { token } = await inviteTokenFor(invitee.email);
    await rt.database.db
      .updateTable("organisation_members")
      .set({ role: "member" })
      .where("organisationId", "=", id)
      .where("userId", "=", sender.id)
      .execute();
    expect((await http.get(`/invite/${token}`, as(invitee))).status).toBe(404);
    expect((await http.post(`/invite/${token}`, {}, as(invitee))).status).toBe(404);
    expect(await roleOf(id, invitee.id)).toBeNull();
  });

  it("only an admin with a verified email sends invites (403, translated)", async () => {
    const unverified = await createUser(rt, { name: "Unverified Admin", verified: false });
    const id = await newOrg(unverified, "Unverified AB");
    const email = `unverified-inviter-${Date.now()}@example.test`;
    const res = await http.post(
      `/organisations/${id}`,
      { intent: "invite", email, role: "member" },
      {
        ...as(unverified),
        lang: "sv",
      },
    );
    expect(res.status).toBe(403);
    const html = await res.text();
    expect(html).toContain("Bekräfta din e-postadress innan du bjuder in någon");
    expect(html).toContain(email);
    expect(await pendingInvitesTo(email)).toBe(0);
  });

  it("a second open invite to the same address in the same organisation is refused (409) until the first is withdrawn", async () => {
    const email = `twice-${Date.now()}@example.test`;
    expect((await invite(admin, org, email)).status).toBe(302);
    const again = await invite(admin, org, email.toUpperCase());
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already has an open invite");
    expect(await pendingInvitesTo(email)).toBe(1);
    const { id } = await rt.database.db
      .selectFrom("organisation_invites")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect((await post(admin, org, { intent: "revoke", inviteId: id })).status).toBe(302);
    expect((await invite(admin, org, email)).status).toBe(302);
  });

  it("an address gets at most two invite mails a day, across organisations (decision 046)", async () => {
    const boss = await createUser(rt, { name: "Many Orgs Boss" });
    const deps = { ...depsOf(rt), config: { ...rt.config, rateLimitDisabled: false } };
    const email = `flooded-${Date.now()}@example.test`;
    const send = async (i: number) =>
      inviteMember(
        deps,
        { id: boss.id, name: "Many Orgs Boss", emailVerified: true },
        await newOrg(boss, `Flood ${i} AB`),
        { email, role: "member" },
        "en",
      );
    for (let i = 0; i < RECIPIENT_DAY_LIMIT; i++) await send(i);
    await expect(send(RECIPIENT_DAY_LIMIT)).rejects.toMatchObject({ code: "recipient.busyToday" });
    expect(await pendingInvitesTo(email)).toBe(RECIPIENT_DAY_LIMIT);
  });

  it("invites of one person accepted at once make one membership, no error", async () => {
    const invitee = await createUser(rt, { name: "Double Invitee" });
    const boss = await createUser(rt, { name: "Double Boss" });
    const id = await newOrg(boss, "Double AB");
    const now = Date.now();
    const tokens = ["a", "b", "c", "d", "e", "f"].map((c) => c.repeat(43));
    for (const token of tokens) {
      await rt.database.db
        .insertInto("organisation_invites")
        .values({
          id: `double-${token[0]}-${now}`,
          organisationId: id,
          email: invitee.email,
          role: "member",
          tokenHash: hashInviteToken(token),
          invitedBy: boss.id,
          createdAt: now,
          expiresAt: now + 60_000,
          acceptedAt: null,
          acceptedBy: null,
        })
        .execute();
    }
    // Straight to the service, so the acceptances overlap in the database (the pool's connections).
    const actor = { id: invitee.id, email: invitee.email, emailVerified: true };
    const joined = await Promise.all(tokens.map((t) => acceptInvite(depsOf(rt), actor, t)));
    expect(joined).toEqual(tokens.map(() => id));
    expect(await roleOf(id, invitee.id)).toBe("member");
    // And over HTTP an accepted invite's page answers "used", not an error.
    expect((await http.post(`/invite/${tokens[0]}`, {}, as(invitee))).status).toBe(410);
  });
});

describe("confirming member changes (issue #20 review)", () => {
  it("removing, leaving and changing a role take a confirming second POST; the first changes nothing", async () => {
    const boss = await createUser(rt, { name: "Careful Boss" });
    const staff = await createUser(rt, { name: "Careful Staff" });
    const id = await createOrganisationWithDpa(depsOf(rt), boss.id, {
      ...DETAILS,
      name: "Careful AB",
      orgNumber: uniqueOrgNumber(),
      invoiceCountry: "SE",
      vatNumber: null,
    });
    await addMember(id, staff, "member");
    const ask = async (u: TestUser, form: Record<string, string>, text: string) => {
      const res = await http.post(`/organisations/${id}`, form, { ...as(u), lang: "sv" });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(text);
      expect(html).toContain('name="confirmed" value="yes"');
    };
    await ask(boss, { intent: "remove", userId: staff.id }, "Vill du ta bort Careful Staff från organisationen?");
    await ask(
      boss,
      { intent: "role", userId: staff.id, role: "admin" },
      "Vill du ändra rollen för Careful Staff till administratör?",
    );
    await ask(staff, { intent: "leave" }, "Vill du lämna Careful AB?");
    expect(await roleOf(id, staff.id)).toBe("member");
    const remove = { intent: "remove", userId: staff.id, confirmed: "yes" };
    expect((await http.post(`/organisations/${id}`, remove, as(boss))).status).toBe(302);
    expect(await roleOf(id, staff.id)).toBeNull();
  });
});

describe("pages offer only what the user may do (issue #20 review)", () => {
  it("the dashboard shows CSV import/export in the personal scope and to admins, not to members in an organisation's scope", async () => {
    const inScope = (u: TestUser, scope: string) => ({ cookie: `${as(u).cookie}; hittad.scope=${scope}` });
    const csvLink = 'href="/dashboard/import"';
    expect(await (await http.get("/dashboard", inScope(member, org))).text()).not.toContain(csvLink);
    expect(await (await http.get("/dashboard", inScope(member, "personal"))).text()).toContain(csvLink);
    expect(await (await http.get("/dashboard", inScope(admin, org))).text()).toContain(csvLink);
  });

  it("a user signed in with another email sees which address the invite is for and a sign-out link, no Accept button", async () => {
    const email = `other-address-${Date.now()}@example.test`;
    await invite(admin, org, email);
    const { token } = await inviteTokenFor(email);
    const html = await (await http.get(`/invite/${token}`, as(outsider))).text();
    expect(html).toContain(`but this invite is for ${email}`);
    expect(html).toContain('href="/logout"');
    expect(html).not.toContain("Accept the invite");
  });
});

describe("an admin whose email is not verified", () => {
  it("is offered no webhook form and refused an endpoint with a translated 403, nothing stored: Hittad posts to no stranger's server for them", async () => {
    const newcomer = await createUser(rt, { name: "Nils Newcomer", verified: false });
    const own = await createOrganisationWithDpa(depsOf(rt), newcomer.id, {
      ...DETAILS,
      orgNumber: uniqueOrgNumber(),
      invoiceCountry: "SE",
      vatNumber: null,
    });
    const page = await http.get(`/organisations/${own}/webhooks`, { ...as(newcomer), lang: "sv" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Bekräfta din e-postadress för att lägga till mottagare");
    expect(html).not.toContain('value="add"');
    const url = "https://hooks.stranger.example/collect";
    const res = await http.post(
      `/organisations/${own}/webhooks`,
      { intent: "add", url, events: "item.scanned" },
      { ...as(newcomer), lang: "sv" },
    );
    expect(res.status).toBe(403);
    const refused = await res.text();
    expect(refused).toContain("Bekräfta din e-postadress först");
    const stored = await rt.database.db
      .selectFrom("webhook_endpoints")
      .select("id")
      .where("organisationId", "=", own)
      .execute();
    expect(stored).toEqual([]);
  });
});
