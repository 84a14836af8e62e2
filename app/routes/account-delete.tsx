import { useTranslation } from "~/i18n/react";
import { data, Form, Link, redirect } from "react-router";
import { DeletionPreview } from "~/components/DeletionPreview";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { deleteSchema, providerSchema } from "~/lib/domain/account";
import type { ActionResult } from "~/lib/forms/form";
import { formatDate } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { PASSWORD_MAX } from "~/lib/domain/password";
import { isSocialProvider } from "~/lib/domain/social-providers";
import { useLang } from "~/lib/hooks/use-lang";
import { accountPageErrors, passwordMarks } from "~/server/account/account.http.server";
import { deleteAccount, getAccountPage, startReauth } from "~/server/account/account.service.server";
import { getDeletionPreview } from "~/server/account/deletion.service.server";
import { requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { intent, intentAction } from "~/server/http/form-action.server";
import type { Route } from "./+types/account-delete";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["account", "auth", "common", "recipients"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "account");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const deps = await getDeps();
  const [page, preview] = await Promise.all([
    getAccountPage(deps, request.headers),
    // What would be lost (decision 051): open withdrawals, organisations alone administered.
    getDeletionPreview(deps, user.ref),
  ]);
  return data({
    email: page.email,
    hasPassword: page.hasPassword,
    freshSignIn: page.freshSignIn,
    social: page.methods.map((m) => m.provider).filter(isSocialProvider),
    renewals: page.renewals,
    ...preview,
  });
}

type Values = { confirm?: string; forfeitRefunds?: string; deleteOrganisations?: string };
/** A refusal in the schema's own words (an unticked box) reads as "tick to confirm". */
const confirmOr = (key: string) => (key.includes(".") ? key : "account.errors.confirmDelete");

/** The ticks come back to the form; the password never does. */
function deletionValues(form: FormData): Values {
  const all = Object.fromEntries(form);
  const fields = ["confirm", "forfeitRefunds", "deleteOrganisations"] as const;
  return Object.fromEntries(fields.flatMap((k) => (typeof all[k] === "string" ? [[k, all[k]]] : [])));
}

/**
 * Deleting the account (decision 017): with the password, or after a fresh social sign-in
 * (intent "reauth" starts one). Success ends signed out on / with a translated message.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request);
  const deps = await getDeps();
  const options = {
    errors: accountPageErrors,
    values: deletionValues,
    marks: (err: unknown) => passwordMarks(err, { current: "password" }),
    otherwise: "delete",
  };
  return intentAction(request, options, {
    reauth: intent({
      schema: providerSchema,
      async handle(input) {
        const res = await startReauth(deps, request.headers, input.provider);
        return redirect(res.redirectTo, { headers: res.headers });
      },
    }),
    delete: intent({
      schema: deleteSchema,
      invalidFields: (errors) => Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, confirmOr(v)])),
      invalid: (errors) => ({ key: confirmOr(Object.values(errors)[0]!) }),
      async handle(input) {
        const cookies = await deleteAccount(deps, request.headers, {
          password: input.password,
          forfeitRefunds: input.forfeitRefunds === "on",
          deleteOrganisations: input.deleteOrganisations === "on",
        });
        cookies.append("Set-Cookie", deps.cookies.flash("accountDeleted"));
        return redirect("/", { headers: cookies });
      },
    }),
  });
}

export default function AccountDelete({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { email, hasPassword, freshSignIn, social, renewals, withdrawals, organisations } = loaderData;
  const result = actionData as ActionResult<Values> | undefined;
  const providerName = (p: string) => (isSocialProvider(p) ? t(`account.methods.${p}`) : p);
  // Decision 051: an organisation with members waits for another admin; nothing to submit until then.
  const waits = organisations.some((o) => o.fate === "handOver");
  const canSubmit = (hasPassword || freshSignIn) && !waits;
  const deleted = organisations.filter((o) => o.fate === "deleted");
  const refunds = withdrawals.filter((w) => w.refund > 0);
  return (
    <section className="py-4 account-page" aria-labelledby="delete-title">
      <h1 id="delete-title">{t("account.delete.pageTitle")}</h1>
      <DeletionPreview withdrawals={withdrawals} organisations={organisations} />
      <h2 className="h5 mt-4">{t("account.delete.what")}</h2>
      <ul>
        <li>{t("account.delete.items")}</li>
        <li>{t("account.delete.subscriptions")}</li>
        {/* Each subscription's real end: a monthly plan inside its minimum
            term is charged until that term ends; anything else ends with what is paid. */}
        {renewals.map((r) => (
          <li key={r.orderId}>
            {t(
              r.charged
                ? "account.delete.renewal.charged"
                : r.period === "year"
                  ? "account.delete.renewal.yearPaid"
                  : "account.delete.renewal.monthPaid",
              { count: r.count, date: formatDate(r.endsAt, lang) },
            )}
          </li>
        ))}
        <li>{t("account.delete.kept")}</li>
        <li>{t("account.delete.gone")}</li>
        <li className="text-break">{t("account.delete.mail", { email })}</li>
      </ul>
      <FormAlert message={result?.formError} />
      {!hasPassword ? (
        freshSignIn ? (
          <div className="alert alert-info" role="status">
            {t("account.delete.fresh")}
          </div>
        ) : (
          <div className="mb-3">
            <p>{t("account.delete.reauthIntro", { providers: social.map(providerName).join(", ") })}</p>
            <div className="d-flex flex-wrap gap-2">
              {social.map((p) => (
                <Form method="post" key={p}>
                  <input type="hidden" name="intent" value="reauth" />
                  <input type="hidden" name="provider" value={p} />
                  <button type="submit" className="btn btn-outline-primary">
                    {t("account.delete.reauth", { provider: providerName(p) })}
                  </button>
                </Form>
              ))}
            </div>
          </div>
        )
      ) : null}
      {canSubmit ? (
        <Form method="post" noValidate className="card card-body border-danger">
          <input type="hidden" name="intent" value="delete" />
          {hasPassword ? (
            <Field
              id="delete-password"
              name="password"
              type="password"
              label={t("account.delete.password")}
              autoComplete="current-password"
              required
              maxLength={PASSWORD_MAX}
              error={result?.fieldErrors.password}
            />
          ) : null}
          {refunds.length > 0 ? (
            <Tick
              name="forfeitRefunds"
              label={t("account.delete.forfeit", { count: refunds.length })}
              error={result?.fieldErrors.forfeitRefunds}
            />
          ) : null}
          {deleted.length > 0 ? (
            <Tick
              name="deleteOrganisations"
              label={t("account.delete.organisations.confirm", {
                count: deleted.length,
                names: deleted.map((o) => o.name).join(", "),
              })}
              error={result?.fieldErrors.deleteOrganisations}
            />
          ) : null}
          <div className="form-check mb-3">
            <input
              className={`form-check-input${result?.fieldErrors.confirm ? " is-invalid" : ""}`}
              type="checkbox"
              name="confirm"
              id="delete-confirm"
              required
              aria-invalid={result?.fieldErrors.confirm ? true : undefined}
              aria-describedby={result?.fieldErrors.confirm ? "delete-confirm-error" : undefined}
            />
            <label className="form-check-label" htmlFor="delete-confirm">
              {t("account.delete.confirm")}
            </label>
            {result?.fieldErrors.confirm ? (
              <div id="delete-confirm-error" className="invalid-feedback d-block">
                {t(result.fieldErrors.confirm)}
              </div>
            ) : null}
          </div>
          <div className="d-flex flex-wrap gap-2">
            <button type="submit" className="btn btn-danger">
              {t("account.delete.submit")}
            </button>
            <Link to="/account" className="btn btn-outline-secondary">
              {t("account.delete.cancel")}
            </Link>
          </div>
        </Form>
      ) : (
        <>
          {waits ? <p className="fw-semibold">{t("account.delete.organisations.waits")}</p> : null}
          <Link to="/account" className="btn btn-outline-secondary">
            {t("account.delete.cancel")}
          </Link>
        </>
      )}
    </section>
  );
}

/** A required-when-shown tick of the delete form, its error beside it (decision 051). */
function Tick({ name, label, error }: { name: string; label: string; error: string | undefined }) {
  const { t } = useTranslation();
  const id = `delete-${name}`;
  return (
    <div className="form-check mb-3">
      <input
        className={`form-check-input${error ? " is-invalid" : ""}`}
        type="checkbox"
        name={name}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <label className="form-check-label text-break" htmlFor={id}>
        {label}
      </label>
      {error ? (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {t(error)}
        </div>
      ) : null}
    </div>
  );
}
