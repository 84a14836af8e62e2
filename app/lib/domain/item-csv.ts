/**
 * CSV import and export of items (decision 023): the limits, the columns and the
 * shapes the import page shows. Browser-safe (no parser here): the parsing and the rules
 * live in app/server/items/csv-*.server.ts and import.service.server.ts (decision 023), the
 * form's schema in item-csv-form.ts (zod stays out of the page's bundle).
 */
import type { ItemType } from "./item-types";
import type { ContactVisibility } from "./relay-limits";

/** The largest file the import takes (10,000 rows of typical items are about 0.6 MB). */
export const CSV_MAX_BYTES = 2 * 1024 * 1024;
/** The most data rows one file may have. */
export const CSV_MAX_ROWS = 10_000;
/** How many rows the preview shows as a table. */
export const PREVIEW_ROWS = 20;
/** How many row errors the preview lists; the rest are counted. */
export const PREVIEW_ERRORS = 500;

/**
 * The columns a file may have: these are imported, the rest are export-only. A sticker
 * code claims a printed sticker for the row's item (decision 036); in a file that has the
 * export's id column the codes are the exported items' own and are not read.
 */
export const IMPORT_COLUMNS = ["name", "type", "fee", "assignedEmail", "visibility", "stickerCode"] as const;
export const EXPORT_ONLY_COLUMNS = ["id", "paidUntil", "photos"] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
export type CsvColumn = ImportColumn | (typeof EXPORT_ONLY_COLUMNS)[number];
/** A file without these columns is refused as a whole. */
export const REQUIRED_COLUMNS: readonly ImportColumn[] = ["name", "type", "fee"];

/** One valid row, as it will be saved. */
export interface ImportRow {
  name: string;
  prodType: ItemType;
  findFee: number;
  /** Lower-cased; "" when the row assigns nobody. */
  assignedEmail: string;
  contactVisibility: ContactVisibility;
  /** The printed sticker the row claims, canonical; "" when none (decision 036). */
  stickerCode: string;
  /** The row number as a spreadsheet shows it. */
  row: number;
}

/**
 * One problem in one row. `row` is the row number as a spreadsheet shows it (the header
 * is row 1); `column` is null when the row as a whole is wrong; `message` is a
 * translation key with its params.
 */
export interface RowError {
  row: number;
  column: ImportColumn | null;
  message: string;
  params?: Record<string, string | number>;
  /** The refused cell as written (shortened), for a column's error. */
  value?: string;
}

/** What the preview step shows. */
export interface ImportPreview {
  /** Data rows in the file (empty lines not counted). */
  total: number;
  /** The first rows, for the table. */
  rows: ImportRow[];
  /** The first PREVIEW_ERRORS errors, in row order. */
  errors: RowError[];
  /** How many errors there are in all. */
  errorCount: number;
}
