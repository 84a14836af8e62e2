/**
 * Reading an uploaded item CSV (decision 023) into records: the encoding, the separator,
 * the header's columns. The parsing itself is csv-parse's (quotes, doubled quotes, line
 * breaks inside quoted fields). What makes the whole file unreadable is an ImportError;
 * each row's own rules are csv-rows.server.ts's.
 */
import { CsvError, parse } from "csv-parse/sync";
import type { Lang } from "~/i18n/config";
import {
  CSV_MAX_BYTES,
  CSV_MAX_ROWS,
  IMPORT_COLUMNS,
  REQUIRED_COLUMNS,
  type CsvColumn,
  type ImportColumn,
} from "~/lib/domain/item-csv";
import { columnByName, columnName, normalise } from "./csv-names.server";
import { ImportError } from "./import-error.server";

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
    if (normalise(cell) === "") {
      out.push("");
      continue;
    }
    const column = columnByName(cell);
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
