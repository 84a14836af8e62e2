/**
 * The data processing agreement for organisations (decision 030): an admin accepts the
 * current version before the organisation invites members or imports items (both refused
 * on the server, with a translated message, until then); who accepted which version and when
 * is stored and shown; only admins accept; a page older than the text is refused; a new
 * version must be accepted again. SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DPA_VERSION } from "../../app/lib/domain/dpa";
import { ImportError } from "../../app/server/items/import-error.server";
import { importItems } from "../../app/server/items/import.service.server";
import {
  acceptDpa,
  createOrganisation,
  getOrganisationPage,
  OrganisationError,
} from "../../app/server/organisations/organisations.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";
import { uniqueOrgNumber } from "../support/org-numbers";

const ORGANISATION = {
  name: "Avtal AB",
  // One number makes one organisation (decision 057): each creation its own.
  get orgNumber() {
    return uniqueOrgNumber();
  },
  billingEmail: "billing@avtal.test",
  invoiceStreet: "Storgatan 1",
  invoicePostcode: "90326",
  invoiceCity: "Umeå",
  invoiceCountry: "SE",
  vatNumber: null,
  deskContact: "Reception",
};
const NOW = Date.UTC(2026, 10, 26, 12);

let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
let admin: TestUser;
let member: TestUser;
let org: string;
const http = httpClient(() => server.url);
const as = (u: TestUser) => ({ cookie: `${u.cookie}; ConsentApproved=true` });
const deps = () => ({ ...depsOf(rt), clock: () => NOW });
const adminActor = () => ({ id: admin.id, name: "Alva Admin", email: admin.email });

beforeAll(async () => {
  tdb = await createTestDatabase("dpa");
  const env = testEnv(tdb, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  admin = await createUser(rt, { name: "Alva Admin" });
  member = await createUser(rt, { name: "Max Member" });
  org = await createOrganisation(depsOf(rt), admin.id, ORGANISATION);
  await rt.database.db
    .insertInto("organisation_members")
    .values({ organisationId: org, userId: member.id, role: "member", createdAt: NOW })
    .execute();
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await tdb?.drop();
});

const invite = (lang: "en" | "sv") =>
  http.post(
    `/organisations/${org}`,
    { intent: "invite", email: `colleague-${lang}@example.test`, role: "member" },
    { ...as(admin), lang },
  );
const csv = "name,type,fee\nLaptop,laptop,100\n";
const importOne = () =>
  importItems(
    deps(),
    { userId: admin.id, ip: "192.0.2.1" },
    { kind: "organisation", organisationId: org, name: ORGANISATION.name, role: "admin" },
    { text: csv, contactInfo: "Reception", previewedScope: org },
    "en",
  );

describe("the data processing agreement", () => {
  it("an organisation that has not accepted it cannot invite (409, translated) or import", async () => {
    for (const [lang, text] of [
      ["en", "First accept the data processing agreement above"],
      ["sv", "Godkänn först personuppgiftsbiträdesavtalet ovan"],
    ] as const) {
      const res = await invite(lang);
      expect(res.status).toBe(409);
      expect(await res.text()).toContain(text);
    }
    await expect(importOne()).rejects.toEqual(new ImportError("dpaRequired"));
    const invites = await rt.database.db.selectFrom("organisation_invites").selectAll().execute();
    expect(invites).toEqual([]);
  });

  it("the page shows the agreement and the form to accept it to admins, and nothing of it to members", async () => {
    const adminPage = await (await http.get(`/organisations/${org}`, { ...as(admin), lang: "en" })).text();
    expect(adminPage).toContain("Data processing agreement");
    expect(adminPage).toContain('name="intent" value="acceptDpa"');
    const memberPage = await (await http.get(`/organisations/${org}`, { ...as(member), lang: "en" })).text();
    expect(memberPage).not.toContain("Data processing agreement");
  });

  it("accepting needs the box ticked; a member cannot accept; an older version is refused", async () => {
    const unticked = await http.post(
      `/organisations/${org}`,
      { intent: "acceptDpa", version: String(DPA_VERSION) },
      { ...as(admin), lang: "en" },
    );
    expect(unticked.status).toBe(400);
    expect(await unticked.text()).toContain("Tick the box to accept the agreement");
    await expect(
      acceptDpa(deps(), { id: member.id, name: "Max", email: member.email }, org, DPA_VERSION),
    ).rejects.toEqual(new OrganisationError("forbidden"));
    await expect(acceptDpa(deps(), adminActor(), org, DPA_VERSION - 1)).rejects.toEqual(
      new OrganisationError("dpaOutdated"),
    );
    expect((await getOrganisationPage(deps(), admin.id, org)).dpa?.current).toBeNull();
  });

  it("once an admin accepted, who, which version and when are stored and shown, and invites and imports work", async () => {
    const res = await http.post(
      `/organisations/${org}`,
      { intent: "acceptDpa", version: String(DPA_VERSION), accept: "yes" },
      { ...as(admin), lang: "en" },
    );
    expect(res.status).toBe(302);
    const page = await getOrganisationPage(deps(), admin.id, org);
    expect(page.dpa?.current).toMatchObject({ version: DPA_VERSION, userId: admin.id, email: admin.email });
    const html = await (await http.get(`/organisations/${org}`, { ...as(admin), lang: "en" })).text();
    expect(html).toContain(`Version ${DPA_VERSION} accepted by Alva Admin (${admin.email})`);
    // Accepting again changes nothing: the first acceptance stands.
    await acceptDpa({ ...deps(), clock: () => NOW + 60_000 }, adminActor(), org, DPA_VERSION);
    expect((await getOrganisationPage(deps(), admin.id, org)).dpa?.history).toHaveLength(1);
    expect((await invite("en")).status).toBe(302);
    await expect(importOne()).resolves.toMatchObject({});
  });

  it("a new version must be accepted again: an acceptance of an older one does not count", async () => {
    const other = await createOrganisation(depsOf(rt), admin.id, { ...ORGANISATION, name: "Gammal AB" });
    await rt.database.db
      .insertInto("dpa_acceptances")
      .values({
        organisationId: other,
        version: DPA_VERSION - 1,
        userId: admin.id,
        name: "A",
        email: "a@x.test",
        acceptedAt: NOW,
      })
      .execute();
    const res = await http.post(
      `/organisations/${other}`,
      { intent: "invite", email: "late@example.test", role: "member" },
      { ...as(admin), lang: "en" },
    );
    expect(res.status).toBe(409);
    const page = await getOrganisationPage(deps(), admin.id, other);
    expect(page.dpa?.current).toBeNull();
    expect(page.dpa?.history.map((a) => a.version)).toEqual([DPA_VERSION - 1]);
    const html = await (await http.get(`/organisations/${other}`, { ...as(admin), lang: "en" })).text();
    expect(html).toContain("The agreement has a new version");
  });
});
