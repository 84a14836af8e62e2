/**
 * The rules of an imported item CSV's rows (decision 023): the product form's own zod rules
 * for the name and the fee, so an imported item passes exactly what a typed one must; the
 * type, the visibility and the assigned member by name; a sticker code's form (whether it
 * can be claimed is the import service's check, decision 036). Every refusal is a row error
 * with the value refused, so the user sees what to correct.
 */
import type { ImportColumn, ImportRow, RowError } from "~/lib/domain/item-csv";
import { productFormSchema } from "~/lib/forms/product-form";
import { formatStickerCode, normalizeStickerCode } from "~/lib/domain/sticker-code";
import type { CsvRecord } from "./csv-read.server";
import { typeByName, visibilityByName } from "./csv-names.server";

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
  const prodType = typeByName(f.type);
  if (!prodType) at("type", f.type === "" ? "csv.errors.typeRequired" : "csv.errors.typeInvalid");
  const fee = productFormSchema.shape.findFee.safeParse(normaliseFee(f.fee));
  if (!fee.success) {
    const key = fee.error.issues[0]?.message ?? "";
    at("fee", key.startsWith("items.") ? key : "items.form.errors.findFeeWhole");
  }
  const visibility = f.visibility === "" ? "public" : visibilityByName(f.visibility);
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
