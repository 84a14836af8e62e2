/**
 * The CSV import's form, /dashboard/import (decision 023), on the action helper (decision
 * 059): the upload answers a preview (the count, the first rows, every row error) beside the
 * form, Confirm posts the same text back to be checked again in full and saved; then a
 * redirect to `?batch=`, so a reload imports nothing twice. A contact text that does not
 * parse still gets the preview, marked beside its field.
 */
import { data, redirect } from "react-router";
import type { Lang } from "~/i18n/config";
import type { ImportPreview } from "~/lib/domain/item-csv";
import type { ActionResult } from "~/lib/forms/form";
import { importFormSchema, type ImportFormValues } from "~/lib/forms/item-csv-form";
import { readForm } from "../http/form.server";
import { formActionOn, type FormReading, type Refusal } from "../http/form-action.server";
import { csvScopeOf, importErrors } from "./import.http.server";
import { scopeKey, submitImport, type ImportSubmission } from "./import.service.server";

export type ImportActionData = ActionResult<ImportFormValues> & {
  preview: ImportPreview | null;
  /** The previewed file's text, posted back by Confirm. */
  csv: string;
  scopeKey: string;
};

const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/** The contact text's mark, when it does not parse (the first of its messages). */
function contactMarks(contactInfo: string): ImportActionData["fieldErrors"] {
  const parsed = importFormSchema.shape.contactInfo.safeParse(contactInfo);
  return parsed.success ? {} : { contactInfo: parsed.error.issues[0]?.message ?? "" };
}

/**
 * Refused only for what the user cannot mend (a forged intent or scope, no text field);
 * a contact text that does not parse goes on to the preview, `contactInfo` null.
 */
function readImportForm(form: FormData): FormReading<{ contactInfo: string | null }> {
  const fields = ["intent", "contactInfo", "scope", "csv"].map((name) => [name, field(form, name)]);
  const parsed = importFormSchema.safeParse(Object.fromEntries(fields));
  if (!parsed.success && parsed.error.issues.some((i) => i.path[0] !== "contactInfo")) {
    return { ok: false, fieldErrors: {} };
  }
  return { ok: true, data: { contactInfo: parsed.success ? parsed.data.contactInfo : null } };
}

export async function importPageAction(request: Request, userId: string, visit: { lang: Lang; ip: string }) {
  const form = await readForm(request);
  const { deps, scope } = await csvScopeOf(request, userId);
  const answer = (values: ImportFormValues, init: ResponseInit, extra: Partial<ImportActionData>) =>
    data<ImportActionData>(
      { values, fieldErrors: {}, formError: null, preview: null, csv: "", scopeKey: scopeKey(scope), ...extra },
      init,
    );
  // A refused import still marks a contact text that does not parse; a forged form marks nothing.
  const refused = (refusal: Refusal<ImportFormValues>, init: ResponseInit, err?: unknown) =>
    answer(refusal.values, init, {
      formError: refusal.formError,
      fieldErrors: err === undefined ? {} : contactMarks(refusal.values.contactInfo),
    });
  const values = (f: FormData): ImportFormValues => ({ contactInfo: field(f, "contactInfo") });
  return formActionOn(
    form,
    { errors: importErrors, errorsOn: "form", values, refused },
    {
      parse: readImportForm,
      invalid: { key: "csv.errors.invalid" },
      async handle({ contactInfo }) {
        const file = form.get("file");
        const submission: ImportSubmission =
          field(form, "intent") === "preview"
            ? { intent: "preview", bytes: file instanceof File ? new Uint8Array(await file.arrayBuffer()) : null }
            : { intent: "import", text: field(form, "csv"), previewedScope: field(form, "scope") };
        const outcome = await submitImport(deps, { userId, ip: visit.ip }, scope, submission, contactInfo, visit.lang);
        if (outcome.kind === "imported") return redirect(`/dashboard/import?batch=${outcome.batch}`);
        // The preview, or a confirmation that failed: the rows and every error, and the text
        // again for the next Confirm.
        const status = outcome.preview.errorCount > 0 ? 422 : contactInfo !== null ? 200 : 400;
        const fieldErrors = contactInfo === null ? contactMarks(field(form, "contactInfo")) : {};
        return answer(values(form), { status }, { preview: outcome.preview, csv: outcome.csv, fieldErrors });
      },
    },
  );
}
