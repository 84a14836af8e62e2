/**
 * CSV import and export of items (decision 023) over HTTP against the production
 * server, on SQLite and, with DATABASE_URL=postgres://…, on PostgreSQL: nothing saved
 * from a file with a bad row, the row named; the whole file in one go; 10,000 rows within
 * seconds; export → import round trip; formula injection escaped; only one's own items;
 * in an organisation only its admins import and export, and only members can be assigned.
 */
import { acceptCurrentDpa } from "../support/dpa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { insertMember, insertOrganisation } from "../../app/server/organisations/organisations.repository.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { httpClient, type RequestOptions } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

let tdb: TestDatabase;
let server: TestServer;
let rt: Runtime;
const http = httpClient(() => server.url);

beforeAll(async () => {
  tdb = await createTestDatabase("csvimport");
  const env = testEnv(tdb, { RATE_LIMIT_DISABLED: "1" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
});
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await tdb?.drop();
});

const opts = (user: TestUser, o: RequestOptions = {}): RequestOptions => ({
  ...o,
  cookie: `${user.cookie}; ConsentApproved=true${o.cookie ? `; ${o.cookie}` : ""}`,
});

/** The upload step, as the page's form sends it (multipart with the file). */
function upload(
  user: TestUser,
  text: string | Uint8Array<ArrayBuffer>,
  o: RequestOptions & { contactInfo?: string; path?: string } = {},
) {
  const fd = new FormData();
  fd.append("intent", "preview");
  fd.append("file", new Blob([text], { type: "text/csv" }), "items.csv");
  fd.append("contactInfo", o.contactInfo ?? "Call 070-123 45 67");
  return http.request(o.path ?? "/dashboard/import", { method: "POST", body: fd }, opts(user, o));
}

/** The Confirm step: the previewed text posted back with the scope it was previewed in. */
function confirm(user: TestUser, text: string, o: RequestOptions & { scope?: string; contactInfo?: string } = {}) {
  const fd = new FormData();
  fd.append("intent", "import");
  fd.append("csv", text);
  fd.append("scope", o.scope ?? "personal");
  fd.append("contactInfo", o.contactInfo ?? "Call 070-123 45 67");
  return http.request("/dashboard/import", { method: "POST", body: fd }, opts(user, o));
}

async function itemsOf(user: TestUser) {
  return rt.database.db
    .selectFrom("products")
    .selectAll()
    .where("owner", "=", user.id)
    .orderBy("createdAt")
    .orderBy("name")
    .execute();
}

const GOOD = [
  "name,type,fee,visibility",
  "Phone Anna,mobile,200,",
  '"Laptop, Dell ""XPS""",laptop,500,private',
  "Keys,other,0,public",
  "Badge,other,50,",
].join("\r\n");
const BAD = GOOD.replace("Keys,other,0,public", "Keys,other,12.5,public");

describe("CSV import", () => {
  it("a file with one bad row saves nothing and names the row, in the user's language", async () => {
    const user = await createUser(rt, { name: "Bad Row" });
    const preview = await upload(user, BAD);
    expect(preview.status).toBe(422);
    const html = await preview.text();
    expect(html).toContain("<td>4</td>");
    expect(html).toContain("The finder&#x27;s fee must be a whole number of 0 or more.");
    expect(html).toContain("Nothing was saved");
    // The refused value, quoted the way each language quotes (decision 057).
    expect(html).toContain("“12.5”");
    // Confirming the same text anyway (a forged form) is checked again: nothing saved.
    const forced = await confirm(user, BAD);
    expect(forced.status).toBe(422);
    expect(await itemsOf(user)).toEqual([]);

    const sv = await upload(user, BAD.replace("name,type,fee,visibility", "namn,typ,hittelön,synlighet"), {
      lang: "sv",
    });
    expect(sv.status).toBe(422);
    const svHtml = await sv.text();
    expect(svHtml).toContain("Hittelönen måste vara ett heltal, 0 eller mer.");
    expect(svHtml).toContain("”12.5”");
    expect(svHtml).not.toContain("“");
  });

  it("the fixed file imports all its rows, each as the product form creates an item", async () => {
    const user = await createUser(rt, { name: "Good File" });
    const preview = await upload(user, GOOD);
    expect(preview.status).toBe(200);
    const html = await preview.text();
    expect(html).toContain("The file has 4 items.");
    expect(html).toContain("Laptop, Dell &quot;XPS&quot;");
    expect(html).toContain("Import 4 items");

    const done = await confirm(user, GOOD);
    expect(done.status).toBe(302);
    const location = done.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/dashboard\/import\?batch=\d+$/);
    const result = await http.get(location, opts(user));
    expect(await result.text()).toContain("4 items imported.");

    const items = await itemsOf(user);
    expect(items.map((i) => [i.name, i.prodType, Number(i.findFee), i.contactVisibility])).toEqual([
      ["Badge", "other", 50, "public"],
      ["Keys", "other", 0, "public"],
      ['Laptop, Dell "XPS"', "laptop", 500, "private"],
      ["Phone Anna", "mobile", 200, "public"],
    ]);
    for (const i of items) {
      expect(i.id).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(i.code).toMatch(/^[0-9A-Z]{9}$/);
      expect(i.contactInfo).toBe("Call 070-123 45 67");
      expect(i.currency).toBe("EUR");
      expect(Number(i.payed)).toBe(0);
      expect(Number(i.active)).toBe(1);
    }
    expect(new Set(items.map((i) => i.code)).size).toBe(4);
    // The dashboard shows them like any other item.
    expect(await (await http.get("/dashboard", opts(user))).text()).toContain("Phone Anna");
  });

  it("a result page for a batch that is not the user's shows no result", async () => {
    const user = await createUser(rt, { name: "Forged Batch" });
    const html = await (await http.get("/dashboard/import?batch=1700000000000", opts(user))).text();
    expect(html).not.toContain("imported.");
    expect(html).toContain("Upload a file");
  });

  it("the contact info is checked like the product form's, and the file is kept for the next try", async () => {
    const user = await createUser(rt, { name: "No Contact" });
    const res = await upload(user, GOOD, { contactInfo: "  " });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please enter contact info.");
    expect(html).toContain('name="csv"');
    expect(await itemsOf(user)).toEqual([]);
  });

  it("a confirmation for another scope than the active one is refused", async () => {
    const user = await createUser(rt, { name: "Scope Switch" });
    const res = await confirm(user, GOOD, { scope: "org:somewhere" });
    expect(res.status).toBe(409);
    expect(await itemsOf(user)).toEqual([]);
  });

  it("a file over 2 MB is refused with a translated 413, nothing saved", async () => {
    const user = await createUser(rt, { name: "Big File" });
    const big = "name,type,fee\n" + "A,mobile,1\n".repeat(200_000);
    const res = await upload(user, big);
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("larger than 2 MB");
    expect(await itemsOf(user)).toEqual([]);
  });

  it("a file of blank lines or of one-letter lines is refused at once as too many rows; the server answers meanwhile", async () => {
    const user = await createUser(rt, { name: "Blank Lines" });
    const limit = 2 * 1024 * 1024 - 100;
    for (const [text, lang, message] of [
      ["name,type,fee\n" + "\n".repeat(limit - 14), "en", "The file has more than 10,000 items."],
      ["x\n".repeat(limit / 2), "sv", "Filen har fler än 10\u00a0000 saker."],
    ] as const) {
      const started = Date.now();
      const answer = upload(user, text, { lang });
      const health = await http.get("/healthz");
      expect(health.status).toBe(200);
      const res = await answer;
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    expect(await itemsOf(user)).toEqual([]);
  });

  it("a Windows-1252 file from Swedish Excel imports with its å, ä, ö", async () => {
    const user = await createUser(rt, { name: "Excel Sv" });
    const text = "namn;typ;hittelön\r\nNyckelknippa åäö;annat;1 000 kr\r\nPlånbok Öberg;annat;200\r\n";
    const bytes = Uint8Array.from([...text].map((c) => ({ å: 0xe5, ä: 0xe4, ö: 0xf6, Ö: 0xd6 })[c] ?? c.charCodeAt(0)));
    const preview = await upload(user, bytes, { lang: "sv" });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain("Nyckelknippa åäö");
    // Confirm posts back the decoded text, as the page's hidden field holds it.
    expect((await confirm(user, text, { lang: "sv" })).status).toBe(302);
    expect((await itemsOf(user)).map((i) => [i.name, Number(i.findFee)])).toEqual([
      ["Nyckelknippa åäö", 1000],
      ["Plånbok Öberg", 200],
    ]);
  });

  it("a 1.5 MB file is read, also posted to the page's URL with a trailing slash", async () => {
    const user = await createUser(rt, { name: "Big But Fine" });
    const rows = Array.from({ length: 10_000 }, (_, i) => `${"N".repeat(70)}${i},other,1,${"i".repeat(75)}`);
    const text = `name,type,fee,id\n${rows.join("\n")}\n`;
    expect(text.length).toBeGreaterThan(1.5 * 1024 * 1024);
    const res = await upload(user, text, { path: "/dashboard/import/" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("The file has 10,000 items.");
  }, 30_000);

  it("the page says that an imported export makes new items, in both languages", async () => {
    const user = await createUser(rt, { name: "Re Import" });
    const en = await (await http.get("/dashboard/import", opts(user))).text();
    expect(en).toContain("its ids and sticker codes are not read, since they belong to the exported items");
    // The column list agrees: a sticker code is read, except in a file with an id column.
    expect(en).toContain("Not read in a file that has an id column (an export).");
    const sv = await (await http.get("/dashboard/import", opts(user, { lang: "sv" }))).text();
    expect(sv).toContain("dess id och klistermärkeskoder läses inte, eftersom de hör till de exporterade sakerna");
    expect(sv).toContain("Läses inte i en fil som har kolumnen id (en export).");
  });

  it("10,000 rows import within a few seconds", async () => {
    const user = await createUser(rt, { name: "Ten Thousand" });
    const rows = Array.from(
      { length: 10_000 },
      (_, i) => `Item ${i};${["mobil", "dator", "annat"][i % 3]};${i % 500};`,
    );
    const text = `\uFEFFnamn;typ;hittelön;synlighet\r\n${rows.join("\r\n")}\r\n`;
    const started = Date.now();
    const preview = await upload(user, text, { lang: "sv" });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain("Filen har 10\u00a0000 saker.");
    const previewed = Date.now();
    const done = await confirm(user, text, { lang: "sv" });
    expect(done.status).toBe(302);
    const imported = Date.now();
    console.info(
      `csv import of 10,000 rows: preview ${previewed - started} ms, import ${imported - previewed} ms (${process.env.DATABASE_URL ? "PostgreSQL" : "SQLite"})`,
    );
    expect(imported - previewed).toBeLessThan(20_000);
    const n = await rt.database.db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("owner", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(10_000);
  }, 60_000);
});

describe("CSV import limits", () => {
  let limited: TestServer;
  beforeAll(async () => {
    // A second server on the same database, with the rate limits on.
    limited = await startServer(testEnv(tdb));
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it("ten confirmed imports an hour; the eleventh is a translated 429 and saves nothing", async () => {
    const user = await createUser(rt, { name: "Many Imports" });
    const client = httpClient(() => limited.url);
    const post = (lang: "en" | "sv") => {
      const fd = new FormData();
      fd.append("intent", "import");
      fd.append("csv", "name,type,fee\nKeys,other,0\n");
      fd.append("scope", "personal");
      fd.append("contactInfo", "Call 070-123 45 67");
      return client.request("/dashboard/import", { method: "POST", body: fd }, opts(user, { lang }));
    };
    for (let i = 0; i < 10; i++) expect((await post("en")).status).toBe(302);
    const refused = await post("sv");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Du har importerat många filer den senaste timmen.");
    expect(await itemsOf(user)).toHaveLength(10);
  }, 30_000);
});

describe("CSV export", () => {
  let owner: TestUser;
  const NAMES = ['=HYPERLINK("http://evil.test","x")', "+46 phone", "-Lamp", "@work laptop", "Väska; röd"];

  beforeAll(async () => {
    owner = await createUser(rt, { name: "Export Owner" });
    const text = [
      "name,type,fee,visibility",
      ...NAMES.map(
        (n, i) =>
          `"${n.replaceAll('"', '""')}",${["mobile", "laptop", "other"][i % 3]},${i * 10},${i % 2 ? "private" : ""}`,
      ),
    ].join("\n");
    expect((await confirm(owner, text)).status).toBe(302);
  });

  it("is UTF-8 with BOM, `,` in English and `;` in Swedish, with formulas escaped", async () => {
    const en = await http.get("/dashboard/export.csv", opts(owner));
    expect(en.status).toBe(200);
    expect(en.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(en.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="hittad-items-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = new Uint8Array(await en.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text).toContain("name,type,fee,assigned member email,visibility,id,sticker code,paid until,photos\r\n");
    expect(text).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(text).toContain("'+46 phone");
    expect(text).toContain("'-Lamp");
    expect(text).toContain("'@work laptop");
    for (const line of text.slice(1).split("\r\n").slice(1)) expect(line).not.toMatch(/^[=+\-@]|,[=+\-@]/);

    const sv = await (await http.get("/dashboard/export.csv", opts(owner, { lang: "sv" }))).text();
    expect(sv).toContain(
      "namn;typ;hittelön;tilldelad medlem (e-post);synlighet;id;klistermärkeskod;betald till;foton\r\n",
    );
    expect(sv).toContain('"Väska; röd";dator;40;;offentlig;');
  });

  it("round-trips: the export imported again gives the same names, types and fees", async () => {
    for (const lang of ["en", "sv"] as const) {
      const exported = await (await http.get("/dashboard/export.csv", opts(owner, { lang }))).text();
      const copy = await createUser(rt, { name: `Round Trip ${lang}` });
      expect((await confirm(copy, exported, { lang })).status).toBe(302);
      const pick = (rows: Awaited<ReturnType<typeof itemsOf>>) =>
        rows.map((r) => [r.name, r.prodType, Number(r.findFee), r.contactVisibility]).sort();
      expect(pick(await itemsOf(copy))).toEqual(pick(await itemsOf(owner)));
      expect((await itemsOf(copy)).map((r) => r.name).sort()).toEqual([...NAMES].sort());
    }
  });

  it("another user cannot export your items, and a visitor is sent to sign in", async () => {
    const other = await createUser(rt, { name: "Other Exporter" });
    const theirs = await (await http.get("/dashboard/export.csv", opts(other))).text();
    expect(theirs).not.toContain("Lamp");
    expect(theirs.trim().split("\r\n")).toHaveLength(1);
    const anon = await http.get("/dashboard/export.csv", { cookie: "ConsentApproved=true" });
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toBe("/login");
  });
});

describe("CSV in an organisation", () => {
  const ORG = "orgCsvTest0000000001";
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  const inOrg = <T extends RequestOptions & { scope?: string; contactInfo?: string }>(o?: T) => ({
    ...o,
    cookie: `hittad.scope=${ORG}`,
  });

  beforeAll(async () => {
    admin = await createUser(rt, { name: "Org Admin" });
    member = await createUser(rt, { name: "Org Member" });
    outsider = await createUser(rt, { name: "Org Outsider" });
    const now = Date.now();
    await insertOrganisation(
      rt.database.db,
      {
        id: ORG,
        name: "Acme AB",
        orgNumber: "556677-8899",
        billingEmail: "billing@acme.test",
        invoiceStreet: "Storgatan 1",
        invoicePostcode: "90326",
        invoiceCity: "Umeå",
        vatNumber: null,
        deskContact: "Acme reception, 090-123 45",
        createdAt: now,
        updatedAt: now,
      },
      admin.id,
    );
    await insertMember(rt.database.db, { organisationId: ORG, userId: member.id, role: "member", createdAt: now });
    await acceptCurrentDpa({ db: rt.database.db, clock: () => Date.now() }, admin.id, ORG);
  });

  const orgItems = () =>
    rt.database.db.selectFrom("products").selectAll().where("organisationId", "=", ORG).orderBy("name").execute();

  it("an assigned email that is not a member is a row error; nothing is saved", async () => {
    const text = [
      "name,type,fee,assigned member email",
      `Laptop 1,laptop,100,${member.email.toUpperCase()}`,
      `Laptop 2,laptop,100,${outsider.email}`,
      "Laptop 3,laptop,100,",
    ].join("\n");
    const preview = await upload(admin, text, inOrg());
    expect(preview.status).toBe(422);
    const html = await preview.text();
    expect(html).toContain("<td>3</td>");
    expect(html).toContain("This address is not a member of the organisation.");
    expect((await confirm(admin, text, inOrg({ scope: ORG }))).status).toBe(422);
    expect(await orgItems()).toEqual([]);
  });

  it("an admin imports into the organisation: items assigned to members, the desk's contact offered", async () => {
    const page = await (await http.get("/dashboard/import", opts(admin, inOrg()))).text();
    expect(page).toContain("Items are imported into the organisation Acme AB.");
    expect(page).toContain("Acme reception, 090-123 45");
    const text = [
      "name,type,fee,assigned member email",
      `Laptop 1,laptop,100,${member.email}`,
      "Laptop 3,laptop,100,",
    ].join("\n");
    const done = await confirm(admin, text, inOrg({ scope: ORG, contactInfo: "Acme reception, 090-123 45" }));
    expect(done.status).toBe(302);
    const items = await orgItems();
    expect(items.map((i) => [i.name, i.owner, i.assignedTo])).toEqual([
      ["Laptop 1", admin.id, member.id],
      ["Laptop 3", admin.id, null],
    ]);
    // The organisation's export has them with the member's email; the admin's personal one has not.
    const exported = await (await http.get("/dashboard/export.csv", opts(admin, inOrg()))).text();
    expect(exported).toContain(`Laptop 1,laptop,100,${member.email},public,`);
    expect(exported).toContain("Laptop 3,laptop,100,,public,");
    expect(await (await http.get("/dashboard/export.csv", opts(admin))).text()).not.toContain("Laptop 1");
  });

  it("a member who is not an admin can neither import nor export", async () => {
    const before = (await orgItems()).length;
    expect((await http.get("/dashboard/import", opts(member, inOrg()))).status).toBe(404);
    expect((await upload(member, GOOD, inOrg())).status).toBe(404);
    expect((await confirm(member, GOOD, inOrg({ scope: ORG }))).status).toBe(404);
    expect((await http.get("/dashboard/export.csv", opts(member, inOrg()))).status).toBe(404);
    expect((await http.get("/dashboard/import/template.csv", opts(member, inOrg()))).status).toBe(404);
    expect(await orgItems()).toHaveLength(before);
  });

  it("a scope cookie naming an organisation one is not in falls back to the personal account", async () => {
    const res = await confirm(outsider, GOOD, inOrg({ scope: ORG }));
    expect(res.status).toBe(409);
    const exported = await (await http.get("/dashboard/export.csv", opts(outsider, inOrg()))).text();
    expect(exported).not.toContain("Laptop");
    const done = await confirm(outsider, GOOD, inOrg({ scope: "personal" }));
    expect(done.status).toBe(302);
    expect((await itemsOf(outsider)).every((i) => i.organisationId === null)).toBe(true);
  });
});
