/**
 * The item CSV format (decision 023): reading an uploaded file into
 * rows and per-row errors, and writing the export. The parsing itself is csv-parse's
 * (quotes, doubled quotes, line breaks inside quoted fields); this module decides the
 * encoding, the separator, the column names, and applies the product form's own zod rules
 * to every row, so an imported item passes exactly what a typed one must.
 */
import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import enItemTypes from "~/locales/en/itemTypes.json";
import svItemTypes from "~/locales/sv/itemTypes.json";
import type { Lang } from "~/i18n/config";
import { stockholmIsoDay } from "~/lib/domain/dates";
import {
  CSV_MAX_BYTES,
  CSV_MAX_ROWS,
  EXPORT_ONLY_COLUMNS,
  IMPORT_COLUMNS,
  REQUIRED_COLUMNS,
  type CsvColumn,
  type ImportColumn,
  type ImportRow,
  type RowError,
} from "~/lib/domain/item-csv";
import { productFormSchema, type ItemType } from "~/lib/forms/product-form";
import type { ContactVisibility } from "~/lib/domain/relay-limits";
import { formatStickerCode, normalizeStickerCode } from "~/lib/domain/sticker-code";
import { ServiceError } from "../service-error.server";

/**
 * The CSV feature's one error type (decision 011). The file codes say what is wrong with a
 * file as a whole (nothing of it is checked row by row then); `params` carry the line, the
 * limit or the column name the message names. `invalidRows`: the file has row errors, so
 * nothing was saved; `forbidden`: the active organisation is not one the user administers;
 * `scopeChanged`: the preview was for another scope than the active one; `rateLimited`:
 * too many confirmed imports in the last hour (`minutes` until the next is allowed).
 */
export type ImportErrorCode =
  | "forbidden"
  /** Decision 030: the organisation has not accepted the data processing agreement. */
  | "dpaRequired"
  | "invalidRows"
  | "scopeChanged"
  | "rateLimited"
  /** Too many wrong sticker codes (decision 036): the claim limits' answer; `count` minutes. */
  | "claimRateLimited"
  | "noFile"
  | "tooLarge"
  | "notText"
  | "empty"
  | "malformed"
  | "missingColumns"
  | "unknownColumn"
  | "duplicateColumn"
  | "noRows"
  | "tooManyRows";

export class ImportError extends ServiceError<ImportErrorCode> {}

/** Column names per language; the first is the one the export and the template write. */
const HEADERS: Record<CsvColumn, Record<Lang, string>> = {
  name: { en: "name", sv: "namn" },
  type: { en: "type", sv: "typ" },
  fee: { en: "fee", sv: "hittelön" },
  assignedEmail: { en: "assigned member email", sv: "tilldelad medlem (e-post)" },
  visibility: { en: "visibility", sv: "synlighet" },
  id: { en: "id", sv: "id" },
  stickerCode: { en: "sticker code", sv: "klistermärkeskod" },
  paidUntil: { en: "paid until", sv: "betald till" },
  // How many photos the item has (decision 035); the photos themselves are in "Download my data".
  photos: { en: "photos", sv: "foton" },
};

const TYPE_NAMES: Record<ItemType, Record<Lang, string>> = {
  mobile: { en: "mobile", sv: "mobil" },
  laptop: { en: "laptop", sv: "dator" },
  other: { en: "other", sv: "annat" },
};

const VISIBILITY_NAMES: Record<ContactVisibility, Record<Lang, string>> = {
  public: { en: "public", sv: "offentlig" },
  private: { en: "private", sv: "privat" },
};

/** Case, surrounding and repeated spaces, and Unicode composition do not matter in names. */
function normalise(s: string): string {
  return s.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

function lookup<K extends string>(table: Record<K, Record<Lang, string>>): Map<string, K> {
  const out = new Map<string, K>();
  for (const [key, names] of Object.entries(table) as [K, Record<Lang, string>][]) {
    out.set(normalise(names.en), key);
    out.set(normalise(names.sv), key);
  }
  return out;
}

const COLUMN_BY_NAME = lookup(HEADERS);
// The app's own labels ("Bärbar dator", "Mobile phone"), as a user copies them from the
// product form or the dashboard, are types too.
const TYPE_BY_NAME = new Map([...lookup(TYPE_NAMES), ...lookup(appTypeLabels())]);

function appTypeLabels(): Record<ItemType, Record<Lang, string>> {
  const labels = {} as Record<ItemType, Record<Lang, string>>;
  for (const type of Object.keys(TYPE_NAMES) as ItemType[]) {
    labels[type] = { en: enItemTypes[type], sv: svItemTypes[type] };
  }
  return labels;
}
const VISIBILITY_BY_NAME = lookup(VISIBILITY_NAMES);

/** The name of a column as a user of that language writes it (the template, the errors). */
export function columnName(column: CsvColumn, lang: Lang): string {
  return HEADERS[column][lang];
}

/**
 * The uploaded bytes as text: UTF-8 (with or without the BOM Excel writes), else
 * Windows-1252, which Swedish Excel's "CSV (semikolonavgränsad)" writes (å, ä, ö are
 * single bytes there, so strict UTF-8 decoding fails). Windows-1252 gives every byte a
 * character, so only NUL marks a binary file (and PostgreSQL cannot store it). At most
 * CSV_MAX_BYTES.
 */
export function decodeCsv(bytes: Uint8Array): string {
  if (bytes.byteLength === 0) throw new ImportError("empty");
  if (bytes.byteLength > CSV_MAX_BYTES) throw new ImportError("tooLarge", { mb: CSV_MAX_BYTES / 1024 / 1024 });
  if (bytes.includes(0)) throw new ImportError("notText");
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/**
 * Swedish Excel separates with `;` (the decimal comma takes `,`), English Excel with `,`:
 * the header line decides, by which of the two it has more of outside quotes.
 */
export function detectDelimiter(text: string): ";" | "," {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) break;
    else if (!quoted && c === ",") commas++;
    else if (!quoted && c === ";") semicolons++;
  }
  return semicolons > commas ? ";" : ",";
}

/** One data record: its spreadsheet row number and its fields by column ("" when absent). */
export interface CsvRecord {
  row: number;
  fields: Record<ImportColumn, string>;
  /** More fields than the header has columns (an unquoted separator in a value). */
  extraFields: boolean;
}

export interface ParsedCsv {
  delimiter: ";" | ",";
  columns: ImportColumn[];
  /** Data records, blank lines left out (but counted in the row numbers). */
  records: CsvRecord[];
}

/**
 * The text as records, with the header mapped to columns. Throws ImportError for what
 * makes the whole file unreadable: broken quoting, a missing, unknown or repeated column,
 * no data, or more than CSV_MAX_ROWS rows.
 */
export function parseItemCsv(input: string, lang: Lang): ParsedCsv {
  // A form posted back (the confirm step) has CRLF line breaks wherever the file had LF;
  // one kind of line break makes both parse to the same values.
  const text = (input.charCodeAt(0) === 0xfeff ? input.slice(1) : input).replace(/\r\n?/g, "\n");
  if (text.trim() === "") throw new ImportError("empty");
  // The confirm step's text comes from the browser: the same limit as the upload.
  if (Buffer.byteLength(text, "utf8") > CSV_MAX_BYTES) {
    throw new ImportError("tooLarge", { mb: CSV_MAX_BYTES / 1024 / 1024 });
  }
  // Counted before parsing, blank lines included: csv-parse is slow on many short lines
  // (2 MB of blank lines took it 52 s), so no text with more lines than a full file may
  // have reaches it, and `to_line` stops it there in any case.
  if (countLines(text) > CSV_MAX_LINES) throw new ImportError("tooManyRows", { max: CSV_MAX_ROWS });
  const delimiter = detectDelimiter(text);
  let raw: string[][];
  try {
    raw = parse(text, {
      delimiter,
      relax_column_count: true,
      // `5" screen` unquoted keeps its quote instead of failing the file.
      relax_quotes: true,
      skip_empty_lines: false,
      to_line: CSV_MAX_LINES,
    }) as string[][];
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const line = (err as CsvError & { lines?: number }).lines ?? 0;
    throw new ImportError("malformed", { line });
  }
  const [header = [], ...body] = raw;
  const columns = headerColumns(header, lang);
  // An export imported again carries its items' own codes beside their ids: not claims.
  const exported = columns.includes("id");

  const records: CsvRecord[] = [];
  for (const [i, values] of body.entries()) {
    if (values.every((v) => v.trim() === "")) continue;
    if (records.length === CSV_MAX_ROWS) throw new ImportError("tooManyRows", { max: CSV_MAX_ROWS });
    const fields = { name: "", type: "", fee: "", assignedEmail: "", visibility: "", stickerCode: "" };
    let extraFields = false;
    values.forEach((value, col) => {
      const column = columns[col];
      if (column === "stickerCode" && exported) return;
      if (isImportColumn(column)) fields[column] = value;
      // A value beyond the named columns: an unquoted separator inside a value, most likely.
      else if (column === undefined || column === "") extraFields ||= value.trim() !== "";
    });
    records.push({ row: i + 2, fields, extraFields });
  }
  if (records.length === 0) throw new ImportError("noRows");
  return {
    delimiter,
    columns: columns.filter(isImportColumn).filter((c) => !(exported && c === "stickerCode")),
    records,
  };
}

/**
 * The most lines a file may have: the header, CSV_MAX_ROWS rows, and a margin for blank
 * lines and line breaks inside quoted names. Beyond it the file is refused unparsed.
 */
export const CSV_MAX_LINES = CSV_MAX_ROWS + 1 + 200;

/** Line breaks in the (LF-only) text, plus one for a last line without one. */
function countLines(text: string): number {
  let lines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return text.endsWith("\n") ? lines : lines + 1;
}

function isImportColumn(c: CsvColumn | "" | undefined): c is ImportColumn {
  return c !== undefined && (IMPORT_COLUMNS as readonly string[]).includes(c);
}

/**
 * The header's columns in file order. An empty header cell (a trailing separator, as
 * spreadsheets write after an emptied column) is "" and must stay empty below.
 */
function headerColumns(header: string[], lang: Lang): (CsvColumn | "")[] {
  const seen = new Set<CsvColumn>();
  const out: (CsvColumn | "")[] = [];
  for (const cell of header) {
    const name = normalise(cell);
    if (name === "") {
      out.push("");
      continue;
    }
    const column = COLUMN_BY_NAME.get(name);
    if (!column) throw new ImportError("unknownColumn", { column: cell.trim().slice(0, 60) });
    if (seen.has(column)) throw new ImportError("duplicateColumn", { column: cell.trim().slice(0, 60) });
    seen.add(column);
    out.push(column);
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !seen.has(c));
  if (missing.length > 0) {
    throw new ImportError("missingColumns", { columns: missing.map((c) => columnName(c, lang)).join(", ") });
  }
  return out;
}

/**
 * Undoes the export's formula escaping: `'=SUM(…)` was written for the value `=SUM(…)`.
 * An apostrophe before anything else is kept.
 */
function unescapeFormula(v: string): string {
  return /^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v;
}

/**
 * A fee as people write it in a spreadsheet: "1 000" with a space, a no-break space
 * (U+00A0, what Swedish Excel writes) or a narrow one (U+202F) between groups of three
 * digits, and a currency after it ("200 kr", "200 SEK", "200 €"). Those become "1000" and
 * "200"; anything else (decimals included) is left for the product form's rule to refuse.
 */
export function normaliseFee(v: string): string {
  const amount = v.replace(/[\s\u00a0\u202f]*(?:kr\.?|sek|€)$/i, "");
  return /^\d{1,3}(?:[ \u00a0\u202f]\d{3})+$/.test(amount) ? amount.replace(/[ \u00a0\u202f]/g, "") : amount;
}

/** Who may be assigned: null in the personal scope (nobody), else the members' emails. */
export type Assignable = ReadonlySet<string> | null;

/** A refused cell as the error table shows it: at most 60 characters. */
function shorten(value: string): string {
  const chars = [...value];
  return chars.length > 60 ? `${chars.slice(0, 59).join("")}…` : value;
}

/** Rules of one row; the product form's zod rules for name and fee. */
function validateRecord(record: CsvRecord, assignable: Assignable): { row?: ImportRow; errors: RowError[] } {
  const errors: RowError[] = [];
  const f = Object.fromEntries(
    Object.entries(record.fields).map(([k, v]) => [k, unescapeFormula(v.trim()).trim()]),
  ) as Record<ImportColumn, string>;
  // The refused value goes with its error, so the user sees what to correct.
  const at = (column: ImportColumn | null, message: string, params?: RowError["params"]) =>
    errors.push({
      row: record.row,
      column,
      message,
      ...(params ? { params } : {}),
      ...(column === null ? {} : { value: shorten(f[column]) }),
    });

  if (record.extraFields) at(null, "csv.errors.extraFields");
  // A line break typed into a spreadsheet cell (Alt+Enter) becomes a space: names are one line.
  const name = productFormSchema.shape.name.safeParse(f.name.replace(/\s*[\r\n\t]+\s*/g, " "));
  if (!name.success) at("name", name.error.issues[0]?.message ?? "items.form.errors.nameRequired");
  const prodType = TYPE_BY_NAME.get(normalise(f.type));
  if (!prodType) at("type", f.type === "" ? "csv.errors.typeRequired" : "csv.errors.typeInvalid");
  const fee = productFormSchema.shape.findFee.safeParse(normaliseFee(f.fee));
  if (!fee.success) {
    const key = fee.error.issues[0]?.message ?? "";
    at("fee", key.startsWith("items.") ? key : "items.form.errors.findFeeWhole");
  }
  const visibility = f.visibility === "" ? "public" : VISIBILITY_BY_NAME.get(normalise(f.visibility));
  if (!visibility) at("visibility", "csv.errors.visibilityInvalid");
  const assignedEmail = f.assignedEmail.toLowerCase();
  if (assignedEmail !== "") {
    if (assignable === null) at("assignedEmail", "csv.errors.assignPersonal");
    else if (!assignable.has(assignedEmail)) at("assignedEmail", "csv.errors.notMember");
  }
  // Whether a well-formed code can be claimed is the import service's check (decision 036);
  // one that cannot be a code gets the same message as a wrong one.
  const stickerCode = f.stickerCode === "" ? "" : normalizeStickerCode(f.stickerCode);
  if (stickerCode === null) at("stickerCode", STICKER_NOT_CLAIMABLE);
  if (errors.length > 0 || !name.success || !prodType || !fee.success || !visibility || stickerCode === null) {
    return { errors };
  }
  return {
    row: {
      name: name.data,
      prodType,
      findFee: fee.data,
      assignedEmail,
      contactVisibility: visibility,
      stickerCode,
      row: record.row,
    },
    errors,
  };
}

/** One message for a sticker code that is wrong, claimed or voided (decision 036). */
export const STICKER_NOT_CLAIMABLE = "csv.errors.stickerNotClaimable";

/** A sticker code's row error, with the code as the file has it. */
export function stickerCodeError(
  row: number,
  value: string,
  message = STICKER_NOT_CLAIMABLE,
  params?: RowError["params"],
): RowError {
  return { row, column: "stickerCode", message, ...(params ? { params } : {}), value: shorten(value) };
}

/** Every record checked: the valid rows, and every error in row order. */
export function validateRecords(
  records: CsvRecord[],
  assignable: Assignable,
): { rows: ImportRow[]; errors: RowError[] } {
  const rows: ImportRow[] = [];
  const errors: RowError[] = [];
  const codeRows = new Map<string, number>();
  for (const record of records) {
    const r = validateRecord(record, assignable);
    const code = r.row?.stickerCode;
    // One sticker makes one item: the second row naming it is wrong.
    if (r.row && code && codeRows.has(code)) {
      const first = codeRows.get(code)!;
      errors.push(stickerCodeError(record.row, formatStickerCode(code), "csv.errors.stickerCodeTwice", { row: first }));
      continue;
    }
    if (r.row && code) codeRows.set(code, record.row);
    if (r.row) rows.push(r.row);
    errors.push(...r.errors);
  }
  return { rows, errors };
}

/** The export's separator: `;` for Swedish Excel (its list separator), `,` for English. */
export function delimiterFor(lang: Lang): ";" | "," {
  return lang === "sv" ? ";" : ",";
}

/**
 * Spreadsheets run a cell that starts with = + - @ (or tab / carriage return) as a
 * formula (CSV injection, OWASP): such a value is written with a leading apostrophe,
 * which shows it as text. The import takes the apostrophe off again.
 */
export function escapeFormula(v: string): string {
  return /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

export interface ExportItem {
  id: string;
  code: string;
  name: string;
  prodType: ItemType;
  findFee: number;
  assignedEmail: string | null;
  contactVisibility: ContactVisibility;
  paidUntil: number | null;
  paid: boolean;
  /** How many photos the item has (decision 035). */
  photos?: number;
}

function writeCsv(lang: Lang, columns: readonly CsvColumn[], records: string[][]): string {
  return stringify([columns.map((c) => HEADERS[c][lang]), ...records.map((r) => r.map(escapeFormula))], {
    delimiter: delimiterFor(lang),
    // Excel opens a UTF-8 file without a BOM as the local code page (å, ä, ö garbled).
    bom: true,
    record_delimiter: "\r\n",
  });
}

/** The export's columns, in the order files written before sticker claims had them. */
const ALL_COLUMNS: readonly CsvColumn[] = [
  ...IMPORT_COLUMNS.filter((c) => c !== "stickerCode"),
  "id",
  "stickerCode",
  ...EXPORT_ONLY_COLUMNS.filter((c) => c !== "id"),
];

/** The export's first bytes: the byte order mark and the header row in the user's language. */
export function exportCsvHeader(lang: Lang): string {
  return writeCsv(lang, ALL_COLUMNS, []);
}

/**
 * Rows of the export: the import's columns plus id, sticker code, paid until and the number
 * of photos, in the
 * user's language. "Paid until" is empty for an unpaid item, and for a paid one without an
 * end. Written page by page after exportCsvHeader (no byte order mark, no header).
 */
export function exportCsvRows(items: ExportItem[], lang: Lang): string {
  if (items.length === 0) return "";
  return stringify(
    items.map((i) =>
      [
        i.name,
        TYPE_NAMES[i.prodType][lang],
        String(i.findFee),
        i.assignedEmail ?? "",
        VISIBILITY_NAMES[i.contactVisibility][lang],
        i.id,
        formatStickerCode(i.code),
        i.paid && i.paidUntil !== null ? stockholmIsoDay(i.paidUntil) : "",
        String(i.photos ?? 0),
      ].map(escapeFormula),
    ),
    { delimiter: delimiterFor(lang), record_delimiter: "\r\n" },
  );
}

/** The whole export of a few items as one text (the header, then the rows). */
export function itemsToCsv(items: ExportItem[], lang: Lang): string {
  return exportCsvHeader(lang) + exportCsvRows(items, lang);
}

/** The downloadable template: the import's columns and two example rows. */
export function templateCsv(lang: Lang, withAssigned: boolean): string {
  // The template keeps to the columns every file needs; a sticker code column is added by
  // those who hold printed stickers (the import page says how).
  const columns = IMPORT_COLUMNS.filter((c) => c !== "stickerCode" && (withAssigned || c !== "assignedEmail"));
  const example = (name: string, type: ItemType, fee: number, email: string, visibility: ContactVisibility) => {
    const values: Record<ImportColumn, string> = {
      name,
      type: TYPE_NAMES[type][lang],
      fee: String(fee),
      assignedEmail: email,
      visibility: VISIBILITY_NAMES[visibility][lang],
      stickerCode: "",
    };
    return columns.map((c) => values[c]);
  };
  const sv = lang === "sv";
  return writeCsv(lang, columns, [
    example(sv ? "Telefon, Anna" : "Phone, Anna", "mobile", 200, sv ? "anna@exempel.se" : "anna@example.com", "public"),
    example(sv ? "Nycklar" : "Keys", "other", 100, "", "private"),
  ]);
}
