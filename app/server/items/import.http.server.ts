/** The CSV import's errors as HTTP (decision 011): status and message per code. */
import { data } from "react-router";
import { getDeps } from "../deps.server";
import { errorTable, httpErrorOf } from "../http/errors.server";
import { scopeCookieOf } from "../organisations/scope.http.server";
import { ImportError, type ImportErrorCode } from "./import-error.server";
import { csvScope } from "./import.service.server";

export const importErrors = errorTable<ImportErrorCode>(ImportError, {
  // The active organisation is not one the user administers: like a page that is not there.
  forbidden: { status: 404, key: "csv.errors.forbidden" },
  dpaRequired: { status: 409, key: "csv.errors.dpaRequired" },
  invalidRows: { status: 422, key: "csv.errors.invalidRows" },
  scopeChanged: { status: 409, key: "csv.errors.scopeChanged" },
  rateLimited: {
    status: 429,
    key: "csv.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 1) * 60) }),
  },
  claimRateLimited: {
    status: 429,
    key: "items.claim.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 1) * 60) }),
  },
  noFile: { status: 400, key: "csv.errors.noFile" },
  tooLarge: { status: 413, key: "csv.errors.tooLarge" },
  notText: { status: 400, key: "csv.errors.notText" },
  empty: { status: 400, key: "csv.errors.empty" },
  malformed: { status: 400, key: "csv.errors.malformed" },
  missingColumns: { status: 400, key: "csv.errors.missingColumns" },
  unknownColumn: { status: 400, key: "csv.errors.unknownColumn" },
  duplicateColumn: { status: 400, key: "csv.errors.duplicateColumn" },
  noRows: { status: 400, key: "csv.errors.noRows" },
  tooManyRows: { status: 400, key: "csv.errors.tooManyRows" },
});

/**
 * The scope of the CSV routes (import, export, template), one way for all three: the
 * scope cookie checked against membership in the database on every request. A plain
 * member of the active organisation gets the forbidden answer (404) thrown as a response.
 */
export async function csvScopeOf(request: Request, userId: string) {
  const deps = await getDeps();
  try {
    return { deps, scope: await csvScope(deps, userId, scopeCookieOf(request)) };
  } catch (err) {
    if (!(err instanceof ImportError)) throw err;
    const { status, message } = httpErrorOf(importErrors, err);
    throw data(message, { status });
  }
}
