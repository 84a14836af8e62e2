/** Fulfilment errors as HTTP (decision 011). */
import { errorTable } from "../http/errors.server";
import { FulfilError, type FulfilErrorCode } from "./fulfil.service.server";

export const fulfilErrors = errorTable<FulfilErrorCode>(FulfilError, {
  "code.invalid": { status: 400, key: "fulfil.find.errors.invalid" },
  "code.unknown": { status: 404, key: "fulfil.find.errors.unknown" },
  "code.replaced": { status: 410, key: "fulfil.find.errors.replaced" },
  rateLimited: {
    status: 429,
    key: "fulfil.find.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 1) * 60) }),
  },
  "shipments.none": { status: 400, key: "fulfil.admin.errors.none" },
  "shipments.tooMany": { status: 400, key: "fulfil.admin.errors.tooMany" },
  "shipments.unknown": { status: 404, key: "fulfil.admin.errors.unknown" },
  "tracking.invalid": { status: 400, key: "fulfil.admin.errors.tracking" },
  "replacement.notFound": { status: 404, key: "fulfil.replacement.errors.notFound", on: "page" },
  "replacement.notPaid": { status: 400, key: "fulfil.replacement.errors.notPaid" },
  "replacement.limit": { status: 409, key: "fulfil.replacement.errors.limit" },
});
