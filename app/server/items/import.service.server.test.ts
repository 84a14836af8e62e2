/**
 * The CSV import and export rules on an in-memory SQLite through the real migrations
 * (decision 011): all rows or none, items made as the product form makes them, the scope
 * rules of organisations. The HTTP side is tests/integration/csv-import.test.ts.
 */
import { acceptCurrentDpa } from "../../../tests/support/dpa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { insertMember, insertOrganisation } from "../organisations/organisations.repository.server";
import { importErrors } from "./import.http.server";
import {
  countImportedItems,
  csvScope,
  EXPORT_PAGE,
  exportItems,
  ImportError,
  importItems,
  IMPORT_RATE_RULE,
  previewImport,
  scopeKey,
  submitImport,
  type CsvScope,
} from "./import.service.server";

let deps: ServiceTestDeps;
let n = 0;
const PERSONAL: CsvScope = { kind: "personal" };

async function user() {
  const email = `csv-${++n}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({ body: { name: "Ida Import", email, password: "pw-Secret-123!" } });
  return { id: user.id, email };
}

async function products(owner: string) {
  return deps.db.selectFrom("products").selectAll().where("owner", "=", owner).orderBy("name").execute();
}

/** A confirmation of `text` for the scope it was previewed in. */
function importFile(userId: string, scope: CsvScope, text: string, contactInfo: string, lang: "en" | "sv") {
  return importItems(deps, userId, scope, { text, contactInfo, previewedScope: scopeKey(scope) }, lang);
}

/** The whole streamed export as one text. */
async function csvText(file: { chunks: AsyncIterable<string> }) {
  let text = "";
  for await (const chunk of file.chunks) text += chunk;
  return text;
}

async function importError(p: Promise<unknown>): Promise<ImportError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ImportError) return err;
    throw err;
  }
  throw new Error("no ImportError");
}

beforeEach(async () => {
  deps = await createServiceDeps();
});
afterEach(async () => {
  await deps.close();
});

describe("import", () => {
  it("nothing is saved when any row is invalid; the preview names every error", async () => {
    const u = await user();
    const text = "name,type,fee\nA,mobile,1\nB,tablet,2\nC,other,x\n";
    const err = await importError(importFile(u.id, PERSONAL, text, "070-1", "sv"));
    expect(err.code).toBe("invalidRows");
    expect(importErrors[err.code].status).toBe(422);
    expect(await products(u.id)).toEqual([]);
    const preview = await previewImport(deps, PERSONAL, text, "sv");
    expect(preview).toMatchObject({ total: 3, errorCount: 2, rows: [] });
    expect(preview.errors.map((e) => [e.row, e.column])).toEqual([
      [3, "type"],
      [4, "fee"],
    ]);
  });

  it("a valid file makes every item as the product form does, all with one creation time", async () => {
    const u = await user();
    const { count, batch } = await importFile(
      u.id,
      PERSONAL,
      "namn;typ;hittelön;synlighet\nTelefon;mobil;200;privat\nNycklar;annat;0;\n",
      "Ring 070-1",
      "sv",
    );
    expect(count).toBe(2);
    expect(batch).toBe(deps.clock());
    const rows = await products(u.id);
    expect(rows.map((r) => [r.name, r.prodType, Number(r.findFee), r.contactVisibility, r.currency])).toEqual([
      ["Nycklar", "other", 0, "public", "SEK"],
      ["Telefon", "mobile", 200, "private", "SEK"],
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({ contactInfo: "Ring 070-1", payment: "year", organisationId: null, assignedTo: null });
      expect(Number(r.createdAt)).toBe(batch);
    }
    expect(await countImportedItems(deps, u.id, PERSONAL, batch)).toBe(2);
    // Someone else's batch counts nothing for this user.
    expect(await countImportedItems(deps, (await user()).id, PERSONAL, batch)).toBe(0);
  });
});

describe("submitImport", () => {
  const text = "name,type,fee\nA,mobile,1\n";
  const confirm = { intent: "import" as const, text, previewedScope: scopeKey(PERSONAL) };

  it("an upload is previewed and its text kept for Confirm; nothing is saved until Confirm", async () => {
    const u = await user();
    const bytes = new TextEncoder().encode(text);
    const outcome = await submitImport(deps, u.id, PERSONAL, { intent: "preview", bytes }, "070-1", "en");
    expect(outcome).toMatchObject({ kind: "preview", csv: text, preview: { total: 1, errorCount: 0 } });
    expect(await products(u.id)).toEqual([]);
    expect(
      (await importError(submitImport(deps, u.id, PERSONAL, { intent: "preview", bytes: null }, "", "en"))).code,
    ).toBe("noFile");
  });

  it("a confirmation with a refused contact text is previewed again and saves nothing", async () => {
    const u = await user();
    expect(await submitImport(deps, u.id, PERSONAL, confirm, null, "en")).toMatchObject({ kind: "preview", csv: text });
    expect(await products(u.id)).toEqual([]);
  });

  it("a confirmation with a wrong row answers every row error and no text to confirm", async () => {
    const u = await user();
    const bad = { ...confirm, text: "name,type,fee\nA,mobile,x\n" };
    const outcome = await submitImport(deps, u.id, PERSONAL, bad, "070-1", "en");
    expect(outcome).toMatchObject({ kind: "preview", csv: "", preview: { errorCount: 1 } });
    expect(await products(u.id)).toEqual([]);
  });

  it("a valid confirmation imports and names its batch", async () => {
    const u = await user();
    const outcome = await submitImport(deps, u.id, PERSONAL, confirm, "070-1", "en");
    expect(outcome.kind).toBe("imported");
    expect(await countImportedItems(deps, u.id, PERSONAL, outcome.kind === "imported" ? outcome.batch : 0)).toBe(1);
  });
});

describe("limits", () => {
  it("ten confirmed imports per user and hour; previews and refused files are not counted", async () => {
    await deps.close();
    deps = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" });
    const u = await user();
    const text = "name,type,fee\nA,mobile,1\n";
    for (let i = 0; i < 20; i++) await previewImport(deps, PERSONAL, text, "en");
    expect((await importError(importFile(u.id, PERSONAL, "name,type,fee\nA,mobile,x\n", "R", "en"))).code).toBe(
      "invalidRows",
    );
    for (let i = 0; i < IMPORT_RATE_RULE.limit; i++) await importFile(u.id, PERSONAL, text, "R", "en");
    const err = await importError(importFile(u.id, PERSONAL, text, "R", "en"));
    expect(err).toMatchObject({ code: "rateLimited", params: { count: 60 } });
    expect(importErrors[err.code].status).toBe(429);
    expect(await products(u.id)).toHaveLength(IMPORT_RATE_RULE.limit);
    // Another user is not affected, and the user may import again an hour later.
    await importFile((await user()).id, PERSONAL, text, "R", "en");
    deps.setNow(deps.clock() + IMPORT_RATE_RULE.windowMs);
    await importFile(u.id, PERSONAL, text, "R", "en");
    expect(await products(u.id)).toHaveLength(IMPORT_RATE_RULE.limit + 1);
  });

  it("a confirmation previewed in another scope than the active one saves nothing", async () => {
    const u = await user();
    const input = { text: "name,type,fee\nA,mobile,1\n", contactInfo: "R", previewedScope: "orgElsewhere" };
    expect((await importError(importItems(deps, u.id, PERSONAL, input, "en"))).code).toBe("scopeChanged");
    expect((await importError(previewImport(deps, PERSONAL, input.text, "en", "orgElsewhere"))).code).toBe(
      "scopeChanged",
    );
    expect(await products(u.id)).toEqual([]);
  });
});

describe("organisations", () => {
  const ORG = "orgServiceTest000001";

  async function organisation() {
    const admin = await user();
    const member = await user();
    await insertOrganisation(
      deps.db,
      {
        id: ORG,
        name: "Acme AB",
        orgNumber: "556677-8899",
        billingEmail: "billing@acme.test",
        invoiceStreet: "Storgatan 1",
        invoicePostcode: "90326",
        invoiceCity: "Umeå",
        vatNumber: null,
        deskContact: "Reception",
        createdAt: deps.clock(),
        updatedAt: deps.clock(),
      },
      admin.id,
    );
    await insertMember(deps.db, { organisationId: ORG, userId: member.id, role: "member", createdAt: deps.clock() });
    await acceptCurrentDpa(deps, admin.id, ORG);
    return { admin, member };
  }

  it("only an admin gets the organisation as the CSV scope; a member is refused; an outsider stays personal", async () => {
    const { admin, member } = await organisation();
    expect(await csvScope(deps, admin.id, ORG)).toMatchObject({ kind: "organisation", organisationId: ORG });
    expect((await importError(csvScope(deps, member.id, ORG))).code).toBe("forbidden");
    expect(await csvScope(deps, (await user()).id, ORG)).toEqual(PERSONAL);
  });

  it("rows are assigned to members by email; the export lists them and the personal export does not", async () => {
    const { admin, member } = await organisation();
    const scope = await csvScope(deps, admin.id, ORG);
    await importFile(
      admin.id,
      scope,
      `name,type,fee,assigned member email\nA,laptop,1,${member.email.toUpperCase()}\nB,laptop,1,\n`,
      "Reception",
      "en",
    );
    expect((await products(admin.id)).map((r) => [r.name, r.organisationId, r.assignedTo])).toEqual([
      ["A", ORG, member.id],
      ["B", ORG, null],
    ]);
    const orgCsv = await csvText(exportItems(deps, admin.id, scope, "en"));
    expect(orgCsv).toContain(`A,laptop,1,${member.email},public,`);
    expect(await csvText(exportItems(deps, admin.id, PERSONAL, "en"))).not.toContain("laptop");
    const outsider = await importError(
      importFile(admin.id, scope, "name,type,fee,assigned member email\nC,laptop,1,x@example.test\n", "R", "en"),
    );
    expect(outsider.code).toBe("invalidRows");
  });
});

describe("export", () => {
  it("is read page by page: every item once, oldest first, one header, however many there are", async () => {
    const u = await user();
    const count = EXPORT_PAGE * 2 + 7;
    // Half of them share one creation time, as an import's items do.
    await deps.db
      .insertInto("products")
      .values(
        Array.from({ length: count }, (_, i) => ({
          id: `E${String(i).padStart(9, "0")}`,
          code: `X${String(i)
            .padStart(8, "0")
            .replace(/\d/g, (d) => "ABCDEFGHJK"[Number(d)]!)}`,
          owner: u.id,
          name: `Exported ${i}`,
          findFee: 10,
          currency: "SEK",
          prodType: "other",
          contactInfo: "Reception",
          payment: "year",
          payed: 0,
          paidUntil: null,
          createdAt: i < count / 2 ? 1000 : 1000 + i,
          updatedAt: 1000,
        })),
      )
      .execute();
    const file = exportItems(deps, u.id, PERSONAL, "en");
    const chunks: string[] = [];
    for await (const chunk of file.chunks) chunks.push(chunk);
    // The header, then one chunk per page.
    expect(chunks).toHaveLength(1 + 3);
    const lines = chunks.join("").split("\r\n").filter(Boolean);
    expect(lines.filter((l) => l.includes("Name") || l.includes("name"))).toHaveLength(1);
    const names = lines.slice(1).map((l) => l.split(",")[0]);
    expect(names).toEqual(Array.from({ length: count }, (_, i) => `Exported ${i}`));
  });
});
