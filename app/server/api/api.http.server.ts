/**
 * The API's errors as HTTP (decisions 011, 054): RFC 9457 problem details
 * (`application/problem+json`) with `code`, the service's own error code, and `detail`
 * translated by Accept-Language. The features' tables give the status and the message of
 * their codes (an item's notFound, a claim's notClaimable, a relay's closed), so the API
 * answers them as the pages do; the API's own codes are in `apiErrors`.
 */
import { STATUS_CODES } from "node:http";
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { errorTable, httpErrorOf, isErrorOf, type HttpErrorTable } from "../http/errors.server";
import { itemErrors } from "../items/items.http.server";
import { orderErrors } from "../orders/orders.http.server";
import { relayErrors } from "../relay/relay.http.server";
import { scanErrors } from "../scans/scans.http.server";
import type { ServiceError } from "../service-error.server";
import { claimErrors } from "../stickers/stickers.http.server";
import { ApiError, type ApiErrorCode } from "./api-error.server";
import type { ApiProblem } from "./representation.server";

const retryAfter = (p: Record<string, string | number>) => ({ "Retry-After": String(p.count ?? 1) });

export const apiErrors = errorTable<ApiErrorCode>(ApiError, {
  notFound: { status: 404, key: "api.problems.notFound" },
  "auth.missing": {
    status: 401,
    key: "api.problems.authMissing",
    headers: () => ({ "WWW-Authenticate": 'Bearer realm="hittad"' }),
  },
  "auth.invalid": {
    status: 401,
    key: "api.problems.authInvalid",
    headers: () => ({ "WWW-Authenticate": 'Bearer realm="hittad", error="invalid_token"' }),
  },
  "scope.readOnly": { status: 403, key: "api.problems.readOnly" },
  "input.invalid": { status: 400, key: "api.problems.inputInvalid" },
  "body.invalid": { status: 400, key: "api.problems.bodyInvalid" },
  rateLimited: { status: 429, key: "api.problems.rateLimited", headers: retryAfter },
  "idempotency.mismatch": { status: 422, key: "api.problems.idempotencyMismatch" },
  "idempotency.inProgress": { status: 409, key: "api.problems.idempotencyInProgress", headers: retryAfter },
  "idempotency.invalid": { status: 400, key: "api.problems.idempotencyInvalid" },
  "route.notFound": { status: 404, key: "api.problems.routeNotFound" },
  "method.notAllowed": { status: 405, key: "api.problems.methodNotAllowed" },
  "key.limit": { status: 400, key: "api.keys.errors.limit" },
});

/** Every table whose codes the API answers; the first that knows a code answers it. */
const TABLES: readonly HttpErrorTable<string>[] = [
  apiErrors,
  itemErrors,
  claimErrors,
  relayErrors,
  scanErrors,
  orderErrors,
];

export const PROBLEM_TYPE = "application/problem+json";

/** The problem document of a service error, or null for anything else (a real 500). */
export function problemOf(
  err: unknown,
  lang: Lang,
  extra: Pick<ApiProblem, "errors"> = {},
): { status: number; body: ApiProblem; headers: HeadersInit } | null {
  const table = TABLES.find((t) => isErrorOf(t, err));
  if (!table) return null;
  const e = err as ServiceError<string>;
  const { status, message, headers } = httpErrorOf(table, e);
  const body: ApiProblem = {
    // RFC 9457's default type: the status says what kind of problem; `code` says which.
    type: "about:blank",
    title: STATUS_CODES[status] ?? "Error",
    status,
    detail: getT(lang)(message.key, message.params),
    code: e.code,
    ...extra,
  };
  return { status, body, headers };
}
