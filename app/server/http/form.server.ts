/**
 * Reading a route action's form body without letting bad input become a 500.
 *
 * `request.formData()` throws on a body that is not a form (JSON, plain text, a broken
 * multipart body): that used to end as 'Unexpected Application Error!' with status 500.
 * It is the client's mistake, so it is a 400, rendered by the root ErrorBoundary as the
 * translated "Bad request" page. NUL characters are refused the same way: PostgreSQL
 * cannot store them in text columns (SQLite can), so they would fail on one database only.
 */
import { data } from "react-router";

export const BAD_REQUEST_STATUS = 400;

export function badRequest(): never {
  throw data(null, { status: BAD_REQUEST_STATUS, statusText: "Bad Request" });
}

export async function readForm(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    badRequest();
  }
  return checkedForm(form);
}

/** The form, unless a name or value holds a NUL character (400). */
export function checkedForm(form: FormData): FormData {
  for (const [key, value] of form.entries()) {
    if (key.includes("\0") || (typeof value === "string" && value.includes("\0"))) badRequest();
  }
  return form;
}

/** True when the value (or any string inside it) has a NUL character. */
export function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\0");
  if (depth > 5 || value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([k, v]) => k.includes("\0") || hasNul(v, depth + 1));
}
