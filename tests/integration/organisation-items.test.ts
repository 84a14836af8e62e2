/**
 * Organisation items (decision 026) over HTTP against the production
 * server, on SQLite and, with DATABASE_URL=postgres://…, on PostgreSQL: the one access
 * rule (an organisation's admins manage all its items, a member the ones assigned to
 * them, nobody else — not another organisation, not an ex-member), proven per route by
 * ORG_ITEM_TABLE; assignment (admins only, members only); the lost-and-found desk on the
 * finder page; relay messages, replies and scan alerts reaching the assigned member and
 * the desk.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { SCOPE_COOKIE } from "../../app/lib/domain/organisation-roles";
import { canManage, listItemRecipients } from "../../app/server/access/item-access.repository.server";
import { createItem, ItemError, updateOwnedItem } from "../../app/server/items/items.service.server";
import { eraseUserData, exportUserData } from "../../app/server/account/privacy.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import {
  createOrganisation,
  leaveOrganisation,
  removeMember,
} from "../../app/server/organisations/organisations.service.server";
import { confirmFinderMail, sendFinderMessage } from "../../app/server/relay/relay.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { writeScanEvents } from "../../app/server/scans/scans.service.server";
import {
  DESK_ITEM_NAME,
  ORG_ITEM_NAME,
  ORG_ITEM_TABLE,
  ORG_ROLES,
  SECRET_ORG_FINDER_MESSAGE,
  SECRET_ORG_ITEM_CONTACT,
  type Expectation,
  type OrgRole,
} from "../quality/route-table";
import { up as reownConversations } from "../../app/server/db/migrations/0017-organisation-conversations";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";
import { uniqueOrgNumber } from "../support/org-numbers";

const DETAILS = {
  // One number makes one organisation (decision 057): each creation its own.
  get orgNumber() {
    return uniqueOrgNumber();
  },
  billingEmail: "billing@acme.example",
  invoiceStreet: "Storgatan 1",
  invoicePostcode: "903 26",
  invoiceCity: "Umeå",
  invoiceCountry: "SE",
  vatNumber: null,
};
const DESK_CONTACT = "Acme lost and found, reception floor 1, 090-123 45";
const ITEM = { findFee: 100, prodType: "laptop" as const, payment: "year" as const, intent: "payLater" as const };

let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
let users: Record<OrgRole, TestUser>;
let orgA: string;
let orgItem: string;
let deskItem: string;
let orgConversation: string;
let finderToken: string;
const http = httpClient(() => server.url);

async function addMember(organisationId: string, user: TestUser, role: "admin" | "member") {
  await rt.database.db
    .insertInto("organisation_members")
    .values({ organisationId, userId: user.id, role, createdAt: Date.now() })
    .execute();
}

async function payFor(userId: string, email: string, ids: string[], organisationId: string | null = orgA) {
  const deps = depsOf(rt);
  await keepOrderAddress(
    deps,
    userId,
    {
      firstname: "Alva",
      lastname: "Admin",
      email,
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
  const order = await createOrder(deps, { userId, itemIds: ids, organisationId, period: "year", lang: "en" });
  await completeTestPayment(deps, { userId, orderId: order.id });
  return order.id;
}

async function mailsTo(email: string) {
  return rt.database.db
    .selectFrom("mail_outbox")
    .select(["subject", "text"])
    .where("to", "=", email)
    .orderBy("createdAt")
    .execute();
}

async function assignedTo(id: string) {
  const row = await rt.database.db
    .selectFrom("products")
    .select("assignedTo")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return row.assignedTo;
}

async function finderWrites(itemId: string, message: string) {
  return sendFinderMessage(
    depsOf(rt),
    itemId,
    { message, contact: "finder@example.test", captchaToken: "", js: false, trap: false },
    { ip: "192.0.2.7", lang: "en", viewerId: null },
  );
}

beforeAll(async () => {
  tdb = await createTestDatabase("orgitems");
  const env = testEnv(tdb, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  users = {
    orgAdmin: await createUser(rt, { name: "Alva Admin" }),
    assignee: await createUser(rt, { name: "Max Member" }),
    orgMember: await createUser(rt, { name: "Nils Nobody" }),
    otherOrgAdmin: await createUser(rt, { name: "Berit Boss" }),
    otherOrgMember: await createUser(rt, { name: "Bo Bmember" }),
    exMember: await createUser(rt, { name: "Erik Ex" }),
  };
  const deps = depsOf(rt);
  orgA = await createOrganisation(deps, users.orgAdmin.id, { ...DETAILS, name: "Acme AB", deskContact: DESK_CONTACT });
  const orgB = await createOrganisation(deps, users.otherOrgAdmin.id, {
    ...DETAILS,
    name: "Other AB",
    deskContact: "B desk",
  });
  await addMember(orgA, users.assignee, "member");
  await addMember(orgA, users.orgMember, "member");
  await addMember(orgA, users.exMember, "member");
  await addMember(orgB, users.otherOrgMember, "member");
  const base = { ...ITEM, contactInfo: SECRET_ORG_ITEM_CONTACT };
  // First assigned to the member who then leaves the organisation (removed by the admin).
  orgItem = await createItem(deps, users.orgAdmin.id, { ...base, name: ORG_ITEM_NAME }, "en", orgA, users.exMember.id);
  deskItem = await createItem(deps, users.orgAdmin.id, { ...base, name: DESK_ITEM_NAME }, "en", orgA);
  await payFor(users.orgAdmin.id, users.orgAdmin.email, [orgItem, deskItem]);
  await removeMember(deps, users.orgAdmin.id, orgA, users.exMember.id);
  await updateOwnedItem(deps, users.orgAdmin.id, orgItem, { ...base, name: ORG_ITEM_NAME }, users.assignee.id);
  const sent = await finderWrites(orgItem, SECRET_ORG_FINDER_MESSAGE);
  orgConversation = sent.conversationId;
  finderToken = sent.token;
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await tdb?.drop();
});

const fill = (s: string) =>
  s
    .replaceAll("{orgItem}", orgItem)
    .replaceAll("{deskItem}", deskItem)
    .replaceAll("{orgConversation}", orgConversation)
    .replaceAll("{orgA}", orgA);

describe("organisation-item matrix (tests/quality/route-table.ts ORG_ITEM_TABLE)", () => {
  for (const row of ORG_ITEM_TABLE) {
    it(`${row.method} ${row.url}${row.scoped ? " in organisation A's scope" : ""}`, async () => {
      const problems: string[] = [];
      for (const role of ORG_ROLES) {
        const cell = row.cells[role];
        const want: Expectation = typeof cell === "number" ? { status: cell } : cell;
        const cookie = `${users[role].cookie}; ConsentApproved=true${row.scoped ? `; ${SCOPE_COOKIE}=${orgA}` : ""}`;
        const url = fill(row.url);
        const res =
          row.method === "GET" ? await http.get(url, { cookie }) : await http.post(url, row.body ?? {}, { cookie });
        const text = await res.text();
        const label = `${row.method} ${row.url} as ${role}`;
        if (res.status !== want.status) problems.push(`${label}: ${res.status}, expected ${want.status}`);
        if (want.location !== undefined) {
          const location = res.headers.get("location");
          const path = location ? new URL(location, server.url).pathname : null;
          if (path !== fill(want.location))
            problems.push(`${label}: redirect to ${location}, expected ${want.location}`);
        }
        for (const s of want.contains ?? []) if (!text.includes(s)) problems.push(`${label}: lacks "${s}"`);
        for (const s of want.absent ?? []) if (text.includes(s)) problems.push(`${label}: shows "${s}"`);
      }
      expect(problems).toEqual([]);
    });
  }

  it("a POST by anyone but the item's managers changed nothing; lost mode and the replies are the managers'", async () => {
    const rows = await rt.database.db
      .selectFrom("products")
      .select(["id", "findFee", "lostAt"])
      .where("id", "in", [orgItem, deskItem])
      .execute();
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(Number(byId[orgItem]!.findFee)).toBe(150);
    expect(byId[orgItem]!.lostAt).not.toBeNull();
    expect(Number(byId[deskItem]!.findFee)).toBe(100);
    const replies = await rt.database.db
      .selectFrom("conversation_messages")
      .select("text")
      .where("conversationId", "=", orgConversation)
      .where("author", "=", "owner")
      .execute();
    // The assignee's and the admin's (two managers), nobody else's.
    expect(replies.map((r) => r.text)).toEqual(["A reply from the matrix", "A reply from the matrix"]);
  });
});

describe("the access rule (canManage)", () => {
  async function manages(userId: string, id: string) {
    const row = await rt.database.db
      .selectFrom("products")
      .select("id")
      .where("id", "=", id)
      .where(canManage(userId))
      .executeTakeFirst();
    return row !== undefined;
  }

  it("an ex-member loses access at once, even where assignedTo still names them", async () => {
    const deps = depsOf(rt);
    const leaver = await createUser(rt, { name: "Lena Leaver" });
    await addMember(orgA, leaver, "member");
    const id = await createItem(
      deps,
      users.orgAdmin.id,
      { ...ITEM, name: "Lena's phone", contactInfo: "x" },
      "en",
      orgA,
      leaver.id,
    );
    expect(await manages(leaver.id, id)).toBe(true);
    // Only the membership row goes: the rule reads membership, not just the column.
    await rt.database.db.deleteFrom("organisation_members").where("userId", "=", leaver.id).execute();
    expect(await assignedTo(id)).toBe(leaver.id);
    expect(await manages(leaver.id, id)).toBe(false);
  });

  it("the creator of an organisation item manages it only while an admin or its assignee", async () => {
    const deps = depsOf(rt);
    const creator = await createUser(rt, { name: "Cora Creator" });
    await addMember(orgA, creator, "member");
    const id = await createItem(deps, creator.id, { ...ITEM, name: "Cora's bag", contactInfo: "x" }, "en", orgA);
    // A member's new item is assigned to them, or they could not manage what they registered.
    expect(await assignedTo(id)).toBe(creator.id);
    expect(await manages(creator.id, id)).toBe(true);
    await updateOwnedItem(
      deps,
      users.orgAdmin.id,
      id,
      { ...ITEM, name: "Cora's bag", contactInfo: "x" },
      users.assignee.id,
    );
    expect(await manages(creator.id, id)).toBe(false);
    expect(await manages(users.assignee.id, id)).toBe(true);
  });

  it("a personal item stays its owner's alone, whatever organisations they share", async () => {
    const id = await createItem(
      depsOf(rt),
      users.assignee.id,
      { ...ITEM, name: "Max's own bike", contactInfo: "x" },
      "en",
    );
    expect(await manages(users.assignee.id, id)).toBe(true);
    expect(await manages(users.orgAdmin.id, id)).toBe(false);
  });
});

describe("assignment", () => {
  const form = (extra: Record<string, string>) => ({
    name: ORG_ITEM_NAME,
    findFee: "100",
    approxValue: "",
    prodType: "laptop",
    contactInfo: SECRET_ORG_ITEM_CONTACT,
    contactVisibility: "public",
    payment: "year",
    scanAlerts: "",
    intent: "update",
    ...extra,
  });
  const as = (u: TestUser) => ({ cookie: `${u.cookie}; ConsentApproved=true` });

  it("the admin's product form lists the members; a member's has no assignment field", async () => {
    const adminForm = await (await http.get(`/product/edit/${orgItem}`, as(users.orgAdmin))).text();
    expect(adminForm).toContain('name="assignedTo"');
    expect(adminForm).toContain("Nils Nobody");
    expect(adminForm).not.toContain("Berit Boss");
    const memberForm = await (await http.get(`/product/edit/${orgItem}`, as(users.assignee))).text();
    expect(memberForm).not.toContain('name="assignedTo"');
  });

  it("a member cannot assign, not even to themselves through a forged field (403, unchanged)", async () => {
    const res = await http.post(`/product/edit/${orgItem}`, form({ assignedTo: users.orgMember.id }), {
      ...as(users.assignee),
      lang: "sv",
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Bara organisationens administratörer kan tilldela dess saker.");
    expect(await assignedTo(orgItem)).toBe(users.assignee.id);
  });

  it("an admin assigns only to a member of the organisation (400 for another organisation's member)", async () => {
    const res = await http.post(
      `/product/edit/${orgItem}`,
      form({ assignedTo: users.otherOrgMember.id }),
      as(users.orgAdmin),
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("An item can only be assigned to a member of its organisation.");
    expect(await assignedTo(orgItem)).toBe(users.assignee.id);
  });

  it("an admin assigns to a member and back to nobody; the dashboard card says to whom", async () => {
    const deps = depsOf(rt);
    const id = await createItem(
      deps,
      users.orgAdmin.id,
      { ...ITEM, name: "Spare tablet", contactInfo: "x" },
      "en",
      orgA,
    );
    let res = await http.post(
      `/product/edit/${id}`,
      form({ name: "Spare tablet", assignedTo: users.orgMember.id }),
      as(users.orgAdmin),
    );
    expect(res.status).toBe(302);
    expect(await assignedTo(id)).toBe(users.orgMember.id);
    const dashboard = await (
      await http.get("/dashboard?q=spare", { cookie: `${as(users.orgAdmin).cookie}; ${SCOPE_COOKIE}=${orgA}` })
    ).text();
    // The card's one-line summary (decision 032) and the heading naming the
    // organisation (decision 038).
    expect(dashboard).toMatch(/Assigned to(<!-- -->)? <span class="item-assignee">Nils Nobody<\/span>/);
    expect(dashboard).toMatch(/<h1 id="dashboard-title"[^>]*>Acme AB: items<\/h1>/);
    const personal = await (await http.get("/dashboard", as(users.orgAdmin))).text();
    expect(personal).toMatch(/<h1 id="dashboard-title"[^>]*>Dashboard<\/h1>/);
    res = await http.post(`/product/edit/${id}`, form({ name: "Spare tablet", assignedTo: "" }), as(users.orgAdmin));
    expect(res.status).toBe(302);
    expect(await assignedTo(id)).toBeNull();
  });

  it("a personal item cannot be assigned (the service refuses)", async () => {
    const deps = depsOf(rt);
    const id = await createItem(deps, users.orgAdmin.id, { ...ITEM, name: "Alva's own", contactInfo: "x" }, "en");
    await expect(
      updateOwnedItem(
        deps,
        users.orgAdmin.id,
        id,
        { ...ITEM, name: "Alva's own", contactInfo: "x" },
        users.assignee.id,
      ),
    ).rejects.toEqual(new ItemError("assignForbidden"));
  });
});

describe("the lost-and-found desk", () => {
  it("the finder page of an organisation item shows the organisation's name and desk contact, never the person's", async () => {
    for (const lang of ["en", "sv"] as const) {
      const html = await (await http.get(`/product/${deskItem}`, { lang, cookie: "ConsentApproved=true" })).text();
      expect(html).toContain(
        lang === "en" ? "Contact the lost-and-found desk of Acme AB" : "Kontakta hittegodsdisken hos Acme AB",
      );
      expect(html).toContain("reception floor 1");
      expect(html).not.toContain(SECRET_ORG_ITEM_CONTACT);
      // Still the lean page (decision 020): no framework JavaScript for the finder.
      expect(html).not.toMatch(/<script[^>]*\bsrc=|modulepreload|__reactRouterContext/);
    }
  });

  it("a finder's message reaches the assigned member and every admin (verified, one mail each), and both see it", async () => {
    const before = {
      assignee: (await mailsTo(users.assignee.email)).length,
      admin: (await mailsTo(users.orgAdmin.email)).length,
      member: (await mailsTo(users.orgMember.email)).length,
    };
    await finderWrites(orgItem, "Found it by the coffee machine");
    expect((await mailsTo(users.assignee.email)).length).toBe(before.assignee + 1);
    expect((await mailsTo(users.orgAdmin.email)).length).toBe(before.admin + 1);
    expect((await mailsTo(users.orgMember.email)).length).toBe(before.member);
    expect(await mailsTo(users.exMember.email)).toEqual([]);
    for (const u of [users.assignee, users.orgAdmin]) {
      const inbox = await (await http.get("/messages", { cookie: u.cookie })).text();
      expect(inbox).toContain("Found it by the coffee machine");
    }
  });

  it("an admin who is also the assignee gets one mail, not two", async () => {
    const id = await createItem(
      depsOf(rt),
      users.orgAdmin.id,
      { ...ITEM, name: "Admin's own", contactInfo: "x" },
      "en",
      orgA,
      users.orgAdmin.id,
    );
    expect(await listItemRecipients(rt.database.db, id)).toEqual([users.orgAdmin.id]);
  });

  it("a reply by the desk reaches the finder at their link", async () => {
    // The finder's mailbox said yes from the first mail's link (decision 058): replies are mailed.
    const first = (await mailsTo("finder@example.test")).find((m) => /\?c=/.test(m.text))!;
    expect(await confirmFinderMail(depsOf(rt), finderToken, /\?c=([A-Za-z0-9_-]+)/.exec(first.text)![1]!)).toBe(true);
    const res = await http.post(
      `/messages/${orgConversation}`,
      { message: "Come to reception, ask for the desk" },
      { cookie: users.orgAdmin.cookie },
    );
    expect(res.status).toBe(302);
    const thread = await (await http.get(`/m/${finderToken}`)).text();
    expect(thread).toContain("Come to reception, ask for the desk");
    const finderMails = await mailsTo("finder@example.test");
    expect(finderMails.some((m) => m.text.includes("Come to reception, ask for the desk"))).toBe(true);
  });

  it("scan alerts of an organisation item go to the assigned member and the desk", async () => {
    await rt.database.db
      .updateTable("products")
      .set({ scanAlerts: 1, scanAlertedAt: null })
      .where("id", "=", orgItem)
      .execute();
    const before = [(await mailsTo(users.assignee.email)).length, (await mailsTo(users.orgAdmin.email)).length];
    const { mails } = await writeScanEvents(depsOf(rt), [
      { itemId: orgItem, at: Date.now(), lang: "en", device: "phone", paid: true },
    ]);
    expect(mails).toBe(2);
    expect((await mailsTo(users.assignee.email)).length).toBe(before[0]! + 1);
    expect((await mailsTo(users.orgAdmin.email)).length).toBe(before[1]! + 1);
  });

  it("when the assigned member leaves, the desk still gets every message and the member none", async () => {
    const deps = depsOf(rt);
    const leaver = await createUser(rt, { name: "Lisa Leaving" });
    await addMember(orgA, leaver, "member");
    const id = await createItem(
      deps,
      users.orgAdmin.id,
      { ...ITEM, name: "Lisa's laptop", contactInfo: "x" },
      "en",
      orgA,
      leaver.id,
    );
    await payFor(users.orgAdmin.id, users.orgAdmin.email, [id]);
    await leaveOrganisation(deps, leaver.id, orgA);
    expect(await assignedTo(id)).toBeNull();
    const adminBefore = (await mailsTo(users.orgAdmin.email)).length;
    await finderWrites(id, "Left on the train");
    expect((await mailsTo(users.orgAdmin.email)).length).toBe(adminBefore + 1);
    expect(await mailsTo(leaver.email)).toEqual([]);
    const inbox = await (await http.get("/messages", { cookie: leaver.cookie })).text();
    expect(inbox).not.toContain("Left on the train");
  });

  it("an admin or member of another organisation hears nothing of A's items", async () => {
    expect(await listItemRecipients(rt.database.db, orgItem)).toEqual([users.orgAdmin.id, users.assignee.id].sort());
    // And B's desk contact never shows on A's page.
    const html = await (await http.get(`/product/${orgItem}`, { cookie: "ConsentApproved=true" })).text();
    expect(html).not.toContain("B desk");
  });
});

describe("deleting an organisation item another payer's subscription covers", () => {
  const renewing = async (orderId: string) =>
    Number(
      (await rt.database.db.selectFrom("orders").select("renewing").where("id", "=", orderId).executeTakeFirstOrThrow())
        .renewing,
    );
  const exists = async (id: string) =>
    (await rt.database.db.selectFrom("products").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;

  it("a member cannot end the admin's subscription by deleting their assigned item (translated 403); the preview names only their items; an admin can", async () => {
    const deps = depsOf(rt);
    const mine = await createItem(
      deps,
      users.orgAdmin.id,
      { ...ITEM, name: "Nils's laptop", contactInfo: "x" },
      "en",
      orgA,
      users.orgMember.id,
    );
    const notMine = await createItem(
      deps,
      users.orgAdmin.id,
      { ...ITEM, name: "Boardroom projector", contactInfo: "x" },
      "en",
      orgA,
    );
    const order = await payFor(users.orgAdmin.id, users.orgAdmin.email, [mine, notMine]);
    expect(await renewing(order)).toBe(1);

    const preview = await http.get(`/product/${mine}/delete`, { cookie: users.orgMember.cookie });
    expect(preview.status).toBe(200);
    expect(await preview.text()).not.toContain("Boardroom projector");

    for (const lang of ["en", "sv"] as const) {
      const res = await http.post(`/product/${mine}/delete`, {}, { cookie: users.orgMember.cookie, lang });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain(
        lang === "en" ? "Only the organisation" : "Bara organisationens administratörer",
      );
    }
    expect(await exists(mine)).toBe(true);
    expect(await renewing(order)).toBe(1);

    const byAdmin = await http.post(`/product/${mine}/delete`, {}, { cookie: users.orgAdmin.cookie });
    expect(byAdmin.status).toBe(302);
    expect(await exists(mine)).toBe(false);
    expect(await renewing(order)).toBe(0);
  });
});

describe("finder conversations of organisation items", () => {
  it("follow the item to the heir when its creator leaves: not in the leaver's data export, not erased with their account", async () => {
    const deps = depsOf(rt);
    const leaver = await createUser(rt, { name: "Gunnar Gone" });
    await addMember(orgA, leaver, "member");
    const id = await createItem(deps, leaver.id, { ...ITEM, name: "Gunnar's laptop", contactInfo: "x" }, "en", orgA);
    await payFor(users.orgAdmin.id, users.orgAdmin.email, [id]);
    const { conversationId } = await finderWrites(id, "Found your laptop by the lifts");
    const ownerOf = async () =>
      (
        await rt.database.db
          .selectFrom("conversations")
          .select("ownerId")
          .where("id", "=", conversationId)
          .executeTakeFirst()
      )?.ownerId;
    await leaveOrganisation(deps, leaver.id, orgA);
    expect(await ownerOf()).toBe(users.orgAdmin.id);
    const exported = await exportUserData(
      deps,
      { id: leaver.id, email: leaver.email, emailVerified: true },
      { consentCookie: false },
    );
    expect(exported.json).not.toContain("Found your laptop by the lifts");
    await eraseUserData(deps, { id: leaver.id, email: leaver.email, emailVerified: true });
    expect(await ownerOf()).toBe(users.orgAdmin.id);
  });

  it("migration 0017 gives a conversation still naming a member who left before this release to the item's heir, and leaves others alone", async () => {
    const deps = depsOf(rt);
    const early = await createUser(rt, { name: "Ella Early" });
    await addMember(orgA, early, "member");
    const id = await createItem(deps, early.id, { ...ITEM, name: "Ella's phone", contactInfo: "x" }, "en", orgA);
    const desk = { ...ITEM, name: "Desk phone", contactInfo: "x" };
    const stays = await createItem(deps, users.orgAdmin.id, desk, "en", orgA);
    await payFor(users.orgAdmin.id, users.orgAdmin.email, [id, stays]);
    const { conversationId } = await finderWrites(id, "Found your phone on the bus");
    const { conversationId: untouched } = await finderWrites(stays, "Found the desk phone");
    await leaveOrganisation(deps, early.id, orgA);
    // The state the previous release left: the items passed to the heir, the conversation not.
    await rt.database.db
      .updateTable("conversations")
      .set({ ownerId: early.id })
      .where("id", "=", conversationId)
      .execute();
    await reownConversations(rt.database.db);
    const owners = await rt.database.db
      .selectFrom("conversations")
      .select(["id", "ownerId"])
      .where("id", "in", [conversationId, untouched])
      .execute();
    expect(Object.fromEntries(owners.map((o) => [o.id, o.ownerId]))).toEqual({
      [conversationId]: users.orgAdmin.id,
      [untouched]: users.orgAdmin.id,
    });
  });
});
