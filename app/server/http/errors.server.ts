/**
 * Mapping a feature's error codes to HTTP (decision 011). Each feature's
 * `*.http.server.ts` declares one table `Record<Code, HttpError>`; the compiler then
 * refuses a new code without a status and a translation key.
 */
import { data } from "react-router";
import type { ActionResult, FormMessage } from "~/lib/form";
import type { MessageParams, ServiceError } from "../service-error.server";

export interface HttpError {
  status: number;
  /** Translation key of the message shown to the user. */
  key: string;
  /** Extra response headers (e.g. Retry-After), from the error's params. */
  headers?: (params: MessageParams) => HeadersInit;
}

export type HttpErrorTable<Code extends string> = Record<Code, HttpError>;

export function httpErrorOf<Code extends string>(table: HttpErrorTable<Code>, err: ServiceError<Code>) {
  const entry = table[err.code];
  const message: FormMessage = { key: entry.key, params: err.params };
  return { status: entry.status, message, headers: entry.headers?.(err.params) ?? {} };
}

/**
 * The action answer for a service error on a form: the submitted values back, the
 * translated-in-the-component message, and the mapped status.
 */
export function formErrorResponse<Code extends string, V>(
  table: HttpErrorTable<Code>,
  err: ServiceError<Code>,
  values: V,
  fieldErrors: ActionResult<V>["fieldErrors"] = {},
) {
  const { status, message, headers } = httpErrorOf(table, err);
  return data<ActionResult<V>>({ values, fieldErrors, formError: message }, { status, headers });
}

/** A 4xx form answer for input that did not parse (field errors are translation keys). */
export function invalidForm<V>(values: V, fieldErrors: ActionResult<V>["fieldErrors"], formError?: FormMessage) {
  return data<ActionResult<V>>({ values, fieldErrors, formError: formError ?? null }, { status: 400 });
}
