/** Staff look-up errors as HTTP (decision 011). */
import type { HttpErrorTable } from "../http/errors.server";
import type { LookupErrorCode } from "./lookup.service.server";

export const lookupErrors: HttpErrorTable<LookupErrorCode> = {
  "query.invalid": { status: 400, key: "admin.lookup.errors.invalid" },
  notFound: { status: 404, key: "admin.lookup.errors.notFound" },
};
