/** Staff look-up errors as HTTP (decision 011). */
import { errorTable } from "../http/errors.server";
import { LookupError, type LookupErrorCode } from "./lookup.service.server";

export const lookupErrors = errorTable<LookupErrorCode>(LookupError, {
  "query.invalid": { status: 400, key: "admin.lookup.errors.invalid" },
  notFound: { status: 404, key: "admin.lookup.errors.notFound" },
});
