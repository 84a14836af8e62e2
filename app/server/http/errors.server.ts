/**
 * Mapping a feature's error codes to HTTP (decisions 011, 031). Each feature's
 * `*.http.server.ts` declares one table `Record<Code, HttpError>`; the compiler then
 * refuses a new code without a status and a translation key. The entry also says where
 * the message belongs (the form, one field, the error page, another address), so a
 * route's catch block is one line: `return serviceErrorResponse(table, err, values)`.
 */
import { data, redirect } from "react-router";
import type { ActionResult, FormMessage } from "~/lib/forms/form";
import { ServiceError, type MessageParams } from "../service-error.server";

export interface HttpError {
  status: number;
  /** Translation key of the message shown to the user. */
  key: string;
  /**
   * Where the message belongs. Absent: the form's alert (FormAlert), with what was typed.
   * "page": the error page of the status (thrown; a forged or stale id is no form mistake).
   * `{ field }`: beside that field instead of the alert. `{ redirect }`: the visitor is sent
   * there (a session that ended goes to /login).
   */
  on?: "page" | { field: string } | { redirect: string };
  /** Extra response headers (e.g. Retry-After), from the error's params. */
  headers?: (params: MessageParams) => HeadersInit;
}

export type HttpErrorTable<Code extends string> = Record<Code, HttpError>;

/** True when `err` is a service error with one of the table's codes. */
export function isErrorOf<Code extends string>(table: HttpErrorTable<Code>, err: unknown): err is ServiceError<Code> {
  return err instanceof ServiceError && Object.hasOwn(table, err.code);
}

export function httpErrorOf<Code extends string>(table: HttpErrorTable<Code>, err: ServiceError<Code>) {
  const entry = table[err.code];
  const message: FormMessage = { key: entry.key, params: err.params };
  return { status: entry.status, message, headers: entry.headers?.(err.params) ?? {} };
}

/**
 * A route's answer to what its service threw. Anything that is not one of the table's
 * codes is thrown on (a 500 stays a 500). A code whose entry says "page" (or every code,
 * when there is no form: no `values`) throws the error page of its status; `{ redirect }`
 * redirects; the others return the form's ActionResult: the submitted values back, the
 * message on the form or beside its field, the mapped status. `fieldErrors` adds marks
 * the route knows of (which field a wrong password belongs to on this form).
 */
export function serviceErrorResponse<Code extends string, V>(
  table: HttpErrorTable<Code>,
  err: unknown,
  values: V,
  fieldErrors?: ActionResult<V>["fieldErrors"],
): ReturnType<typeof data<ActionResult<V>>>;
export function serviceErrorResponse<Code extends string>(table: HttpErrorTable<Code>, err: unknown): never;
export function serviceErrorResponse<Code extends string, V>(
  table: HttpErrorTable<Code>,
  err: unknown,
  ...form: [values?: V, fieldErrors?: ActionResult<V>["fieldErrors"]]
) {
  if (!isErrorOf(table, err)) throw err;
  const { status, message, headers } = httpErrorOf(table, err);
  const on = table[err.code].on;
  if (on === "page" || form.length === 0) throw data(message, { status, headers });
  if (on && "redirect" in on) throw redirect(on.redirect);
  const [values, marks = {}] = form as [V, ActionResult<V>["fieldErrors"]];
  if (on && "field" in on) {
    return data<ActionResult<V>>(
      { values, fieldErrors: { ...marks, [on.field]: message.key }, formError: null },
      { status, headers },
    );
  }
  return data<ActionResult<V>>({ values, fieldErrors: marks, formError: message }, { status, headers });
}

/** A 4xx form answer for input that did not parse (field errors are translation keys). */
export function invalidForm<V>(values: V, fieldErrors: ActionResult<V>["fieldErrors"], formError?: FormMessage) {
  return data<ActionResult<V>>({ values, fieldErrors, formError: formError ?? null }, { status: 400 });
}

/**
 * What the service answered, or the error page of its code (decision 059): a loader has
 * no form to show a refusal on, so its catch is written here once.
 */
export async function orErrorPage<Code extends string, T>(table: HttpErrorTable<Code>, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    return serviceErrorResponse(table, err);
  }
}

/** The table with every code on the error page: a form that has no place for this feature's refusals. */
export function onPage<Code extends string>(table: HttpErrorTable<Code>): HttpErrorTable<Code> {
  return Object.fromEntries(
    Object.entries<HttpError>(table).map(([code, e]) => [code, { ...e, on: "page" }]),
  ) as HttpErrorTable<Code>;
}
