/**
 * The one shape every form action answers with (decision 011). Messages are translation
 * keys, translated in the component, so the server never picks the words.
 */
import type { z } from "zod";
export interface FormMessage {
  key: string;
  params?: Record<string, string | number>;
}

export interface ActionResult<V> {
  /** What the user submitted, to refill the form: nothing typed is lost. */
  values: V;
  /** Per field: a translation key. */
  fieldErrors: Partial<Record<Extract<keyof V, string> | (string & {}), string>>;
  /** A message for the whole form, shown in FormAlert. */
  formError: FormMessage | null;
}

export function hasErrors(result: Pick<ActionResult<unknown>, "fieldErrors" | "formError"> | undefined): boolean {
  return !!result && (result.formError !== null || Object.keys(result.fieldErrors).length > 0);
}

/** The first message per field of a failed zod parse (messages are translation keys). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

export type FormParse<T> = { ok: true; data: T } | { ok: false; fieldErrors: Record<string, string> };

/**
 * A posted form (FormData or its entries as an object) through a zod schema: the data, or
 * the first message per field (decision 031). The values to send back are the route's.
 */
export function parseForm<S extends z.ZodType>(
  schema: S,
  form: FormData | Record<string, unknown>,
): FormParse<z.output<S>> {
  const raw = form instanceof FormData ? Object.fromEntries(form) : form;
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, fieldErrors: fieldErrors(parsed.error) };
}
