/**
 * CSV import and export of items (issue #20 point 3, decision 023). Rules: every row is
 * checked and every problem reported; nothing is saved unless the whole file is valid;
 * then all items are created in one transaction, each exactly as the product form creates
 * one. No HTTP here (decision 011).
 */
import type { Lang } from "~/i18n/config";
import { currencyForLang } from "~/lib/currency";
import { newProductId } from "~/lib/ids";
import { PREVIEW_ERRORS, PREVIEW_ROWS, type ImportPreview, type ImportRow } from "~/lib/item-csv";
import { isItemPaid } from "~/lib/paid";
import { DEFAULT_PERIOD } from "~/lib/pricing";
import { newStickerCode } from "~/lib/sticker-code";
import type { Deps } from "../deps.server";
import { ImportError, itemsToCsv, parseItemCsv, templateCsv, validateRecords, type Assignable } from "./csv.server";
import {
  countImported,
  insertProducts,
  listScopeProducts,
  type NewProduct,
  type ScopeFilter,
} from "./import.repository.server";

export { ImportError, type ImportErrorCode } from "./csv.server";

/** The cookie naming the active scope (checked against the database on every request). */
export const SCOPE_COOKIE = "hittad.scope";

/** Where items are imported to and exported from: the user's own items. */
export type CsvScope = { kind: "personal" };

/**
 * The active scope for the CSV pages: the personal account.
 */
export async function csvScope(
  _deps: Pick<Deps, "db">,
  _userId: string,
  _scopeCookie: string | undefined,
): Promise<CsvScope> {
  return { kind: "personal" };
}

/** The scope as a form value: the confirm step must be for the scope the preview was for. */
export function scopeKey(_scope: CsvScope): string {
  return "personal";
}

function scopeFilter(userId: string, _scope: CsvScope): ScopeFilter {
  return { owner: userId };
}

/** Who rows may assign: nobody in the personal scope. */
async function assignableIn(_deps: Pick<Deps, "db">, _scope: CsvScope): Promise<Assignable> {
  return null;
}

async function checkFile(deps: Pick<Deps, "db">, userId: string, scope: CsvScope, text: string) {
  const parsed = parseItemCsv(text);
  return validateRecords(parsed.records, await assignableIn(deps, scope));
}

/**
 * The preview: how many rows, the first ones, and every error. ImportError for a file
 * that cannot be read as a whole.
 */
export async function previewImport(
  deps: Pick<Deps, "db">,
  userId: string,
  scope: CsvScope,
  text: string,
): Promise<ImportPreview> {
  const { rows, errors } = await checkFile(deps, userId, scope, text);
  return {
    total: rows.length + new Set(errors.map((e) => e.row)).size,
    rows: errors.length === 0 ? rows.slice(0, PREVIEW_ROWS) : [],
    errors: errors.slice(0, PREVIEW_ERRORS),
    errorCount: errors.length,
  };
}

export interface ImportResult {
  count: number;
  /** The items' common creation time: the result page counts them by it. */
  batch: number;
}

/**
 * Imports the file: checked again in full (the text comes back from the browser, so the
 * preview proves nothing), then every item created in one transaction. ImportError
 * invalidRows when any row is wrong (previewImport lists them): nothing is saved.
 * `contactInfo` is the contact text every imported item gets (the import form asks for it).
 */
export async function importItems(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  scope: CsvScope,
  text: string,
  contactInfo: string,
  lang: Lang,
): Promise<ImportResult> {
  const { rows, errors } = await checkFile(deps, userId, scope, text);
  if (errors.length > 0) throw new ImportError("invalidRows", { count: errors.length });
  const now = deps.clock();
  const toProduct = (row: ImportRow): NewProduct => ({
    id: newProductId(),
    code: newStickerCode(),
    owner: userId,
    name: row.name,
    findFee: row.findFee,
    currency: currencyForLang(lang),
    prodType: row.prodType,
    contactInfo,
    contactVisibility: row.contactVisibility,
    payment: DEFAULT_PERIOD,
    payed: false,
    paidUntil: null,
    createdAt: now,
    updatedAt: now,
    active: true,
    scanAlerts: false,
    approxValue: null,
  });
  // 62^10 ids and 31^9 codes: a collision with an existing item is practically impossible,
  // and would fail the whole transaction (unique keys), so the file is tried again with
  // fresh ids, as createItem does for one item.
  for (let attempt = 0; ; attempt++) {
    try {
      await insertProducts(deps.db, rows.map(toProduct));
      return { count: rows.length, batch: now };
    } catch (err) {
      if (attempt >= 2 || !/unique|duplicate/i.test(String((err as Error).message))) throw err;
    }
  }
}

/** How many items an import made in this scope; 0 for a batch that is not the user's. */
export async function countImportedItems(
  deps: Pick<Deps, "db">,
  userId: string,
  scope: CsvScope,
  batch: number,
): Promise<number> {
  return countImported(deps.db, scopeFilter(userId, scope), batch);
}

/** The scope's items as a CSV download in the user's language. */
export async function exportItems(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  scope: CsvScope,
  lang: Lang,
): Promise<{ csv: string; filename: string }> {
  const now = deps.clock();
  const items = await listScopeProducts(deps.db, scopeFilter(userId, scope));
  const csv = itemsToCsv(
    items.map((i) => ({ ...i, paid: isItemPaid(i, now) })),
    lang,
  );
  const day = new Date(now).toISOString().slice(0, 10);
  return { csv, filename: `hittad-${lang === "sv" ? "saker" : "items"}-${day}.csv` };
}

/** The template offered on the import page. */
export function importTemplate(scope: CsvScope, lang: Lang): { csv: string; filename: string } {
  return {
    csv: templateCsv(lang, scope.kind !== "personal"),
    filename: lang === "sv" ? "hittad-mall.csv" : "hittad-template.csv",
  };
}
