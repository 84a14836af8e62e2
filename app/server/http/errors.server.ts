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

/** A feature's error class (each feature has one, service-error.server.ts). */
export type ErrorClass = abstract new (...args: never[]) => ServiceError<string>;

/** The class a table answers for, kept off its entries (not enumerable: a spread does not copy it). */
const ERROR_CLASS: unique symbol = Symbol("errorClass");

/** A feature's codes with their answers, for that feature's error class only (made by `errorTable`). */
export type HttpErrorTable<Code extends string> = Record<Code, HttpError> & { readonly [ERROR_CLASS]: ErrorClass };

/** One feature's table, or the tables of a form whose services are several features'. */
export type ErrorTables = HttpErrorTable<any> | readonly HttpErrorTable<any>[];

/**
 * A feature's table, bound to its error class: it answers that class's errors only, so a
 * code two features share (`notFound`, `rateLimited`) takes the words of the feature
 * that threw it, whichever table a form names first.
 */
export function errorTable<Code extends string>(
  errorClass: ErrorClass,
  entries: Record<Code, HttpError>,
): HttpErrorTable<Code> {
  return Object.defineProperty({ ...entries }, ERROR_CLASS, {
    value: errorClass,
    enumerable: false,
  }) as HttpErrorTable<Code>;
}

/**
 * True when `err` is of the table's error class with one of its codes. (A table copied by a
 * spread has lost its class and matches by code alone: list tables side by side instead.)
 */
export function isErrorOf<Code extends string>(table: HttpErrorTable<Code>, err: unknown): err is ServiceError<Code> {
  if (!(err instanceof ServiceError) || !Object.hasOwn(table, err.code)) return false;
  const errorClass = (table as Partial<HttpErrorTable<Code>>)[ERROR_CLASS];
  return errorClass === undefined || err instanceof errorClass;
}

/** The table of `tables` that answers `err` (its class, one of its codes), or undefined. */
export function tableOf(tables: ErrorTables, err: unknown): HttpErrorTable<any> | undefined {
  const list: readonly HttpErrorTable<any>[] = Array.isArray(tables) ? tables : [tables as HttpErrorTable<any>];
  return list.find((t) => isErrorOf(t, err));
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
export async function orErrorPage<T>(tables: ErrorTables, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    const table = tableOf(tables, err);
    if (!table) throw err;
    return serviceErrorResponse(table, err);
  }
}

/** The table with every code on the error page: a form that has no place for this feature's refusals. */
export function onPage<Code extends string>(table: HttpErrorTable<Code>): HttpErrorTable<Code> {
  const entries = Object.fromEntries(Object.entries<HttpError>(table).map(([code, e]) => [code, { ...e, on: "page" }]));
  return errorTable(table[ERROR_CLASS], entries as Record<Code, HttpError>);
}
