/**
 * The CSV import and export rules on an in-memory SQLite through the real migrations
 * (decision 011): all rows or none, items made as the product form makes them, the scope
 * rules of organisations. The HTTP side is tests/integration/csv-import.test.ts.
 */
import { acceptCurrentDpa } from "../../../tests/support/dpa";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { insertMember, insertOrganisation } from "../organisations/organisations.repository.server";
import { addMonths } from "~/lib/domain/pricing";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { CLAIM_USER_RULE, createBatch, getBatch, voidSticker } from "../stickers/stickers.service.server";
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

// Sign-ups hash passwords: seconds each on a busy 2-core machine, past Vitest's 5 s.
vi.setConfig({ testTimeout: 30_000 });

let deps: ServiceTestDeps;
let n = 0;
/** The importing user and their address (the sticker claim limits count both). */
const who = (userId: string, ip = "192.0.2.1") => ({ userId, ip });
const PERSONAL: CsvScope = { kind: "personal" };

async function user() {
  const email = `csv-${++n}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({ body: { name: "Ida Import", email, password: "pw-Secret-123!" } });
  return { id: user.id, email };
}

async function itemsOf(owner: string) {
  return deps.db.selectFrom("products").selectAll().where("owner", "=", owner).orderBy("name").execute();
}

/** A confirmation of `text` for the scope it was previewed in. */
function importFile(userId: string, scope: CsvScope, text: string, contactInfo: string, lang: "en" | "sv") {
  return importItems(deps, who(userId), scope, { text, contactInfo, previewedScope: scopeKey(scope) }, lang);
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
    expect(await itemsOf(u.id)).toEqual([]);
    const preview = await previewImport(deps, who("previewer"), PERSONAL, text, "sv");
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
    const rows = await itemsOf(u.id);
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
    const outcome = await submitImport(deps, who(u.id), PERSONAL, { intent: "preview", bytes }, "070-1", "en");
    expect(outcome).toMatchObject({ kind: "preview", csv: text, preview: { total: 1, errorCount: 0 } });
    expect(await itemsOf(u.id)).toEqual([]);
    expect(
      (await importError(submitImport(deps, who(u.id), PERSONAL, { intent: "preview", bytes: null }, "", "en"))).code,
    ).toBe("noFile");
  });

  it("a confirmation with a refused contact text is previewed again and saves nothing", async () => {
    const u = await user();
    expect(await submitImport(deps, who(u.id), PERSONAL, confirm, null, "en")).toMatchObject({
      kind: "preview",
      csv: text,
    });
    expect(await itemsOf(u.id)).toEqual([]);
  });

  it("a confirmation with a wrong row answers every row error and no text to confirm", async () => {
    const u = await user();
    const bad = { ...confirm, text: "name,type,fee\nA,mobile,x\n" };
    const outcome = await submitImport(deps, who(u.id), PERSONAL, bad, "070-1", "en");
    expect(outcome).toMatchObject({ kind: "preview", csv: "", preview: { errorCount: 1 } });
    expect(await itemsOf(u.id)).toEqual([]);
  });

  it("a valid confirmation imports and names its batch", async () => {
    const u = await user();
    const outcome = await submitImport(deps, who(u.id), PERSONAL, confirm, "070-1", "en");
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
    for (let i = 0; i < 20; i++) await previewImport(deps, who("previewer"), PERSONAL, text, "en");
    expect((await importError(importFile(u.id, PERSONAL, "name,type,fee\nA,mobile,x\n", "R", "en"))).code).toBe(
      "invalidRows",
    );
    for (let i = 0; i < IMPORT_RATE_RULE.limit; i++) await importFile(u.id, PERSONAL, text, "R", "en");
    const err = await importError(importFile(u.id, PERSONAL, text, "R", "en"));
    expect(err).toMatchObject({ code: "rateLimited", params: { count: 60 } });
    expect(importErrors[err.code].status).toBe(429);
    expect(await itemsOf(u.id)).toHaveLength(IMPORT_RATE_RULE.limit);
    // Another user is not affected, and the user may import again an hour later.
    await importFile((await user()).id, PERSONAL, text, "R", "en");
    deps.setNow(deps.clock() + IMPORT_RATE_RULE.windowMs);
    await importFile(u.id, PERSONAL, text, "R", "en");
    expect(await itemsOf(u.id)).toHaveLength(IMPORT_RATE_RULE.limit + 1);
  });

  it("a confirmation previewed in another scope than the active one saves nothing", async () => {
    const u = await user();
    const input = { text: "name,type,fee\nA,mobile,1\n", contactInfo: "R", previewedScope: "orgElsewhere" };
    expect((await importError(importItems(deps, who(u.id), PERSONAL, input, "en"))).code).toBe("scopeChanged");
    expect(
      (await importError(previewImport(deps, who("previewer"), PERSONAL, input.text, "en", "orgElsewhere"))).code,
    ).toBe("scopeChanged");
    expect(await itemsOf(u.id)).toEqual([]);
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
    expect((await itemsOf(admin.id)).map((r) => [r.name, r.organisationId, r.assignedTo])).toEqual([
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

describe("sticker codes (decision 036)", () => {
  async function batch(size: number, prepaidMonths: 6 | 12 | null) {
    const staff = await user();
    const id = await createBatch(deps, staff.id, { size, prepaidMonths, label: "Drawer" });
    return (await getBatch(deps, id)).stickers;
  }

  it("a row with a printed sticker's code claims it: the item takes its id and code, unpaid", async () => {
    const u = await user();
    const [s] = await batch(1, null);
    const typed = formatStickerCode(s!.code).toLowerCase();
    await importFile(
      u.id,
      PERSONAL,
      `name,type,fee,sticker code\nLaptop,laptop,100,${typed}\nKeys,other,0,\n`,
      "R",
      "en",
    );
    const rows = await itemsOf(u.id);
    expect(rows.find((r) => r.name === "Laptop")).toMatchObject({ id: s!.id, code: s!.code, paidUntil: null });
    expect(rows.find((r) => r.name === "Keys")!.id).not.toBe(s!.id);
    const [after] = (await getBatch(deps, s!.batchId)).stickers;
    expect(after).toMatchObject({ productId: s!.id });
    expect(after!.claimedAt).toBe(deps.clock());
  });

  it("in a file with an id column (an export) the sticker codes are not read, even one that could be claimed", async () => {
    // What the import help says (decision 057): id never read; sticker codes read
    // unless the file has an id column.
    const u = await user();
    const [s] = await batch(1, null);
    await importFile(u.id, PERSONAL, `id,name,type,fee,sticker code\nX1,Laptop,laptop,100,${s!.code}\n`, "R", "en");
    const [row] = await itemsOf(u.id);
    expect(row!.name).toBe("Laptop");
    expect(row!.id).not.toBe(s!.id);
    expect(row!.id).not.toBe("X1");
    expect(row!.code).not.toBe(s!.code);
    expect((await getBatch(deps, s!.batchId)).stickers[0]!.claimedAt).toBeNull();
  });

  it("a prepaid sticker's item is active for its months from the import", async () => {
    const u = await user();
    const [s] = await batch(1, 12);
    await importFile(u.id, PERSONAL, `namn;typ;hittelön;klistermärkeskod\nDator;dator;100;${s!.code}\n`, "R", "sv");
    const [row] = await itemsOf(u.id);
    expect(row).toMatchObject({ id: s!.id, payed: 1 });
    expect(Number(row!.paidUntil)).toBe(addMonths(deps.clock(), 12));
  });

  it("a wrong, claimed or voided code is a row error with the code shown, one message for all; nothing is saved", async () => {
    const u = await user();
    const [claimed, voided, free] = await batch(3, null);
    await importFile(u.id, PERSONAL, `name,type,fee,sticker code\nFirst,other,1,${claimed!.code}\n`, "R", "en");
    await voidSticker(deps, voided!.batchId, voided!.code);
    const text =
      `name,type,fee,sticker code\nA,other,1,${claimed!.code}\nB,other,1,${voided!.code}\n` +
      `C,other,1,K7M-29Q-XHR\nD,other,1,not a code\nE,other,1,${free!.code}\n`;
    const err = await importError(importFile(u.id, PERSONAL, text, "R", "en"));
    expect(err.code).toBe("invalidRows");
    const preview = await previewImport(deps, who(u.id), PERSONAL, text, "en");
    expect(preview.errors).toEqual([
      {
        row: 2,
        column: "stickerCode",
        message: "csv.errors.stickerNotClaimable",
        value: formatStickerCode(claimed!.code),
      },
      {
        row: 3,
        column: "stickerCode",
        message: "csv.errors.stickerNotClaimable",
        value: formatStickerCode(voided!.code),
      },
      { row: 4, column: "stickerCode", message: "csv.errors.stickerNotClaimable", value: "K7M-29Q-XHR" },
      { row: 5, column: "stickerCode", message: "csv.errors.stickerNotClaimable", value: "not a code" },
    ]);
    expect(preview.total).toBe(5);
    expect((await itemsOf(u.id)).map((r) => r.name)).toEqual(["First"]);
    expect((await getBatch(deps, free!.batchId)).stickers.find((s) => s.id === free!.id)!.claimedAt).toBeNull();
  });

  it("a code on two rows of one file is an error on the second, naming the first", async () => {
    const u = await user();
    const [s] = await batch(1, null);
    const text = `name,type,fee,sticker code\nA,other,1,${s!.code}\nB,other,1,${formatStickerCode(s!.code)}\n`;
    const preview = await previewImport(deps, who(u.id), PERSONAL, text, "en");
    expect(preview.errors).toEqual([
      {
        row: 3,
        column: "stickerCode",
        message: "csv.errors.stickerCodeTwice",
        params: { row: 2 },
        value: formatStickerCode(s!.code),
      },
    ]);
    expect((await importError(importFile(u.id, PERSONAL, text, "R", "en"))).code).toBe("invalidRows");
    expect(await itemsOf(u.id)).toEqual([]);
  });

  it("all or nothing: a sticker claimed between the check and the insert saves no item and claims no sticker", async () => {
    const u = await user();
    const [a, b] = await batch(2, 6);
    const text = `name,type,fee,sticker code\nA,other,1,${a!.code}\nB,other,1,${b!.code}\n`;
    // Another claim wins `b` while this import runs: its check passed, its transaction must not.
    const raceDeps = {
      ...deps,
      db: new Proxy(deps.db, {
        get(target, prop, receiver) {
          if (prop === "transaction") {
            return () => ({
              execute: async (fn: (trx: typeof deps.db) => Promise<unknown>) => {
                await deps.db
                  .updateTable("stickers")
                  .set({ claimedAt: 1, productId: b!.id })
                  .where("id", "=", b!.id)
                  .execute();
                return target.transaction().execute(fn);
              },
            });
          }
          const value = Reflect.get(target, prop, receiver) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }),
    };
    const err = await importError(
      importItems(raceDeps, who(u.id), PERSONAL, { text, contactInfo: "R", previewedScope: scopeKey(PERSONAL) }, "en"),
    );
    expect(err.code).toBe("invalidRows");
    expect(await itemsOf(u.id)).toEqual([]);
    expect((await getBatch(deps, a!.batchId)).stickers.find((s) => s.id === a!.id)!.claimedAt).toBeNull();
  });

  it("an exported file imported again does not read its sticker codes: new items with new codes", async () => {
    const u = await user();
    await importFile(u.id, PERSONAL, "name,type,fee\nLamp,other,5\n", "R", "en");
    const exported = await csvText(exportItems(deps, u.id, PERSONAL, "en"));
    const copy = await user();
    await importFile(copy.id, PERSONAL, exported, "R", "en");
    const [mine, theirs] = [(await itemsOf(u.id))[0]!, (await itemsOf(copy.id))[0]!];
    expect(theirs.name).toBe("Lamp");
    expect(theirs.code).not.toBe(mine.code);
  });

  it("wrong codes count against the claim limits, per user and per address; good codes cost nothing", async () => {
    await deps.close();
    deps = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" });
    const u = await user();
    const good = await batch(CLAIM_USER_RULE.limit + 5, null);
    const wrong = (i: number) => `W${i},other,1,K7M-29Q-XH${"ABCDEFGHJKMN"[i]}`;
    const file = (rows: string[]) => `name,type,fee,sticker code\n${rows.join("\n")}\n`;
    // Nine wrong codes are answered (nine tries spent); the tenth file's two are one too many.
    const nine = Array.from({ length: CLAIM_USER_RULE.limit - 1 }, (_, i) => wrong(i));
    expect((await previewImport(deps, who(u.id), PERSONAL, file(nine), "en")).errorCount).toBe(nine.length);
    const err = await importError(previewImport(deps, who(u.id), PERSONAL, file([wrong(10), wrong(11)]), "en"));
    expect(err).toMatchObject({ code: "claimRateLimited", params: { count: 15 } });
    expect(importErrors[err.code].status).toBe(429);
    // Good codes still import, all of them at once.
    const all = good.map((s, i) => `G${i},other,1,${s.code}`);
    expect((await importFile(u.id, PERSONAL, file(all), "R", "en")).count).toBe(good.length);
    // The same address under another account is limited too.
    const other = await user();
    expect((await importError(previewImport(deps, who(other.id), PERSONAL, file([wrong(0)]), "en"))).code).toBe(
      "claimRateLimited",
    );
  });
});
