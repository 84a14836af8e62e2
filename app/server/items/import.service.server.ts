/**
 * CSV import and export of items (decision 023). Rules: every row is
 * checked and every problem reported; nothing is saved unless the whole file is valid;
 * then all items are created in one transaction, each exactly as the product form creates
 * one. No HTTP here (decision 011).
 */
import type { Lang } from "~/i18n/config";
import { stockholmIsoDay } from "~/lib/domain/dates";
import { countPhotosOfItems } from "../photos/photos.service.server";
import { currencyForLang } from "~/lib/domain/currency";
import { DPA_VERSION } from "~/lib/domain/dpa";
import { newItemId } from "~/lib/domain/ids";
import { PREVIEW_ERRORS, PREVIEW_ROWS, type ImportPreview, type ImportRow } from "~/lib/domain/item-csv";
import { isItemPaid } from "~/lib/domain/paid";
import { DEFAULT_PERIOD } from "~/lib/domain/pricing";
import { newStickerCode } from "~/lib/domain/sticker-code";
import { can, PERSONAL_SCOPE } from "~/lib/domain/organisation-roles";
import type { Deps } from "../service-deps.server";
import { findOrganisation, listMembers } from "../organisations/organisations.repository.server";
import { hasDpaAcceptance } from "../organisations/dpa.repository.server";
import { resolveScope, type Scope } from "../organisations/scope.server";
import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import {
  claimableByCodes,
  claimStickersIn,
  StickerError,
  type Claimable,
  type Claimant,
} from "../stickers/stickers.service.server";
import { addMonths } from "~/lib/domain/pricing";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { decodeCsv, parseItemCsv } from "./csv-read.server";
import { stickerCodeError, validateRecords } from "./csv-rows.server";
import { exportCsvHeader, exportCsvRows, templateCsv } from "./csv-write.server";
import { ImportError } from "./import-error.server";
import {
  countImported,
  insertItems,
  listScopeItemsPage,
  type NewItem,
  type ScopeFilter,
} from "./import.repository.server";

export { ImportError, type ImportErrorCode } from "./import-error.server";

export type { Scope as CsvScope } from "../organisations/scope.server";

/**
 * The active scope for the CSV pages: the personal account, or the organisation the scope
 * cookie names if the user is a member (checked in the database). ImportError forbidden
 * for an organisation's plain member: only its admins import and export.
 */
export async function csvScope(
  deps: Pick<Deps, "db">,
  userId: string,
  scopeCookie: string | null | undefined,
): Promise<Scope> {
  const scope = await resolveScope(deps.db, userId, scopeCookie);
  if (!can(scope, "csv")) throw new ImportError("forbidden");
  return scope;
}

/** The scope as a form value: the confirm step must be for the scope the preview was for. */
export function scopeKey(scope: Scope): string {
  return scope.kind === "personal" ? PERSONAL_SCOPE : scope.organisationId;
}

function scopeFilter(userId: string, scope: Scope): ScopeFilter {
  return scope.kind === "personal" ? { owner: userId, organisationId: null } : { organisationId: scope.organisationId };
}

/** Who rows may assign, by lower-cased email: nobody in the personal scope, else the members. */
async function assignableIn(deps: Pick<Deps, "db">, scope: Scope): Promise<Map<string, string> | null> {
  if (scope.kind === "personal") return null;
  const members = await listMembers(deps.db, scope.organisationId);
  return new Map(members.map((m) => [m.email.toLowerCase(), m.userId]));
}

/**
 * The contact text the import form starts with: an organisation's lost-and-found desk;
 * empty for the personal account (each user chooses it on the form).
 */
export async function defaultImportContact(deps: Pick<Deps, "db">, scope: Scope): Promise<string> {
  if (scope.kind === "personal") return "";
  return (await findOrganisation(deps.db, scope.organisationId))?.deskContact ?? "";
}

/**
 * Confirmed imports per user and hour. One import makes up to CSV_MAX_ROWS items; the
 * preview and a refused file save nothing and are not counted.
 */
export const IMPORT_RATE_RULE: RateRule = { name: "csv-import:user", limit: 10, windowMs: 60 * 60_000 };

/**
 * The preview and the confirmation name the scope they are for; when it is no longer the
 * active one (the user switched in another tab), items would land somewhere the preview
 * did not say: refused.
 */
function requireScope(scope: Scope, previewedScope: string | undefined) {
  if (previewedScope !== undefined && previewedScope !== scopeKey(scope)) throw new ImportError("scopeChanged");
}

async function checkFile(
  deps: Pick<Deps, "db" | "config" | "clock">,
  who: Claimant,
  scope: Scope,
  text: string,
  lang: Lang,
) {
  // An organisation's items hold its employees' data: agreement first (decision 030).
  if (scope.kind === "organisation" && !(await hasDpaAcceptance(deps.db, scope.organisationId, DPA_VERSION))) {
    throw new ImportError("dpaRequired");
  }
  const parsed = parseItemCsv(text, lang);
  const members = await assignableIn(deps, scope);
  const checked = validateRecords(parsed.records, members && new Set(members.keys()));
  const stickers = await checkStickers(deps, who, checked.rows);
  const rows = checked.rows.filter((r) => !r.stickerCode || stickers.has(r.stickerCode));
  const wrong = checked.rows
    .filter((r) => r.stickerCode && !stickers.has(r.stickerCode))
    .map((r) => stickerCodeError(r.row, formatStickerCode(r.stickerCode)));
  const errors = [...checked.errors, ...wrong].sort((a, b) => a.row - b.row);
  return { rows, errors, members, stickers };
}

/**
 * The rows' sticker codes that can be claimed (decision 036). Wrong, claimed and voided
 * ones count against the claim limits, the preview's as the confirmation's (both show
 * which codes were refused); past them the file is refused as a whole.
 */
async function checkStickers(
  deps: Pick<Deps, "db" | "config" | "clock">,
  who: Claimant,
  rows: ImportRow[],
): Promise<Map<string, Claimable>> {
  const codes = rows.map((r) => r.stickerCode).filter((c) => c !== "");
  try {
    return await claimableByCodes(deps, who, codes);
  } catch (err) {
    if (err instanceof StickerError && err.code === "claim.rateLimited") {
      throw new ImportError("claimRateLimited", err.params);
    }
    throw err;
  }
}

/**
 * The preview: how many rows, the first ones, and every error. ImportError for a file
 * that cannot be read as a whole; scopeChanged when `previewedScope` (the key a posted-back
 * form carries) is not the active scope.
 */
export async function previewImport(
  deps: Pick<Deps, "db" | "config" | "clock">,
  who: Claimant,
  scope: Scope,
  text: string,
  lang: Lang,
  previewedScope?: string,
): Promise<ImportPreview> {
  requireScope(scope, previewedScope);
  const { rows, errors } = await checkFile(deps, who, scope, text, lang);
  return {
    total: rows.length + new Set(errors.map((e) => e.row)).size,
    rows: errors.length === 0 ? rows.slice(0, PREVIEW_ROWS) : [],
    errors: errors.slice(0, PREVIEW_ERRORS),
    errorCount: errors.length,
  };
}

/**
 * The upload step: the file's bytes as text (UTF-8, else Windows-1252) and its preview.
 * ImportError noFile when no file was sent.
 */
export async function previewUpload(
  deps: Pick<Deps, "db" | "config" | "clock">,
  who: Claimant,
  scope: Scope,
  bytes: Uint8Array | null,
  lang: Lang,
): Promise<{ text: string; preview: ImportPreview }> {
  if (bytes === null) throw new ImportError("noFile");
  const text = decodeCsv(bytes);
  return { text, preview: await previewImport(deps, who, scope, text, lang) };
}

export interface ImportResult {
  count: number;
  /** The items' common creation time: the result page counts them by it. */
  batch: number;
}

export interface ImportInput {
  /** The file's text, posted back by the preview's Confirm form. */
  text: string;
  /** The contact text every imported item gets (the import form asks for it). */
  contactInfo: string;
  /** The scope key the preview was made in (scopeKey). */
  previewedScope: string;
}

/**
 * Imports the file: checked again in full (the text comes back from the browser, so the
 * preview proves nothing), then every item created in one transaction. ImportError
 * scopeChanged when the active scope is not the previewed one; invalidRows when any row
 * is wrong (previewImport lists them); rateLimited past IMPORT_RATE_RULE. Nothing is saved
 * then.
 */
export async function importItems(
  deps: Pick<Deps, "db" | "clock" | "config" | "events">,
  who: Claimant,
  scope: Scope,
  input: ImportInput,
  lang: Lang,
): Promise<ImportResult> {
  requireScope(scope, input.previewedScope);
  const userId = who.userId;
  const { rows, errors, members, stickers } = await checkFile(deps, who, scope, input.text, lang);
  if (errors.length > 0) throw new ImportError("invalidRows", { count: errors.length });
  const now = deps.clock();
  const limit = await rateLimiter(deps.config, deps.db)(IMPORT_RATE_RULE, userId, now);
  if (!limit.ok) throw new ImportError("rateLimited", { count: limit.retryAfterMinutes });
  const { contactInfo } = input;
  // A row with a printed sticker takes its id and code, and a prepaid one's months from now
  // (as a single claim does, decision 036).
  const toItem = (row: ImportRow): NewItem => {
    const sticker = row.stickerCode ? stickers.get(row.stickerCode) : undefined;
    const paidUntil = sticker?.prepaidMonths ? addMonths(now, sticker.prepaidMonths) : null;
    return {
      id: sticker?.id ?? newItemId(),
      code: sticker?.code ?? newStickerCode(),
      owner: userId,
      name: row.name,
      findFee: row.findFee,
      currency: currencyForLang(lang),
      prodType: row.prodType,
      contactInfo,
      contactVisibility: row.contactVisibility,
      payment: DEFAULT_PERIOD,
      payed: paidUntil !== null,
      paidUntil,
      createdAt: now,
      updatedAt: now,
      active: true,
      scanAlerts: false,
      approxValue: null,
      organisationId: scope.kind === "organisation" ? scope.organisationId : null,
      assignedTo: (row.assignedEmail && members?.get(row.assignedEmail)) || null,
    };
  };
  const stickerIds = rows.flatMap((r) => (r.stickerCode ? [stickers.get(r.stickerCode)!.id] : []));
  // 62^10 ids and 31^9 codes: a collision with an existing item is practically impossible,
  // and would fail the whole transaction (unique keys), so the file is tried again with
  // fresh ids, as createItem does for one item.
  for (let attempt = 0; ; attempt++) {
    try {
      await deps.db.transaction().execute(async (trx) => {
        // A sticker claimed by someone else since the check: nothing is saved, and the
        // preview shown again names its row.
        if (!(await claimStickersIn({ db: trx }, stickerIds, now))) throw new ImportError("invalidRows", { count: 1 });
        const items = rows.map(toItem);
        await insertItems(trx, items);
        for (const item of items.filter((i) => stickerIds.includes(i.id))) {
          await deps.events.emit("stickerClaimed", { itemId: item.id, code: item.code, at: now }, { ...deps, db: trx });
        }
      });
      return { count: rows.length, batch: now };
    } catch (err) {
      if (err instanceof ImportError) throw err;
      if (attempt >= 2 || !/unique|duplicate/i.test(String((err as Error).message))) throw err;
    }
  }
}

/** One POST of the import page: the upload of a file, or the confirmation of its preview. */
export type ImportSubmission =
  { intent: "preview"; bytes: Uint8Array | null } | { intent: "import"; text: string; previewedScope: string };

export type ImportOutcome =
  | { kind: "imported"; batch: number }
  /** The rows and every error; `csv` is the text for the next Confirm, empty while rows are wrong. */
  | { kind: "preview"; preview: ImportPreview; csv: string };

/**
 * The import page's whole flow in one call (decision 023): an upload is previewed; a
 * confirmation imports when the contact text is valid (`contactInfo` null when the form
 * refused it) and is otherwise previewed again, to be confirmed with a corrected one; a
 * confirmation with a wrong row answers the preview of every row error. Other ImportErrors
 * are thrown for the route to map.
 */
export async function submitImport(
  deps: Pick<Deps, "db" | "clock" | "config" | "events">,
  who: Claimant,
  scope: Scope,
  submission: ImportSubmission,
  contactInfo: string | null,
  lang: Lang,
): Promise<ImportOutcome> {
  const previewed = (preview: ImportPreview, text: string): ImportOutcome => ({
    kind: "preview",
    preview,
    csv: preview.errorCount > 0 ? "" : text,
  });
  if (submission.intent === "preview") {
    const { text, preview } = await previewUpload(deps, who, scope, submission.bytes, lang);
    return previewed(preview, text);
  }
  const { text, previewedScope } = submission;
  if (contactInfo === null) return previewed(await previewImport(deps, who, scope, text, lang, previewedScope), text);
  try {
    const { batch } = await importItems(deps, who, scope, { text, contactInfo, previewedScope }, lang);
    return { kind: "imported", batch };
  } catch (err) {
    if (!(err instanceof ImportError) || err.code !== "invalidRows") throw err;
    return previewed(await previewImport(deps, who, scope, text, lang), text);
  }
}

/** How many items an import made in this scope; 0 for a batch that is not the user's. */
export async function countImportedItems(
  deps: Pick<Deps, "db">,
  userId: string,
  scope: Scope,
  batch: number,
): Promise<number> {
  return countImported(deps.db, scopeFilter(userId, scope), batch);
}

/** Items per page of the export: memory stays flat however many the scope holds. */
export const EXPORT_PAGE = 1000;

/**
 * The scope's items as a CSV download in the user's language, written page by page as the
 * reader takes it (decision 042): the header first, then EXPORT_PAGE items at a time.
 */
export function exportItems(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  scope: Scope,
  lang: Lang,
): { chunks: AsyncIterable<string>; filename: string } {
  const now = deps.clock();
  const filter = scopeFilter(userId, scope);
  async function* chunks() {
    yield exportCsvHeader(lang);
    let after: { createdAt: number; id: string } | null = null;
    for (;;) {
      const items = await listScopeItemsPage(deps.db, filter, after, EXPORT_PAGE);
      if (items.length === 0) return;
      const photos = await countPhotosOfItems(
        deps,
        items.map((i) => i.id),
      );
      yield exportCsvRows(
        items.map((i) => ({ ...i, paid: isItemPaid(i, now), photos: photos.get(i.id) ?? 0 })),
        lang,
      );
      const last = items[items.length - 1]!;
      after = { createdAt: last.createdAt, id: last.id };
      if (items.length < EXPORT_PAGE) return;
    }
  }
  const day = stockholmIsoDay(now);
  return { chunks: chunks(), filename: `hittad-${lang === "sv" ? "saker" : "items"}-${day}.csv` };
}

/** The template offered on the import page. */
export function importTemplate(scope: Scope, lang: Lang): { csv: string; filename: string } {
  return {
    csv: templateCsv(lang, scope.kind !== "personal"),
    filename: lang === "sv" ? "hittad-mall.csv" : "hittad-template.csv",
  };
}
