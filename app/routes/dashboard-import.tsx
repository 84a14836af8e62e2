/**
 * /dashboard/import: items from a CSV file (decision 023). Three steps
 * on one page, without JavaScript: upload (file and the contact text for the items), a
 * preview (the count, the first rows, every row error), and Confirm, which posts the same
 * CSV text back to be checked again in full before anything is saved; then a redirect to
 * `?batch=` where the result is counted from the database, so a reload imports nothing twice.
 */
import { useTranslation } from "~/i18n/react";
import { Form, Link, useNavigation } from "react-router";
import { FormAlert } from "~/components/form/FormAlert";
import { TextareaField } from "~/components/form/Field";
import { CSV_MAX_BYTES, CSV_MAX_ROWS } from "~/lib/domain/item-csv";
import { pageMeta } from "~/lib/domain/meta";
import { CONTACT_INFO_MAX } from "~/lib/forms/product-fields";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { csvScopeOf } from "~/server/items/import.http.server";
import { importPageAction } from "~/server/items/import-page.http.server";
import { countImportedItems, defaultImportContact, type CsvScope } from "~/server/items/import.service.server";
import type { Route } from "./+types/dashboard-import";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["common", "csv", "itemTypes", "items", "relay"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "csv.import"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return actionHeaders ?? loaderHeaders;
}

/** What the page says about the scope: personal, or the organisation's name. */
function scopeView(scope: CsvScope) {
  return { kind: scope.kind, name: scope.kind === "personal" ? "" : scope.name };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const { deps, scope } = await csvScopeOf(request, user.ref);
  // After a confirmed import: how many items that import made, counted in the scope.
  const batch = Number(new URL(request.url).searchParams.get("batch") ?? "");
  const imported =
    Number.isSafeInteger(batch) && batch > 0 ? await countImportedItems(deps, user.ref, scope, batch) : 0;
  const contactInfo = await defaultImportContact(deps, scope);
  return { scope: scopeView(scope), imported, contactInfo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  return importPageAction(request, user.ref, context.get(requestContext));
}

export default function DashboardImport({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { scope, imported } = loaderData;
  const preview = actionData?.preview ?? null;
  const csv = actionData?.csv ?? "";
  const previewScope = actionData?.scopeKey ?? "";
  const contactInfo = actionData?.values.contactInfo ?? loaderData.contactInfo;
  const contactError = actionData?.fieldErrors.contactInfo;
  const ready = preview !== null && preview.errorCount === 0;
  const formError = actionData?.formError ?? (contactError ? { key: "csv.errors.contactInfo" } : null);

  if (imported > 0 && !actionData) {
    return (
      <section className="py-4 col-lg-8" aria-labelledby="import-title">
        <h1 id="import-title">{t("csv.result.title")}</h1>
        <FormAlert variant="success" message={{ key: "csv.result.count", params: { count: imported } }} />
        <p className="d-flex flex-wrap gap-2">
          <Link to="/dashboard" className="btn btn-primary">
            {t("csv.result.dashboard")}
          </Link>
          <Link to="/order" className="btn btn-outline-secondary">
            {t("csv.result.order")}
          </Link>
        </p>
      </section>
    );
  }

  const contactField = (
    <TextareaField
      id="import-contact"
      name="contactInfo"
      label={t("csv.import.contactInfo")}
      help={t("csv.import.contactInfoHelp")}
      error={contactError}
      counter={CONTACT_INFO_MAX}
      rows={3}
      defaultValue={contactInfo}
      required
    />
  );

  return (
    <section className="py-4 col-lg-10" aria-labelledby="import-title">
      <h1 id="import-title">{t("csv.import.title")}</h1>
      <p className="text-body-secondary">
        {scope.kind === "personal" ? t("csv.scope.personal") : t("csv.scope.organisation", { name: scope.name })}
      </p>
      {preview && preview.errorCount > 0 ? null : <FormAlert message={formError} />}
      {preview ? (
        <section aria-labelledby="preview-title" className="mb-4">
          <h2 id="preview-title" className="h4">
            {t("csv.preview.title")}
          </h2>
          <p>{t("csv.preview.count", { count: preview.total })}</p>
          {preview.errorCount > 0 ? (
            <>
              <FormAlert message={{ key: "csv.preview.errorsLead", params: { count: preview.errorCount } }} />
              <div className="table-responsive" role="region" tabIndex={0} aria-labelledby="errors-caption">
                <table className="table table-sm caption-top align-top csv-errors">
                  <caption id="errors-caption">{t("csv.preview.errorsCaption")}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("csv.preview.row")}</th>
                      <th scope="col">{t("csv.preview.column")}</th>
                      <th scope="col">{t("csv.preview.value")}</th>
                      <th scope="col">{t("csv.preview.problem")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.errors.map((e, i) => (
                      <tr key={i}>
                        <td>{e.row}</td>
                        <td>{e.column ? t(`csv.columns.${e.column}`) : "–"}</td>
                        <td className="text-break csv-value">
                          {e.value === undefined
                            ? "–"
                            : e.value === ""
                              ? t("csv.preview.empty")
                              : t("csv.preview.quoted", { value: e.value })}
                        </td>
                        <td>{String(t(e.message, e.params ?? {}))}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {preview.errorCount > preview.errors.length ? (
                <p>{t("csv.preview.moreErrors", { count: preview.errorCount - preview.errors.length })}</p>
              ) : null}
            </>
          ) : (
            <>
              <div className="table-responsive" role="region" tabIndex={0} aria-labelledby="rows-caption">
                <table className="table table-sm caption-top align-top">
                  <caption id="rows-caption">
                    {t("csv.preview.rowsCaption", { count: preview.rows.length, total: preview.total })}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("csv.columns.name")}</th>
                      <th scope="col">{t("csv.columns.type")}</th>
                      <th scope="col">{t("csv.columns.fee")}</th>
                      {scope.kind === "personal" ? null : <th scope="col">{t("csv.columns.assignedEmail")}</th>}
                      <th scope="col">{t("csv.columns.visibility")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.rows.map((r, i) => (
                      <tr key={i}>
                        <td>{r.name}</td>
                        {/* Short values stay whole on a phone; names wrap between words, the table scrolls sideways. */}
                        <td className="text-nowrap">{t(`itemTypes.${r.prodType}`)}</td>
                        <td className="text-nowrap">{r.findFee}</td>
                        {scope.kind === "personal" ? null : <td className="text-break">{r.assignedEmail}</td>}
                        <td className="text-nowrap">{t(`csv.visibility.${r.contactVisibility}`)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Form method="post" encType="multipart/form-data" className="mt-3">
                <input type="hidden" name="intent" value="import" />
                <input type="hidden" name="scope" value={previewScope} />
                <input type="hidden" name="csv" value={csv} />
                {contactField}
                <div className="d-flex flex-wrap gap-2">
                  <button type="submit" className="btn btn-primary" disabled={busy}>
                    {t("csv.preview.confirm", { count: preview.total })}
                  </button>
                  <Link to="/dashboard/import" className="btn btn-outline-secondary" reloadDocument>
                    {t("csv.preview.another")}
                  </Link>
                </div>
              </Form>
            </>
          )}
        </section>
      ) : null}
      {ready ? null : (
        <section aria-labelledby="upload-title">
          <h2 id="upload-title" className="h4">
            {preview ? t("csv.import.again") : t("csv.import.upload")}
          </h2>
          <p>
            {t("csv.import.lead", {
              max: CSV_MAX_ROWS,
              mb: CSV_MAX_BYTES / 1024 / 1024,
            })}
          </p>
          <ul>
            <li>{t("csv.import.colName")}</li>
            <li>{t("csv.import.colType")}</li>
            <li>{t("csv.import.colFee")}</li>
            {scope.kind === "personal" ? null : <li>{t("csv.import.colAssigned")}</li>}
            <li>{t("csv.import.colVisibility")}</li>
            <li>{t("csv.import.colStickerCode")}</li>
          </ul>
          <p>{t("csv.import.separator")}</p>
          <p>{t("csv.import.newItems")}</p>
          <p>
            <a href="/dashboard/import/template.csv" download>
              {t("csv.import.template")}
            </a>
          </p>
          <Form method="post" encType="multipart/form-data">
            <input type="hidden" name="intent" value="preview" />
            <div className="mb-3">
              <label htmlFor="import-file" className="form-label">
                {t("csv.import.file")}
              </label>
              <input
                id="import-file"
                name="file"
                type="file"
                accept=".csv,text/csv"
                className="form-control"
                required
              />
            </div>
            {contactField}
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t("csv.import.preview")}
            </button>
          </Form>
        </section>
      )}
    </section>
  );
}
