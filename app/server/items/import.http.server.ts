/** The CSV import's errors as HTTP (decision 011): status and message per code. */
import type { HttpErrorTable } from "../http/errors.server";
import type { ImportErrorCode } from "./csv.server";

export const importErrors: HttpErrorTable<ImportErrorCode> = {
  // The active organisation is not one the user administers: like a page that is not there.
  forbidden: { status: 404, key: "csv.errors.forbidden" },
  invalidRows: { status: 422, key: "csv.errors.invalidRows" },
  scopeChanged: { status: 409, key: "csv.errors.scopeChanged" },
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
};
