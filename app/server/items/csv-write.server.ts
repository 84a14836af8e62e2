/**
 * Writing the item CSV (decision 023): the export, page by page, and the template, in the
 * user's language and with their Excel's separator; a value a spreadsheet would run as a
 * formula is written as text.
 */
import { stringify } from "csv-stringify/sync";
import type { Lang } from "~/i18n/config";
import { stockholmIsoDay } from "~/lib/domain/dates";
import { EXPORT_ONLY_COLUMNS, IMPORT_COLUMNS, type CsvColumn, type ImportColumn } from "~/lib/domain/item-csv";
import type { ItemType } from "~/lib/forms/product-form";
import type { ContactVisibility } from "~/lib/domain/relay-limits";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { columnName, typeName, visibilityName } from "./csv-names.server";

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
  return stringify([columns.map((c) => columnName(c, lang)), ...records.map((r) => r.map(escapeFormula))], {
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
        typeName(i.prodType, lang),
        String(i.findFee),
        i.assignedEmail ?? "",
        visibilityName(i.contactVisibility, lang),
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
      type: typeName(type, lang),
      fee: String(fee),
      assignedEmail: email,
      visibility: visibilityName(visibility, lang),
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
