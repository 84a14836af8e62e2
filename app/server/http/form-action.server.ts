/**
 * One way to handle a form (decision 059): a route's action names, per intent, the zod
 * schema of its fields and the function that does the work; reading the body, the field
 * errors, the feature's `ServiceError` → status and message (decision 011) and the answer
 * are written here once. A route's own try/catch is the exception, with a comment saying why.
 *
 *   export async function action({ request, params }: Route.ActionArgs) {
 *     const user = await requireUser(request);
 *     return formAction(request, { errors: itemErrors }, {
 *       schema: itemSchema,
 *       handle: async (input) => redirect(`/product/${await saveItem(deps, user.ref, input)}`),
 *     });
 *   }
 *
 * What the user typed comes back with every refusal (passwords never do), so a form
 * without JavaScript is shown again filled in, its alert or field taking the focus.
 */
import { data } from "react-router";
import type { z } from "zod";
import { parseForm, type ActionResult, type FormMessage } from "~/lib/forms/form";
import { httpErrorOf, serviceErrorResponse, tableOf, type ErrorTables } from "./errors.server";
import type { ServiceError } from "../service-error.server";
import { badRequest, readForm } from "./form.server";

export type Values = Record<string, string>;

/** The answer to a refused form: the one shape of decision 011, and the intent on pages with several forms. */
export type Refusal<V = Values> = ActionResult<V> & { intent?: string };

/**
 * A form's own reading, where its fields are more than their entries (checkboxes, files,
 * coordinates in pairs): the data, or the field errors; with the values to send back.
 */
export type FormReading<T> =
  | { ok: true; data: T; values?: unknown }
  | { ok: false; fieldErrors: Partial<Record<string, string>>; values?: unknown };

interface IntentParts<T, R> {
  /** The form's fields (FormData entries as an object) through zod; messages are translation keys. */
  schema?: z.ZodType<T>;
  /** Or the form's own reading (app/lib), when its fields are more than their entries. */
  parse?: (form: FormData) => FormReading<T>;
  /** The work, with the parsed fields and the raw form (files, repeated names). */
  handle: (input: T, form: FormData) => Promise<R> | R;
  /** The form's alert on a failed parse (beside the field errors); default none. */
  invalid?: FormMessage | ((fieldErrors: Record<string, string>) => FormMessage | null);
  /** Field errors of a failed parse replaced by these (a hidden field the user cannot mend). */
  invalidFields?: Record<string, string> | ((fieldErrors: Record<string, string>) => Record<string, string>);
  /** "page": a failed parse is the 400 page (only forged or stale hidden fields can fail). */
  invalidOn?: "page";
  /** What this intent's form sends back, when it is not the action's `values`. */
  values?: (form: FormData) => unknown;
  /** The tables of this intent's services, when they are not the action's (another feature's codes). */
  errors?: ErrorTables;
  /** "page": this intent's service errors are the error page of their status (there is no form to show them on). */
  errorsOn?: "page" | "form";
}

/** One form's purpose: how it is read (a schema or a reading) and what it does. */
export type Intent<T, R> = IntentParts<T, R> &
  ({ schema: z.ZodType<T> } | { parse: (form: FormData) => FormReading<T> });

export interface FormActionOptions<V = Values, W = never> {
  /** The feature tables mapping the services' errors (decision 011); each answers its own feature's error class. */
  errors: ErrorTables;
  /** What is sent back to refill the form; default every text field but passwords. */
  values?: (form: FormData) => V;
  /** Field marks a service error adds on this form (which field a wrong password belongs to). */
  marks?: (err: unknown) => ActionResult<V>["fieldErrors"];
  /**
   * "page": service errors are the error page of their status. "form": every one on the
   * form's alert, wherever its table entry puts it (a page whose only field is a button).
   * Default: where the table's entry says.
   */
  errorsOn?: "page" | "form";
  /** A page whose answer wraps the form's (a private link's headers, the page beside the refusal). */
  refused?: (refusal: Refusal<V>, init: ResponseInit, err?: unknown) => W;
}

/** What a refusal answers: the form's shape, or the page's wrapping of it. */
type Refused<V, W> = [W] extends [never] ? ReturnType<typeof data<Refusal<V>>> : W;

export interface IntentActionOptions<V = Values, W = never> extends FormActionOptions<V, W> {
  /** The message (a translation key) for an intent the page does not have; default a 400 page. */
  unknownIntent?: string;
  /** Where that message goes: the form's alert and the `intent` field (default), or the alert alone. */
  unknownIntentOn?: "alert";
  /** The intent that answers a form naming none the page has (the page's main form); default `unknownIntent`. */
  otherwise?: string;
  /** Every refusal names its intent (a page with one form per section shows it on that form). */
  tagIntent?: boolean;
}

/** The form's text fields, without passwords: what is sent back to the page. */
export function formValues(form: FormData): Values {
  const values: Values = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !/password/i.test(k)) values[k] = v;
  return values;
}

/** Names an intent, so the schema's output types the handler's input. */
export function intent<T, R>(spec: Intent<T, R>): Intent<T, R> {
  return spec;
}

/** A form with one purpose: parse, do, answer (decision 059). */
export async function formAction<T, R, V = Values, W = never>(
  request: Request,
  options: FormActionOptions<V, W>,
  spec: Intent<T, R>,
): Promise<R | Refused<V, W>> {
  const form = await readForm(request);
  return run<T, R, V, W>(form, options, spec);
}

type Intents = Record<string, Intent<any, any>>;
type AnswerOf<I extends Intents> = Awaited<ReturnType<I[keyof I]["handle"]>>;

/** The same for a form read already (a multipart form streamed to disk, decision 050). */
export function formActionOn<T, R, V = Values, W = never>(
  form: FormData,
  options: FormActionOptions<V, W>,
  spec: Intent<T, R>,
): Promise<R | Refused<V, W>> {
  return run(form, options, spec);
}

/**
 * A button whose post carries nothing to read (the test payment's "Pay"): the work, its
 * service errors answered as a form's would be; the body is not read.
 */
export async function buttonAction<R, W = never>(
  options: FormActionOptions<Values, W>,
  handle: () => Promise<R>,
): Promise<R | Refused<Values, W>> {
  return run<object, R, Values, W>(new FormData(), options, { parse: () => ({ ok: true, data: {} }), handle });
}

/**
 * A private link's page of buttons (stop, allow again): no field to show a refusal beside,
 * so a forged intent or field and every service error are the error page of their status.
 */
export async function buttonsAction<I extends Intents>(
  request: Request,
  options: { errors: ErrorTables; otherwise?: string },
  intents: I,
): Promise<AnswerOf<I>> {
  const page = Object.fromEntries(
    Object.entries(intents).map(([k, spec]) => [k, { ...spec, invalidOn: "page" as const }]),
  );
  return intentAction(request, { ...options, errorsOn: "page" }, page) as Promise<AnswerOf<I>>;
}

/** A page with several forms told apart by `intent`: one schema and one handler each (decision 059). */
export async function intentAction<I extends Intents, V = Values, W = never>(
  request: Request,
  options: IntentActionOptions<V, W>,
  intents: I,
): Promise<AnswerOf<I> | Refused<V, W>> {
  const form = await readForm(request);
  const name = form.get("intent");
  const named = typeof name === "string" && Object.hasOwn(intents, name) ? name : null;
  const key =
    named ?? (options.otherwise !== undefined && Object.hasOwn(intents, options.otherwise) ? options.otherwise : null);
  if (key === null) {
    if (!options.unknownIntent) badRequest();
    const marks = options.unknownIntentOn === "alert" ? {} : { intent: options.unknownIntent };
    const fieldErrors = marks as ActionResult<V>["fieldErrors"];
    const body = { values: valuesOf(options, form), fieldErrors, formError: { key: options.unknownIntent } };
    return refuse<V, W>(options, "", body, { status: 400 });
  }
  return run<any, any, V, W>(form, options, intents[key] as I[keyof I], options.tagIntent ? key : undefined);
}

function valuesOf<V>(options: { values?: (form: FormData) => V }, form: FormData): V {
  return options.values ? options.values(form) : (formValues(form) as V);
}

/** The one exit of a refused form: its intent named if the page asks, wrapped if the page wraps. */
function refuse<V, W>(
  options: FormActionOptions<V, W>,
  tag: string | undefined,
  refusal: Refusal<V>,
  init: ResponseInit,
  err?: unknown,
): Refused<V, W> {
  const body: Refusal<V> = tag === undefined ? refusal : { ...refusal, intent: tag };
  if (options.refused) return options.refused(body, init, err) as Refused<V, W>;
  return data<Refusal<V>>(body, init) as Refused<V, W>;
}

async function run<T, R, V, W>(
  form: FormData,
  options: FormActionOptions<V, W>,
  spec: Intent<T, R>,
  tag?: string,
): Promise<R | Refused<V, W>> {
  const parsed: FormReading<T> = spec.schema ? parseForm(spec.schema, form) : spec.parse!(form);
  const values = spec.values
    ? (spec.values(form) as V)
    : options.values || parsed.values === undefined
      ? valuesOf(options, form)
      : (parsed.values as V);
  if (!parsed.ok) {
    if (spec.invalidOn === "page") badRequest();
    const found = parsed.fieldErrors as Record<string, string>;
    const marks = typeof spec.invalidFields === "function" ? spec.invalidFields(found) : spec.invalidFields;
    const fieldErrors = (marks ?? found) as ActionResult<V>["fieldErrors"];
    const alert = typeof spec.invalid === "function" ? spec.invalid(found) : (spec.invalid ?? null);
    return refuse<V, W>(options, tag, { values, fieldErrors, formError: alert }, { status: 400 });
  }
  try {
    return await spec.handle(parsed.data, form);
  } catch (err) {
    // Each table answers its own feature's errors only (errorTable): the order of the list does not matter.
    const table = tableOf(spec.errors ?? options.errors, err);
    if (!table) throw err;
    const on = spec.errorsOn ?? options.errorsOn;
    if (on === "page") serviceErrorResponse(table, err);
    if (on === "form") {
      const { status, message, headers } = httpErrorOf(table, err as ServiceError<string>);
      const marks = (options.marks?.(err) ?? {}) as ActionResult<V>["fieldErrors"];
      return refuse<V, W>(options, tag, { values, fieldErrors: marks, formError: message }, { status, headers }, err);
    }
    const res = serviceErrorResponse(table, err, values, options.marks?.(err));
    return refuse<V, W>(options, tag, res.data, res.init ?? {}, err);
  }
}
