/**
 * The API's own error (decision 054), codes only; api.http.server.ts maps each to a status,
 * a problem type and a translated `detail`. The services the API calls keep their own
 * errors (items, stickers, relay): their codes are answered as they are.
 *
 * notFound: no such thing in the key's organisation (another organisation's id included).
 * auth.missing / auth.invalid: no key, or one that is unknown, revoked or whose creator is
 * no longer an admin. scope.readOnly: a read key writing. input.invalid: the body or query
 * did not pass its schema (`params.fields` names them). body.invalid: not JSON. rateLimited:
 * past the key's requests a minute (`params.count`: seconds). idempotency.*: an
 * Idempotency-Key reused with another body, still being answered, or not a valid key.
 * route.notFound / method.notAllowed: no such endpoint or method. key.limit: too many live
 * keys (the page).
 */
import { ServiceError } from "../service-error.server";

export type ApiErrorCode =
  | "notFound"
  | "auth.missing"
  | "auth.invalid"
  | "scope.readOnly"
  | "input.invalid"
  | "body.invalid"
  | "rateLimited"
  | "idempotency.mismatch"
  | "idempotency.inProgress"
  | "idempotency.invalid"
  | "route.notFound"
  | "method.notAllowed"
  | "key.limit";

export class ApiError extends ServiceError<ApiErrorCode> {}
