import { describe, expect, it } from "vitest";
import { CSV_MAX_BYTES, CSV_MAX_ROWS } from "~/lib/domain/item-csv";
import { CSV_MAX_LINES, decodeCsv, parseItemCsv } from "./csv-read.server";
import { validateRecords, type Assignable } from "./csv-rows.server";
import { escapeFormula, itemsToCsv, templateCsv, type ExportItem } from "./csv-write.server";
import { ImportError } from "./import-error.server";

const utf8 = (s: string) => new TextEncoder().encode(s);

function check(text: string, assignable: Assignable = null) {
  return validateRecords(parseItemCsv(text, "en").records, assignable);
}

function fileError(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ImportError) return err;
    throw err;
  }
  throw new Error("no ImportError");
}

describe("reading the file", () => {
  it("a UTF-8 BOM (as Excel writes it) is not part of the first column's name", () => {
    const text = decodeCsv(utf8("\uFEFFname,type,fee\nPhone,mobile,100\n"));
    expect(check(text)).toEqual({
      rows: [
        {
          name: "Phone",
          prodType: "mobile",
          findFee: 100,
          assignedEmail: "",
          contactVisibility: "public",
          stickerCode: "",
          row: 2,
        },
      ],
      errors: [],
    });
  });

  it("a Windows-1252 file (Swedish Excel's 'CSV (semikolonavgränsad)') is read with its å, ä, ö", () => {
    // "namn;typ;hittelön\nNyckelknippa åäö;annat;100\n" as Windows-1252: one byte per letter.
    const cp1252 = (s: string) =>
      Uint8Array.from([...s].map((c) => ({ å: 0xe5, ä: 0xe4, ö: 0xf6 })[c] ?? c.charCodeAt(0)));
    const text = decodeCsv(cp1252("namn;typ;hittelön\nNyckelknippa åäö;annat;100\n"));
    expect(check(text).rows).toEqual([
      expect.objectContaining({
        name: "Nyckelknippa åäö",
        prodType: "other",
        findFee: 100,
        assignedEmail: "",
        contactVisibility: "public",
      }),
    ]);
  });

  it("a binary file (NUL bytes) is refused, not stored", () => {
    expect(fileError(() => decodeCsv(utf8("name\0,type\n"))).code).toBe("notText");
  });

  it("an empty file and a file over the size limit are refused", () => {
    expect(fileError(() => decodeCsv(new Uint8Array())).code).toBe("empty");
    expect(fileError(() => decodeCsv(new Uint8Array(CSV_MAX_BYTES + 1))).code).toBe("tooLarge");
    expect(fileError(() => parseItemCsv(" \n\n", "en")).code).toBe("empty");
  });

  it("semicolons (Swedish Excel) are detected from the header line", () => {
    const parsed = parseItemCsv("namn;typ;hittelön\nTelefon, svart;mobil;200\n", "en");
    expect(parsed.delimiter).toBe(";");
    expect(parsed.records[0]?.fields.name).toBe("Telefon, svart");
  });

  it("commas are detected even when a later line has more semicolons", () => {
    const parsed = parseItemCsv('name,type,fee\n"a;b;c;d",other,5\n', "en");
    expect(parsed.delimiter).toBe(",");
    expect(parsed.records[0]?.fields.name).toBe("a;b;c;d");
  });

  it("quoted fields keep the separator, doubled quotes and line breaks inside", () => {
    const parsed = parseItemCsv('namn;typ;hittelön\n"Dator; ""Bärbar""\nrad två";dator;300\n', "en");
    expect(parsed.records).toHaveLength(1);
    expect(parsed.records[0]?.fields.name).toBe('Dator; "Bärbar"\nrad två');
    // The row the spreadsheet shows: the header is row 1, a line break in a cell stays in its row.
    expect(parsed.records[0]?.row).toBe(2);
  });

  it("a line break inside a name becomes a space (names are one line)", () => {
    expect(check('name,type,fee\n"Laptop\r\nDell",laptop,5\n').rows[0]?.name).toBe("Laptop Dell");
  });

  it("CRLF and LF files give the same rows", () => {
    const lf = "name,type,fee,visibility\nA,mobile,1,private\nB,laptop,2,\n";
    expect(check(lf.replaceAll("\n", "\r\n"))).toEqual(check(lf));
  });

  it("Swedish headers and values, in any order and any case", () => {
    const { rows, errors } = check(
      "Synlighet;HITTELÖN;Typ;Namn\nprivat;50;Dator;Jobbdator\noffentlig;0;ANNAT;Nycklar\n",
    );
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      expect.objectContaining({
        name: "Jobbdator",
        prodType: "laptop",
        findFee: 50,
        assignedEmail: "",
        contactVisibility: "private",
      }),
      expect.objectContaining({
        name: "Nycklar",
        prodType: "other",
        findFee: 0,
        assignedEmail: "",
        contactVisibility: "public",
      }),
    ]);
  });

  it("blank lines are skipped but still counted in the row numbers", () => {
    const parsed = parseItemCsv("name,type,fee\nA,mobile,1\n\n,,\nB,mobile,x\n", "en");
    expect(parsed.records.map((r) => r.row)).toEqual([2, 5]);
  });

  it("the export-only columns (id, sticker code, paid until) are read and ignored", () => {
    const { rows } = check("id,name,sticker code,type,fee,paid until\nabc,Phone,K7M-29Q-XHR,mobile,10,2027-01-01\n");
    expect(rows[0]).toMatchObject({ name: "Phone", prodType: "mobile", findFee: 10 });
  });

  it("an unclosed quote makes the file malformed and names the line", () => {
    const err = fileError(() => parseItemCsv('name,type,fee\nA,mobile,1\n"B,mobile,2\n', "en"));
    expect(err.code).toBe("malformed");
    expect(err.params.line).toBeGreaterThanOrEqual(3);
  });

  it("missing, unknown and repeated columns refuse the file and name the column", () => {
    expect(fileError(() => parseItemCsv("name,type\nA,mobile\n", "en"))).toMatchObject({
      code: "missingColumns",
      params: { columns: "fee" },
    });
    // Named as the user's language writes them, not by internal key.
    expect(fileError(() => parseItemCsv("namn;synlighet\nA;privat\n", "sv"))).toMatchObject({
      code: "missingColumns",
      params: { columns: "typ, hittelön" },
    });
    expect(fileError(() => parseItemCsv("visibility\npublic\n", "en"))).toMatchObject({
      params: { columns: "name, type, fee" },
    });
    expect(fileError(() => parseItemCsv("name,type,fee,colour\nA,mobile,1,red\n", "en"))).toMatchObject({
      code: "unknownColumn",
      params: { column: "colour" },
    });
    expect(fileError(() => parseItemCsv("name,namn,type,fee\n", "en")).code).toBe("duplicateColumn");
  });

  it("a header without rows is refused", () => {
    expect(fileError(() => parseItemCsv("name,type,fee\n\n", "en")).code).toBe("noRows");
  });

  it("blank lines count against the row limit, and a file of them is refused before it is parsed", () => {
    // 2 MB of blank lines took csv-parse 52 s; counted first, they are refused at once.
    for (const filler of ["\n", "x\n", "\r\n", ",,\n"]) {
      const text = "name,type,fee\n" + filler.repeat(Math.floor(CSV_MAX_BYTES / filler.length) - 100);
      const started = performance.now();
      expect(fileError(() => parseItemCsv(text, "en")).code).toBe("tooManyRows");
      expect(performance.now() - started).toBeLessThan(1000);
    }
    const justOver = "name,type,fee\nA,mobile,1\n" + "\n".repeat(CSV_MAX_LINES);
    expect(fileError(() => parseItemCsv(justOver, "en")).code).toBe("tooManyRows");
    const margin =
      "name,type,fee\n" + "A,mobile,1\n".repeat(CSV_MAX_ROWS) + "\n".repeat(CSV_MAX_LINES - CSV_MAX_ROWS - 1);
    expect(parseItemCsv(margin, "en").records).toHaveLength(CSV_MAX_ROWS);
  });

  it(`more than ${CSV_MAX_ROWS} rows are refused`, () => {
    const text = "name,type,fee\n" + "A,mobile,1\n".repeat(CSV_MAX_ROWS + 1);
    expect(fileError(() => parseItemCsv(text, "en"))).toMatchObject({
      code: "tooManyRows",
      params: { max: CSV_MAX_ROWS },
    });
    expect(parseItemCsv("name,type,fee\n" + "A,mobile,1\n".repeat(CSV_MAX_ROWS), "en").records).toHaveLength(
      CSV_MAX_ROWS,
    );
  });
});

describe("row rules (the product form's own rules)", () => {
  it("every error of every row is reported with its row and column", () => {
    const { rows, errors } = check(
      [
        "name,type,fee,visibility,assigned member email",
        ",mobile,10,,", // 2: no name
        `${"x".repeat(81)},mobile,10,,`, // 3: name too long
        "A,phone,10,,", // 4: unknown type
        "B,,10,,", // 5: no type
        "C,mobile,,,", // 6: no fee
        "D,mobile,12.5,,", // 7: not whole
        "E,mobile,-3,,", // 8: negative
        "F,mobile,100001,,", // 9: too high
        "G,mobile,1,hidden,", // 10: bad visibility
        "H,mobile,1,,someone@example.com", // 11: assigned in the personal scope
        "I,mobile,1,,,extra", // 12: more values than columns
        "OK,other,100000,public,", // 13: valid
      ].join("\n"),
    );
    expect(errors.map((e) => [e.row, e.column, e.message])).toEqual([
      [2, "name", "items.form.errors.nameRequired"],
      [3, "name", "items.form.errors.nameTooLong"],
      [4, "type", "csv.errors.typeInvalid"],
      [5, "type", "csv.errors.typeRequired"],
      [6, "fee", "items.form.errors.findFeeRequired"],
      [7, "fee", "items.form.errors.findFeeWhole"],
      [8, "fee", "items.form.errors.findFeeWhole"],
      [9, "fee", "items.form.errors.findFeeTooHigh"],
      [10, "visibility", "csv.errors.visibilityInvalid"],
      [11, "assignedEmail", "csv.errors.assignPersonal"],
      [12, null, "csv.errors.extraFields"],
    ]);
    expect(rows.map((r) => r.name)).toEqual(["OK"]);
  });

  it("the app's own type labels are types in either language, any case (issue #32 point 12)", () => {
    const { rows, errors } = check(
      "name,type,fee\nA,Bärbar dator,1\nB,Mobiltelefon,1\nC,Annat,1\nD,mobile phone,1\nE,LAPTOP,1\nF,Other,1\n",
    );
    expect(errors).toEqual([]);
    expect(rows.map((r) => r.prodType)).toEqual(["laptop", "mobile", "other", "mobile", "laptop", "other"]);
  });

  it("a row error shows the refused value as written (issue #32 point 12)", () => {
    const { errors } = check(`name,type,fee,visibility\nA,Surfplatta,1,\n${"x".repeat(90)},mobile,12.5,hemlig\n`);
    expect(errors.map((e) => [e.row, e.column, e.value])).toEqual([
      [2, "type", "Surfplatta"],
      [3, "name", `${"x".repeat(59)}…`],
      [3, "fee", "12.5"],
      [3, "visibility", "hemlig"],
    ]);
  });

  it("a row with several problems reports each of them", () => {
    const { errors } = check("name,type,fee\n,tablet,abc\n");
    expect(errors.map((e) => e.column)).toEqual(["name", "type", "fee"]);
  });

  it("in an organisation, an assigned email must be one of its members (any case)", () => {
    const members = new Set(["anna@example.com"]);
    const { rows, errors } = check(
      "name,type,fee,assigned member email\nA,mobile,1,Anna@Example.com\nB,mobile,1,bob@example.com\nC,mobile,1,\n",
      members,
    );
    expect(rows.map((r) => [r.name, r.assignedEmail])).toEqual([
      ["A", "anna@example.com"],
      ["C", ""],
    ]);
    expect(errors).toEqual([
      { row: 3, column: "assignedEmail", message: "csv.errors.notMember", value: "bob@example.com" },
    ]);
  });
});

describe("fees written the Swedish way", () => {
  const fee = (v: string) => check(`name;type;fee\nA;mobile;${v}\n`);

  it("thousands separated by a space, a no-break space or a narrow no-break space are read", () => {
    for (const v of ["1 000", "1\u00a0000", "1\u202f000", "10 000", "100 000"]) {
      expect(fee(v).rows.map((r) => r.findFee)).toEqual([Number(v.replace(/\D/g, ""))]);
    }
  });

  it("a trailing kr, SEK or € is dropped", () => {
    for (const v of ["200 kr", "200kr", "1 000 kr", "200 SEK", "200 sek", "200 €", "200€", "1\u00a0000\u00a0kr"]) {
      expect(fee(v).rows.map((r) => r.findFee)).toEqual([v.startsWith("1") ? 1000 : 200]);
    }
  });

  it("decimals and misplaced separators are still refused by the product form's rule", () => {
    for (const v of ["12,50", "12.5", "1 00", "10 00 kr", "kr 200", "1,000", "200 dollars"]) {
      expect(fee(v).errors.map((e) => [e.column, e.message])).toEqual([["fee", "items.form.errors.findFeeWhole"]]);
    }
    expect(fee("kr").errors.map((e) => e.message)).toEqual(["items.form.errors.findFeeRequired"]);
  });
});

describe("writing the export", () => {
  const item = (over: Partial<ExportItem> = {}): ExportItem => ({
    id: "AbCdEfGhIj",
    code: "K7M29QXHR",
    name: "Phone",
    prodType: "mobile",
    findFee: 100,
    assignedEmail: null,
    contactVisibility: "public",
    paidUntil: null,
    paid: false,
    ...over,
  });

  it("cells that start with = + - @ are escaped against formula injection", () => {
    for (const v of ["=1+1", "+46", "-2", "@SUM(A1)", "\tx"]) expect(escapeFormula(v)).toBe(`'${v}`);
    expect(escapeFormula("Phone")).toBe("Phone");
    const csv = itemsToCsv([item({ name: '=HYPERLINK("http://evil.test","x")' })], "en");
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
  });

  it("English: BOM, commas, English names; Swedish: BOM, semicolons, Swedish names", () => {
    const en = itemsToCsv([item({ paid: true, paidUntil: Date.UTC(2027, 0, 15, 12) })], "en");
    expect(
      en.startsWith("\uFEFFname,type,fee,assigned member email,visibility,id,sticker code,paid until,photos\r\n"),
    ).toBe(true);
    expect(en).toContain("Phone,mobile,100,,public,AbCdEfGhIj,K7M-29Q-XHR,2027-01-15,0\r\n");
    const sv = itemsToCsv([item({ prodType: "laptop", contactVisibility: "private" })], "sv");
    expect(
      sv.startsWith(
        "\uFEFFnamn;typ;hittelön;tilldelad medlem (e-post);synlighet;id;klistermärkeskod;betald till;foton",
      ),
    ).toBe(true);
    expect(sv).toContain("Phone;dator;100;;privat;AbCdEfGhIj;K7M-29Q-XHR;;0\r\n");
  });

  it("an export reads back as the same names, types, fees and visibility, escaped names included", () => {
    const items = [
      item({ name: "-Ljus; lampa", prodType: "other", findFee: 0, contactVisibility: "private" }),
      item({ name: 'Dator "Bärbar"', prodType: "laptop", findFee: 250 }),
    ];
    for (const lang of ["en", "sv"] as const) {
      const text = decodeCsv(utf8(itemsToCsv(items, lang)).subarray(0));
      const { rows, errors } = check(text);
      expect(errors).toEqual([]);
      expect(rows.map((r) => [r.name, r.prodType, r.findFee, r.contactVisibility])).toEqual([
        ["-Ljus; lampa", "other", 0, "private"],
        ['Dator "Bärbar"', "laptop", 250, "public"],
      ]);
    }
  });

  it("the template imports without errors in both languages", () => {
    for (const lang of ["en", "sv"] as const) {
      expect(check(decodeCsv(utf8(templateCsv(lang, false)))).errors).toEqual([]);
      expect(
        check(decodeCsv(utf8(templateCsv(lang, true))), new Set(["anna@example.com", "anna@exempel.se"])).errors,
      ).toEqual([]);
    }
  });
});
