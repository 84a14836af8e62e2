/**
 * Account self-service and privacy rights (decision 017) over HTTP against the production
 * server and a real database (SQLite, or PostgreSQL with DATABASE_URL), with the Stripe
 * stand-in as payment provider: profile, email and password changes, sign-in methods,
 * sessions, "Download my data" and "Delete my account".
 */
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createItem } from "../../app/server/items/items.service.server";
import { enqueueMail } from "../../app/server/mail/mail.server";
import { createOrganisation, removeMember } from "../../app/server/organisations/organisations.service.server";
import { insertMember } from "../../app/server/organisations/organisations.repository.server";
import { solveAltcha } from "../support/altcha";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient, sessionCookieOf } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { checkoutCompleted, startStripeStandIn, stripeEnv, type StripeStandIn } from "../support/stripe";
import { createUser, signIn, type TestUser } from "../support/users";
import { uniqueOrgNumber } from "../support/org-numbers";

const label = usingPostgres() ? "PostgreSQL" : "SQLite";

const ADDRESS = {
  firstname: "Anna",
  lastname: "Svensson",
  email: "anna.account@example.test",
  co: "",
  address: "Storgatan 1",
  address2: "",
  city: "Uppsala",
  state: "",
  zip: "753 20",
  country: "Sweden",
};

describe(`account self-service on ${label}`, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  let stripe: StripeStandIn;
  const { get, post, postJson } = httpClient(() => server.url);

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    db = await createTestDatabase("account_test");
    const env = testEnv(db, {
      ...stripeEnv(stripe),
    });
    server = await startServer(env);
    rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  });
  // A refusal test may leave failures unused (retries differ); never into the next test.
  afterEach(() => stripe.clearFailures());
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
    await stripe?.close();
  });

  const userRow = (id: string) => rt.database.db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
  const sessionsOf = (id: string) =>
    rt.database.db.selectFrom("session").selectAll().where("userId", "=", id).execute();
  const accountsOf = (id: string) =>
    rt.database.db.selectFrom("account").selectAll().where("userId", "=", id).execute();
  const mailsTo = (to: string) =>
    rt.database.db.selectFrom("mail_outbox").selectAll().where("to", "=", to).orderBy("createdAt").execute();

  const newItem = (owner: TestUser, name = "Black phone") =>
    createItem(
      depsOf(rt),
      owner.id,
      { name, findFee: 100, prodType: "mobile", contactInfo: "Call 070-123", payment: "year", intent: "payLater" },
      "en",
    );

  /** A session's sign-in time moved back (better-auth stores dates as text on SQLite). */
  async function ageSessions(userId: string, minutes: number) {
    const at = new Date(Date.now() - minutes * 60_000);
    await rt.database.db
      .updateTable("session")
      .set({ createdAt: usingPostgres() ? at : at.toISOString() })
      .where("userId", "=", userId)
      .execute();
  }

  /** A user whose only sign-in is a (stand-in) Google account, with a session. */
  async function socialOnlyUser(): Promise<TestUser> {
    const u = await createUser(rt);
    const ctx = await rt.auth.$context;
    await ctx.internalAdapter.linkAccount({ userId: u.id, providerId: "google", accountId: `g-${u.id}` });
    await rt.database.db
      .deleteFrom("account")
      .where("userId", "=", u.id)
      .where("providerId", "=", "credential")
      .execute();
    return u;
  }

  /** A paid, renewing Stripe order for the user's items (checkout, then the signed webhook). */
  async function paidOrder(owner: TestUser, items: string[]) {
    await keepOrderAddress(depsOf(rt), owner.id, { ...ADDRESS, email: owner.email }, false);
    const res = await post(
      "/order",
      [["immediateStart", "yes"], ...items.map((id): [string, string] => ["items", id]), ["payment", "year"]],
      {
        cookie: owner.cookie,
      },
    );
    expect(res.status).toBe(302);
    const order = await rt.database.db
      .selectFrom("orders")
      .selectAll()
      .where("userId", "=", owner.id)
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    const event = checkoutCompleted(order.id, {
      amount_total: order.totalAmount,
      currency: order.currency.toLowerCase(),
    });
    const hook = await fetch(`${server.url}/api/stripe/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature },
      body: event.payload,
    });
    expect(hook.status).toBe(200);
    return rt.database.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
  }

  it("/account is for signed-in users and shows only the user's own account", async () => {
    expect((await get("/account")).headers.get("location")).toBe("/login");
    const a = await createUser(rt, { name: "Alva Account" });
    const b = await createUser(rt, { name: "Bertil Other" });
    const res = await get("/account", { cookie: a.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const html = await res.text();
    expect(html).toContain("Alva Account");
    expect(html).toContain(a.email);
    expect(html).toContain("This device");
    expect(html).not.toContain(b.email);
    const sv = await (await get("/account", { cookie: a.cookie, lang: "sv" })).text();
    expect(sv).toContain("Där du är inloggad");
  });

  it("saves the name and the language (the pages and mails follow it); a blank name is refused and nothing saved", async () => {
    const u = await createUser(rt, { name: "Old Name" });
    const bad = await post("/account", { intent: "profile", name: "  ", language: "sv" }, { cookie: u.cookie });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter your name.");
    expect(await userRow(u.id)).toMatchObject({ name: "Old Name", language: "en" });

    const res = await post("/account", { intent: "profile", name: "New Name", language: "sv" }, { cookie: u.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/account?done=profile");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("lang=sv"))).toBe(true);
    expect(await userRow(u.id)).toMatchObject({ name: "New Name", language: "sv" });
    // The next mail (a reset link) is in Swedish.
    expect((await post("/resetpassword", { email: u.email })).status).toBeLessThan(400);
    const [mail] = (await mailsTo(u.email)).slice(-1);
    expect(mail!.subject).toMatch(/lösenord/i);
  });

  it("email change: the link goes to the new address, the old one is told, and opening it changes the email", async () => {
    const u = await createUser(rt, { name: "Mover" });
    const newEmail = `moved-${u.id.slice(0, 6).toLowerCase()}@example.test`;
    const same = await post("/account", { intent: "email", email: u.email }, { cookie: u.cookie });
    expect(same.status).toBe(400);
    const bad = await post("/account", { intent: "email", email: "not-an-email" }, { cookie: u.cookie });
    expect(bad.status).toBe(400);

    const res = await post("/account", { intent: "email", email: newEmail }, { cookie: u.cookie });
    expect(res.headers.get("location")).toBe("/account?done=emailSent");
    expect((await userRow(u.id))!.email).toBe(u.email);
    const [confirm] = await mailsTo(newEmail);
    const link = /\/user\/verify-email\?token=([\w.-]+)/.exec(confirm!.text);
    expect(link).not.toBeNull();
    const [notice] = await mailsTo(u.email);
    expect(notice!.subject).toBe("Your Hittad email address is being changed");
    expect(notice!.text).toContain(newEmail);

    const opened = await get(`/user/verify-email?token=${link![1]}`, { cookie: u.cookie });
    expect(opened.status).toBe(200);
    expect(await userRow(u.id)).toMatchObject({ email: newEmail });
    expect(Boolean((await userRow(u.id))!.emailVerified)).toBe(true);
    // The new address signs in.
    await expect(signIn(rt, newEmail, u.password)).resolves.toMatchObject({ id: u.id });
  });

  it("an email change to an address another account has sends nothing and changes nothing (no enumeration)", async () => {
    const u = await createUser(rt);
    const taken = await createUser(rt);
    const before = (await mailsTo(taken.email)).length;
    const res = await post("/account", { intent: "email", email: taken.email }, { cookie: u.cookie });
    expect(res.headers.get("location")).toBe("/account?done=emailSent");
    expect((await mailsTo(taken.email)).length).toBe(before);
    expect((await userRow(u.id))!.email).toBe(u.email);
  });

  it("password change needs the current password and signs out every other session", async () => {
    const u = await createUser(rt);
    const other = await signIn(rt, u.email, u.password);
    const wrong = await post(
      "/account",
      { intent: "password", currentPassword: "not-my-password", newPassword: "a-brand-new-secret-42" },
      { cookie: u.cookie },
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("The password is not correct.");
    expect((await get("/account", { cookie: other.cookie })).status).toBe(200);
    const weak = await post(
      "/account",
      { intent: "password", currentPassword: u.password, newPassword: "password123" },
      { cookie: u.cookie },
    );
    expect(weak.status).toBe(400);

    const res = await post(
      "/account",
      { intent: "password", currentPassword: u.password, newPassword: "a-brand-new-secret-42" },
      { cookie: u.cookie },
    );
    expect(res.headers.get("location")).toBe("/account?done=password");
    const fresh = sessionCookieOf(res);
    expect(fresh).toBeDefined();
    expect((await get("/account", { cookie: fresh! })).status).toBe(200);
    expect((await get("/account", { cookie: other.cookie })).headers.get("location")).toBe("/login");
    expect((await sessionsOf(u.id)).length).toBe(1);
    await expect(signIn(rt, u.email, u.password)).rejects.toThrow();
    await expect(signIn(rt, u.email, "a-brand-new-secret-42")).resolves.toMatchObject({ id: u.id });
  });

  it("'sign out of all other devices' ends every other session and keeps this one", async () => {
    const u = await createUser(rt);
    const phone = await signIn(rt, u.email, u.password);
    const laptop = await signIn(rt, u.email, u.password);
    const res = await post("/account", { intent: "signOutOthers" }, { cookie: u.cookie });
    expect(res.headers.get("location")).toBe("/account?done=signedOutOthers");
    expect((await get("/account", { cookie: u.cookie })).status).toBe(200);
    for (const s of [phone, laptop]) expect((await get("/account", { cookie: s.cookie })).status).toBe(302);
    expect((await sessionsOf(u.id)).length).toBe(1);
  });

  it("the last sign-in method cannot be removed; a social-only account can set a password, then unlink", async () => {
    const u = await socialOnlyUser();
    const [google] = await accountsOf(u.id);
    const refused = await post("/account", { intent: "unlink", accountId: google!.id }, { cookie: u.cookie });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("This is your only way to sign in");
    expect(await accountsOf(u.id)).toHaveLength(1);

    const page = await (await get("/account", { cookie: u.cookie })).text();
    expect(page).toContain("Set a password");
    const set = await post(
      "/account",
      { intent: "setPassword", newPassword: "social-now-has-pw-9" },
      { cookie: u.cookie },
    );
    expect(set.headers.get("location")).toBe("/account?done=passwordSet");
    const again = await post(
      "/account",
      { intent: "setPassword", newPassword: "another-pw-123456" },
      { cookie: u.cookie },
    );
    expect(again.status).toBe(409);

    const unlinked = await post("/account", { intent: "unlink", accountId: google!.id }, { cookie: u.cookie });
    expect(unlinked.headers.get("location")).toBe("/account?done=unlinked");
    const left = await accountsOf(u.id);
    expect(left.map((a) => a.providerId)).toEqual(["credential"]);
    // The password is not removable here, and now the only method.
    const pw = await post("/account", { intent: "unlink", accountId: left[0]!.id }, { cookie: u.cookie });
    expect(pw.status).toBe(404);
    expect(await accountsOf(u.id)).toHaveLength(1);
  });

  it("unlinking needs a recent sign-in", async () => {
    const u = await createUser(rt);
    const ctx = await rt.auth.$context;
    await ctx.internalAdapter.linkAccount({ userId: u.id, providerId: "google", accountId: `g2-${u.id}` });
    await ageSessions(u.id, 60);
    const google = (await accountsOf(u.id)).find((a) => a.providerId === "google")!;
    const res = await post("/account", { intent: "unlink", accountId: google.id }, { cookie: u.cookie });
    expect(res.status).toBe(403);
    expect(await accountsOf(u.id)).toHaveLength(2);
  });

  it("another user's session cannot unlink, export or delete someone else's data", async () => {
    const victim = await createUser(rt);
    const ctx = await rt.auth.$context;
    await ctx.internalAdapter.linkAccount({ userId: victim.id, providerId: "google", accountId: `g3-${victim.id}` });
    const item = await newItem(victim, "Victim's bike");
    const attacker = await createUser(rt);
    const google = (await accountsOf(victim.id)).find((a) => a.providerId === "google")!;
    const res = await post("/account", { intent: "unlink", accountId: google.id }, { cookie: attacker.cookie });
    expect(res.status).toBe(404);
    expect(await accountsOf(victim.id)).toHaveLength(2);

    const exp = await post("/account/export", {}, { cookie: attacker.cookie });
    const body = await exp.text();
    expect(body).not.toContain(victim.email);
    expect(body).not.toContain(item);

    // Deleting is always the session's own account: the victim's stays whatever is posted.
    const del = await post(
      "/account/delete",
      { intent: "delete", password: victim.password, confirm: "on", userId: victim.id },
      { cookie: attacker.cookie },
    );
    expect(del.status).toBe(400);
    expect(await userRow(victim.id)).toBeDefined();
    expect(await userRow(attacker.id)).toBeDefined();
  });

  it("state changes from a foreign origin are refused", async () => {
    const u = await createUser(rt, { name: "Origin Test" });
    const res = await post(
      "/account",
      { intent: "profile", name: "Hacked", language: "sv" },
      { cookie: u.cookie, origin: "https://evil.example" },
    );
    expect(res.status).toBe(403);
    expect((await userRow(u.id))!.name).toBe("Origin Test");
    const del = await post(
      "/account/delete",
      { intent: "delete", password: u.password, confirm: "on" },
      { cookie: u.cookie, origin: "https://evil.example" },
    );
    expect(del.status).toBe(403);
    expect(await userRow(u.id)).toBeDefined();
  });

  it("export: one JSON attachment with the user's data and no secrets; rate-limited", async () => {
    const u = await createUser(rt, { name: "Exporter" });
    const other = await createUser(rt, { name: "Someone Else" });
    const mine = await newItem(u, "My laptop");
    const theirs = await newItem(other, "Their laptop");
    await keepOrderAddress(depsOf(rt), u.id, { ...ADDRESS, email: u.email }, false);
    const res = await post("/account/export", {}, { cookie: u.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="hittad-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const text = await res.text();
    const data = JSON.parse(text) as Record<string, unknown>;
    expect(data.profile).toMatchObject({ id: u.id, name: "Exporter", email: u.email, language: "en" });
    expect(data.items).toEqual([expect.objectContaining({ id: mine, name: "My laptop", contactInfo: "Call 070-123" })]);
    expect(data.addresses).toMatchObject({ nextOrder: { address: { city: "Uppsala" } } });
    expect(data.signInMethods).toEqual([expect.objectContaining({ provider: "credential" })]);
    expect((data.sessions as unknown[]).length).toBeGreaterThan(0);
    expect(data.consent).toEqual({ cookiesAccepted: false });
    for (const key of ["orders", "stickerShipments", "supportMessages", "mails"]) expect(data).toHaveProperty(key);
    // No other user's data, no secrets.
    expect(text).not.toContain(theirs);
    expect(text).not.toContain(other.email);
    const token = u.sessionCookie.value.split(".")[0]!;
    expect(text).not.toContain(token);
    expect(text).not.toMatch(/"(password|token|accessToken|refreshToken|idToken)"/);
    const hash = (await accountsOf(u.id))[0]!.password!;
    expect(text).not.toContain(hash);

    for (let i = 0; i < 4; i++) expect((await post("/account/export", {}, { cookie: u.cookie })).status).toBe(200);
    const limited = await post("/account/export", {}, { cookie: u.cookie, lang: "sv" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.text()).toContain("Du har laddat ner dina uppgifter flera gånger nyss");
    expect((await post("/account/export", {}, { origin: null })).headers.get("location")).toBe("/login");
  });

  /** A support message sent signed out from `email`, a staff reply to it, and a mail to the address. */
  async function supportTrail(email: string, tag: string) {
    const id = `msg-${tag}-${Date.now()}`;
    await rt.database.db
      .insertInto("contact_messages")
      .values({
        id,
        name: "Vera Victim",
        email,
        message: `Support question ${tag}`,
        lang: "en",
        createdAt: Date.now(),
        readAt: null,
        handledAt: null,
        handledBy: null,
      })
      .execute();
    await rt.database.db
      .insertInto("contact_replies")
      .values({
        id: `reply-${id}`,
        messageId: id,
        text: `Staff reply ${tag}`,
        authorEmail: "staff@example.test",
        mailId: "none",
        createdAt: Date.now(),
      })
      .execute();
    await enqueueMail(rt.database.db, { to: email, subject: `Mail subject ${tag}`, text: "..." }, rt.clock());
    return id;
  }
  const stillThere = async (messageId: string, email: string, tag: string) => {
    const db = rt.database.db;
    expect(await db.selectFrom("contact_messages").select("id").where("id", "=", messageId).execute()).toHaveLength(1);
    expect(
      await db.selectFrom("contact_replies").select("id").where("messageId", "=", messageId).execute(),
    ).toHaveLength(1);
    const mails = await db.selectFrom("mail_outbox").select("subject").where("to", "=", email).execute();
    expect(mails.map((m) => m.subject)).toContain(`Mail subject ${tag}`);
  };

  it("records kept by address (support messages and their replies, the mail log) are not an unverified account's: not in its export, not erased with it (issue #29 point 2)", async () => {
    const email = `vera-${Date.now()}@example.test`;
    const messageId = await supportTrail(email, "before-signup");
    // Someone else registers the address; signing in needs no verification.
    const u = await createUser(rt, { name: "Mallory", email, verified: false });
    const text = await (await post("/account/export", {}, { cookie: u.cookie })).text();
    const data = JSON.parse(text) as Record<string, unknown>;
    expect(data.supportMessages).toEqual([]);
    expect(data.mails).toEqual([]);
    for (const secret of ["Support question before-signup", "Staff reply before-signup", "Mail subject before-signup"])
      expect(text).not.toContain(secret);

    const del = await post(
      "/account/delete",
      { intent: "delete", password: u.password, confirm: "on" },
      { cookie: u.cookie },
    );
    expect(del.status).toBe(302);
    expect(await userRow(u.id)).toBeUndefined();
    // The staff inbox keeps the real sender's message and reply; the mail log its mail.
    await stillThere(messageId, email, "before-signup");
  });

  it("a message sent while signed in is the account's by its user id, whatever address was typed; the verified holder of an address owns what was sent signed out from it", async () => {
    const u = await createUser(rt, { name: "Signed In Sender", verified: false });
    const typed = `typed-${Date.now()}@example.test`;
    const sent = await postJson(
      "/api/contact",
      { name: "", email: typed, message: "Sent while signed in", captchaToken: await solveAltcha(server.url) },
      { cookie: u.cookie },
    );
    expect(sent.status).toBe(201);
    const row = await rt.database.db
      .selectFrom("contact_messages")
      .select(["userId", "email"])
      .where("message", "=", "Sent while signed in")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ userId: u.id, email: typed });
    const own = JSON.parse(await (await post("/account/export", {}, { cookie: u.cookie })).text()) as {
      supportMessages: Array<{ message: string }>;
    };
    expect(own.supportMessages.map((m) => m.message)).toEqual(["Sent while signed in"]);

    // A verified account owns what was sent signed out from its address, and its mail log.
    const v = await createUser(rt, { name: "Verified Holder" });
    const messageId = await supportTrail(v.email, "verified");
    const text = await (await post("/account/export", {}, { cookie: v.cookie })).text();
    for (const s of ["Support question verified", "Staff reply verified", "Mail subject verified"])
      expect(text).toContain(s);
    // The address typed by the signed-in sender is not the verified holder's message.
    expect(text).not.toContain("Sent while signed in");
    expect(
      (await post("/account/delete", { intent: "delete", password: v.password, confirm: "on" }, { cookie: v.cookie }))
        .status,
    ).toBe(302);
    expect(
      await rt.database.db.selectFrom("contact_messages").select("id").where("id", "=", messageId).execute(),
    ).toEqual([]);

    // Erasing the signed-in sender erases their message, linked by id.
    expect(
      (await post("/account/delete", { intent: "delete", password: u.password, confirm: "on" }, { cookie: u.cookie }))
        .status,
    ).toBe(302);
    expect(
      await rt.database.db.selectFrom("contact_messages").select("id").where("userId", "=", u.id).execute(),
    ).toEqual([]);
  });

  it("the personal export holds personal items only: an organisation's items the user registered are the organisation's (issue #29 point 5)", async () => {
    const admin = await createUser(rt, { name: "Org Admin" });
    const member = await createUser(rt, { name: "Org Member" });
    const deps = depsOf(rt);
    const org = await createOrganisation(deps, admin.id, {
      name: "Export AB",
      orgNumber: uniqueOrgNumber(),
      billingEmail: "billing@export.example",
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "90326",
      invoiceCity: "Umeå",
      invoiceCountry: "SE",
      vatNumber: null,
      deskContact: "Reception",
    });
    await insertMember(rt.database.db, {
      organisationId: org,
      userId: member.id,
      role: "member",
      createdAt: Date.now(),
    });
    const item = { findFee: 100, prodType: "laptop" as const, payment: "year" as const, intent: "payLater" as const };
    const orgItem = await createItem(
      deps,
      member.id,
      { ...item, name: "Fleet laptop", contactInfo: "Org contact SECRET" },
      "en",
      org,
    );
    const mine = await newItem(member, "My own phone");
    const whileMember = await (await post("/account/export", {}, { cookie: member.cookie })).text();
    expect(whileMember).toContain(mine);
    expect(whileMember).not.toContain(orgItem);
    expect(whileMember).not.toContain("Org contact SECRET");
    await removeMember(deps, admin.id, org, member.id);
    const after = await (await post("/account/export", {}, { cookie: member.cookie })).text();
    expect(after).not.toContain(orgItem);
    expect(after).not.toContain("Fleet laptop");
    // The organisation's CSV export has it.
    const csv = await (await get("/dashboard/export.csv", { cookie: `${admin.cookie}; hittad.scope=${org}` })).text();
    expect(csv).toContain("Fleet laptop");
  });

  it("a deactivated sticker shows finders 'This sticker is not active' and no contact info, at once; reactivating restores it; only the owner can", async () => {
    const u = await createUser(rt);
    const stranger = await createUser(rt);
    const id = await newItem(u, "Blue backpack");
    await rt.database.db
      .updateTable("products")
      .set({ payed: 1, paidUntil: Date.parse("2099-01-01T00:00:00Z") })
      .where("id", "=", id)
      .execute();
    // Served, and kept in the finder-page cache.
    for (let i = 0; i < 2; i++) expect(await (await get(`/${id}`)).text()).toContain("Call 070-123");

    const foreign = await post("/dashboard", { intent: "deactivate", itemId: id }, { cookie: stranger.cookie });
    expect(foreign.status).toBe(404);
    expect(await (await get(`/product/${id}`)).text()).toContain("Call 070-123");

    const off = await post("/dashboard", { intent: "deactivate", itemId: id }, { cookie: u.cookie, lang: "sv" });
    expect(off.status).toBe(200);
    expect(await off.text()).toContain("Klistermärket är avstängt");
    for (const path of [`/product/${id}`, `/${id}`]) {
      const page = await (await get(path, { lang: "sv" })).text();
      expect(page).toContain("Det här klistermärket är inte aktivt");
      expect(page).not.toContain("Call 070-123");
      expect(page).not.toContain("Blue backpack");
    }
    const en = await (await get(`/product/${id}`)).text();
    expect(en).toContain("This sticker is not active");
    // The owner still sees the item, with a note.
    const own = await (await get(`/product/${id}`, { cookie: u.cookie })).text();
    expect(own).toContain("Call 070-123");
    expect(own).toContain("This sticker is switched off");

    const on = await post("/dashboard", { intent: "reactivate", itemId: id }, { cookie: u.cookie });
    expect(on.status).toBe(200);
    expect(await (await get(`/${id}`)).text()).toContain("Call 070-123");
    const bad = await post("/dashboard", { intent: "deactivate", itemId: "../etc" }, { cookie: u.cookie });
    expect(bad.status).toBe(404);
  });

  it("delete: needs the password and the tick; wrong ones delete nothing", async () => {
    const u = await createUser(rt);
    const item = await newItem(u);
    const noTick = await post("/account/delete", { intent: "delete", password: u.password }, { cookie: u.cookie });
    expect(noTick.status).toBe(400);
    const noPw = await post("/account/delete", { intent: "delete", confirm: "on" }, { cookie: u.cookie });
    expect(noPw.status).toBe(400);
    expect(await noPw.text()).toContain("Please enter your password to delete your account.");
    const wrong = await post(
      "/account/delete",
      { intent: "delete", password: "wrong-password-1", confirm: "on" },
      { cookie: u.cookie },
    );
    expect(wrong.status).toBe(400);
    expect(await userRow(u.id)).toBeDefined();
    expect((await get(`/product/${item}`, { cookie: u.cookie })).status).toBe(200);
  });

  it("delete: cancels the subscription at Stripe, deletes items (pages 404, cache forgotten), sessions and address, anonymises orders keeping totals, mails a confirmation, ends on / signed out", async () => {
    const u = await createUser(rt, { name: "Leaving User", language: "sv" });
    const items = [await newItem(u, "Phone"), await newItem(u, "Keys")];
    const order = await paidOrder(u, items);
    expect(order.status).toBe("paid");
    const other = await signIn(rt, u.email, u.password);
    // The anonymous finder page is served (and cached) while the item is paid.
    for (let i = 0; i < 2; i++) expect((await get(`/product/${items[0]}`)).status).toBe(200);
    await rt.database.db
      .insertInto("contact_messages")
      .values({
        id: `msg-${u.id}`,
        name: "Leaving User",
        email: u.email,
        message: "Hello",
        lang: "sv",
        createdAt: Date.now(),
        readAt: null,
        handledAt: null,
        handledBy: null,
      })
      .execute();

    const page = await (await get("/account/delete", { cookie: u.cookie, lang: "sv" })).text();
    expect(page).toContain("bokföringslagen");
    // The real end per order: a year paid up front, its paid time lost with the items.
    expect(page).toContain("Årsprenumeration för 2 saker: betald till den");
    expect(page).toContain("den betalda tiden fram till dess går förlorad");
    expect(page).not.toContain("minsta bindningstid");
    // Paid today: the withdrawal and its refund are offered first (decision 051).
    expect(page).toContain(`href="/order/${order.id}/withdraw"`);
    expect(page).toContain("Ångra köpet och få tillbaka");

    const before = stripe.requests.length;
    // Without giving up the refund, nothing is deleted.
    const refused = await post(
      "/account/delete",
      { intent: "delete", password: u.password, confirm: "on" },
      { cookie: u.cookie, lang: "sv" },
    );
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("kryssa i att du avstår från återbetalningen");
    expect(await userRow(u.id)).toBeDefined();
    const res = await post(
      "/account/delete",
      { intent: "delete", password: u.password, confirm: "on", forfeitRefunds: "on" },
      { cookie: u.cookie, lang: "sv" },
    );
    if (res.status !== 302) console.log(server.logs());
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => /session_token=;/.test(c) || /session_token=.*Max-Age=0/i.test(c))).toBe(true);
    const flash = cookies.find((c) => c.startsWith("flash="))!.split(";")[0]!;

    // Stripe was told to stop the subscription.
    const cancel = stripe.requests.slice(before).find((r) => r.path === `/v1/subscriptions/${order.subscriptionId}`);
    expect(cancel?.method).toBe("POST");
    expect(cancel!.form.cancel_at ?? cancel!.form.cancel_at_period_end).toBeDefined();

    // Nothing of the user remains reachable.
    expect(await userRow(u.id)).toBeUndefined();
    expect(await sessionsOf(u.id)).toHaveLength(0);
    expect(await accountsOf(u.id)).toHaveLength(0);
    for (const id of items) {
      expect((await get(`/product/${id}`)).status).toBe(404);
      expect((await get(`/${id}`)).status).toBe(404);
    }
    expect((await get("/account", { cookie: other.cookie })).headers.get("location")).toBe("/login");
    await expect(signIn(rt, u.email, u.password)).rejects.toThrow();
    const drafts = await rt.database.db.selectFrom("order_drafts").selectAll().where("userId", "=", u.id).execute();
    expect(drafts).toHaveLength(0);
    const msgs = await rt.database.db.selectFrom("contact_messages").selectAll().where("email", "=", u.email).execute();
    expect(msgs).toHaveLength(0);

    // The order stays for the books, anonymised, with its totals.
    const kept = await rt.database.db
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(kept.userId).not.toBe(u.id);
    expect(kept.adress).not.toContain("Svensson");
    expect(kept.adress).not.toContain(u.email);
    expect(kept).toMatchObject({
      status: "paid",
      totalAmount: order.totalAmount,
      packageAmount: order.packageAmount,
      discountAmount: order.discountAmount,
      currency: order.currency,
      renewing: 0,
    });
    const ships = await rt.database.db
      .selectFrom("sticker_shipments")
      .selectAll()
      .where("orderId", "=", order.id)
      .execute();
    for (const s of ships) expect(s.adress).not.toContain("Storgatan");
    // Its receipts too (bokföringslagen, decision 041): number, amounts and VAT kept; no
    // person and no item names (the owner's own words).
    const receipts = await rt.database.db.selectFrom("receipts").selectAll().where("orderId", "=", order.id).execute();
    expect(receipts.length).toBeGreaterThan(0);
    for (const r of receipts) {
      expect(r.userId).not.toBe(u.id);
      expect(r.items).toBe("[]");
      expect(Number(r.totalAmount)).toBe(order.totalAmount);
      expect(Number(r.number)).toBeGreaterThan(0);
    }

    // Only the confirmation mail is left for the address, in Swedish.
    const mails = await mailsTo(u.email);
    expect(mails.map((m) => m.subject)).toEqual(["Ditt Hittad-konto är raderat"]);

    // Ends on / with a translated confirmation.
    const home = await get("/", { cookie: flash, lang: "sv" });
    expect(await home.text()).toContain("Ditt konto är raderat.");
  });

  it("delete: when Stripe refuses to cancel, nothing is deleted", async () => {
    const u = await createUser(rt);
    const items = [await newItem(u, "Camera")];
    await paidOrder(u, items);
    stripe.failNext(400, 3);
    const res = await post(
      "/account/delete",
      { intent: "delete", password: u.password, confirm: "on", forfeitRefunds: "on" },
      { cookie: u.cookie },
    );
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("nothing was deleted");
    expect(await userRow(u.id)).toBeDefined();
    expect((await get(`/product/${items[0]}`)).status).toBe(200);
    expect((await get("/account", { cookie: u.cookie })).status).toBe(200);
  });

  it("item delete: only the owner; another user's item answers 404 and nothing changes", async () => {
    const u = await createUser(rt);
    const stranger = await createUser(rt);
    const id = await newItem(u, "Red scarf");
    expect((await get(`/product/${id}/delete`, { cookie: stranger.cookie })).status).toBe(404);
    expect((await post(`/product/${id}/delete`, {}, { cookie: stranger.cookie })).status).toBe(404);
    expect((await post("/product/not-an-id/delete", {}, { cookie: u.cookie })).status).toBe(404);
    expect((await post(`/product/${id}/delete`, {}, { cookie: u.cookie, origin: "https://evil.example" })).status).toBe(
      403,
    );
    expect((await get(`/product/${id}`, { cookie: u.cookie })).status).toBe(200);
    // An unpaid item: the page asks first (a form without JavaScript), then deletes.
    const page = await (await get(`/product/${id}/delete`, { cookie: u.cookie, lang: "sv" })).text();
    expect(page).toContain("Radera ”Red scarf”?");
    expect(page).toMatch(/<form[^>]*method="post"/);
    expect(page).not.toContain("prenumeration som förnyas");
    const res = await post(`/product/${id}/delete`, {}, { cookie: u.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard");
    expect((await get(`/product/${id}`, { cookie: u.cookie })).status).toBe(404);
    expect((await get(`/product/${id}/delete`, { cookie: u.cookie })).status).toBe(404);
  });

  it("item delete of a paid item: its subscription stops renewing at Stripe (minimum term kept), the other item stays active until the end; scans, conversations, replacement stickers and order lines go; page, short URL and QR answer 404 at once; the order keeps its totals and cannot be resumed", async () => {
    const u = await createUser(rt, { language: "sv" });
    const [gone, kept] = [await newItem(u, "Old bike"), await newItem(u, "Green wallet")];
    const order = await paidOrder(u, [gone!, kept!]);
    const db = rt.database.db;
    const FINDER_TOKEN = `tok${u.id.replace(/[^A-Za-z0-9]/g, "")}`.padEnd(43, "x").slice(0, 43);
    const now = Date.now();
    await db
      .insertInto("item_scans")
      .values({ productId: gone!, scannedAt: now, lang: "en", device: "phone" })
      .execute();
    await db
      .insertInto("conversations")
      .values({
        id: `conv-${gone}`,
        itemId: gone!,
        ownerId: u.id,
        finderToken: FINDER_TOKEN,
        finderContact: "finder@example.test",
        finderLang: "en",
        createdAt: now,
        lastMessageAt: now,
      })
      .execute();
    await db
      .insertInto("conversation_messages")
      .values({
        id: `msg-${gone}`,
        conversationId: `conv-${gone}`,
        author: "finder",
        text: "Found it",
        latitude: null,
        longitude: null,
        createdAt: now,
        readAt: null,
      })
      .execute();
    await db
      .insertInto("sticker_replacements")
      .values({
        id: `rep-${gone}`,
        productId: gone!,
        userId: u.id,
        orderId: order.id,
        adress: "{}",
        mode: "reprint",
        status: "pending",
        createdAt: now,
        shippedAt: null,
        shippedBy: null,
        trackingNumber: null,
      })
      .execute();
    await db
      .insertInto("retired_stickers")
      .values({ id: "OldStick01", code: "OLDCODE01", productId: gone!, retiredAt: now })
      .execute();
    // Served, and kept in the finder-page cache; the finder's link works.
    for (let i = 0; i < 2; i++) expect((await get(`/${gone}`)).status).toBe(200);
    expect((await get(`/m/${FINDER_TOKEN}`)).status).toBe(200);
    expect((await get("/OldStick01")).status).toBe(410); // a replaced sticker's own answer

    const page = await (await get(`/product/${gone}/delete`, { cookie: u.cookie, lang: "sv" })).text();
    expect(page).toContain("prenumeration som förnyas");
    expect(page).toContain("Green wallet");
    expect(page).toMatch(/aktiv till och med \d/);

    const before = stripe.requests.length;
    const res = await post(`/product/${gone}/delete`, {}, { cookie: u.cookie, lang: "sv" });
    expect(res.status).toBe(302);
    const cancel = stripe.requests.slice(before).find((r) => r.path === `/v1/subscriptions/${order.subscriptionId}`);
    expect(cancel?.method).toBe("POST");
    expect(cancel!.form.cancel_at ?? cancel!.form.cancel_at_period_end).toBeDefined();

    for (const path of [`/${gone}`, `/product/${gone}`, `/OldStick01`]) expect((await get(path)).status).toBe(404);
    expect((await get(`/product/${gone}/qr.svg`, { cookie: u.cookie })).status).toBe(404);
    expect((await get(`/m/${FINDER_TOKEN}`)).status).toBe(404);
    const left = async (table: "item_scans" | "sticker_replacements" | "retired_stickers" | "order_items") =>
      (await db.selectFrom(table).select("productId").where("productId", "=", gone!).execute()).length;
    for (const t of ["item_scans", "sticker_replacements", "retired_stickers", "order_items"] as const) {
      expect(await left(t), t).toBe(0);
    }
    expect(await db.selectFrom("conversations").selectAll().where("itemId", "=", gone!).execute()).toHaveLength(0);
    expect(
      await db.selectFrom("conversation_messages").selectAll().where("conversationId", "=", `conv-${gone}`).execute(),
    ).toHaveLength(0);

    // The order: kept with its totals, no longer renewing, ending no earlier than the paid period.
    const after = await db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: "paid", renewing: 0, totalAmount: order.totalAmount, count: 2 });
    expect(Number(after.endsAt)).toBeGreaterThanOrEqual(Number(order.paidUntil));
    // The other item stays active on its page; the dashboard confirms and offers no "Resume renewal".
    expect(await (await get(`/${kept}`)).text()).toContain("Green wallet");
    const dash = await (
      await get("/dashboard", { cookie: `${u.cookie}; ${res.headers.getSetCookie()[0]!.split(";")[0]}`, lang: "sv" })
    ).text();
    expect(dash).toContain("Saken är raderad");
    expect(dash).not.toContain('value="resumeRenewal"');
    const resume = await post("/dashboard", { intent: "resumeRenewal", orderId: order.id }, { cookie: u.cookie });
    expect(resume.status).toBe(409);
    expect(
      (await db.selectFrom("orders").select("renewing").where("id", "=", order.id).executeTakeFirstOrThrow()).renewing,
    ).toBe(0);
  });

  it("item delete cancels a checkout started for it: paying that checkout later activates nothing and cancels the subscription", async () => {
    const u = await createUser(rt);
    const [gone, kept] = [await newItem(u, "Lost lamp"), await newItem(u, "Blue pen")];
    await keepOrderAddress(depsOf(rt), u.id, { ...ADDRESS, email: u.email }, false);
    const started = await post(
      "/order",
      [
        ["immediateStart", "yes"],
        ["items", gone!],
        ["items", kept!],
        ["payment", "year"],
      ],
      { cookie: u.cookie },
    );
    expect(started.status).toBe(302);
    const db = rt.database.db;
    const order = await db
      .selectFrom("orders")
      .selectAll()
      .where("userId", "=", u.id)
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    expect(order.status).toBe("pending");
    expect((await post(`/product/${gone}/delete`, {}, { cookie: u.cookie })).status).toBe(302);
    const cancelled = await db
      .selectFrom("orders")
      .select("status")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(cancelled.status).toBe("cancelled");
    // The owner finishes the Stripe checkout anyway (it stays open for hours).
    const before = stripe.requests.length;
    const event = checkoutCompleted(order.id, {
      amount_total: order.totalAmount,
      currency: order.currency.toLowerCase(),
    });
    const hook = await fetch(`${server.url}/api/stripe/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature },
      body: event.payload,
    });
    expect(hook.status).toBe(200);
    const after = await db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(after.status).toBe("duplicate");
    const item = await db.selectFrom("products").select("payed").where("id", "=", kept!).executeTakeFirstOrThrow();
    expect(Number(item.payed)).toBe(0);
    expect(await db.selectFrom("sticker_shipments").select("id").where("orderId", "=", order.id).execute()).toEqual([]);
    expect(
      stripe.requests.slice(before).some((r) => r.method === "DELETE" && r.path.startsWith("/v1/subscriptions/")),
    ).toBe(true);
  });

  it("item delete: when Stripe refuses to stop the subscription, the item stays", async () => {
    const u = await createUser(rt);
    const items = [await newItem(u, "Drone")];
    await paidOrder(u, items);
    stripe.failNext(400, 3);
    const res = await post(`/product/${items[0]}/delete`, {}, { cookie: u.cookie });
    expect(res.status).toBe(502);
    expect((await get(`/product/${items[0]}`)).status).toBe(200);
  });

  it("delete without a password (social-only) needs a sign-in of the last 15 minutes", async () => {
    const u = await socialOnlyUser();
    await ageSessions(u.id, 60);
    const stale = await post("/account/delete", { intent: "delete", confirm: "on" }, { cookie: u.cookie });
    expect(stale.status).toBe(403);
    expect(await userRow(u.id)).toBeDefined();
    const page = await (await get("/account/delete", { cookie: u.cookie })).text();
    expect(page).toContain("Confirm with Google");

    await ageSessions(u.id, 0);
    const ok = await post("/account/delete", { intent: "delete", confirm: "on" }, { cookie: u.cookie });
    expect(ok.headers.get("location")).toBe("/");
    expect(await userRow(u.id)).toBeUndefined();
    // Nothing else of the user in better-auth's tables.
    const left = await sql<{ n: number }>`select count(*) as n from account where "userId" = ${u.id}`.execute(
      rt.database.db,
    );
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});
