import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { newPasswordSchema } from "~/lib/auth-forms";
import { fieldErrors } from "~/lib/form-errors";
import { pageMeta } from "~/lib/meta";
import { resetPassword } from "~/server/auth/accounts.service.server";
import { readForm } from "~/server/http/form.server";
import type { Route } from "./+types/new-password";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.newPassword");
}

/** The page a reset mail links to: /resetpassword/new?token=… */
export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: /^[\w-]{1,200}$/.test(token) ? token : "" };
}

export async function action({ request }: Route.ActionArgs) {
  const form = Object.fromEntries(await readForm(request));
  const parsed = newPasswordSchema.safeParse(form);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    if (fields.token) return data({ done: false, error: "auth.errors.invalidResetLink", fields: {} }, { status: 400 });
    return data({ done: false, error: null, fields }, { status: 400 });
  }
  const res = await resetPassword({ token: parsed.data.token, password: parsed.data.password });
  if (!res.ok) {
    const isPassword = res.error.startsWith("auth.password.");
    return data(
      { done: false, error: isPassword ? null : res.error, fields: isPassword ? { password: res.error } : {} },
      { status: res.status },
    );
  }
  return { done: true, error: null, fields: {} };
}

export default function NewPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const fields: Record<string, string> = actionData?.fields ?? {};
  const invalid = !loaderData.token || actionData?.error === "auth.errors.invalidResetLink";
  return (
    <section className="py-5 auth-page" aria-labelledby="new-password-title">
      <h1 id="new-password-title">{t("auth.newPassword.title")}</h1>
      {actionData?.done ? (
        <div className="alert alert-success" role="alert">
          <p>{t("auth.newPassword.done")}</p>
          <Link to="/login" className="btn btn-primary">
            {t("auth.newPassword.login")}
          </Link>
        </div>
      ) : invalid ? (
        <div className="alert alert-danger" role="alert">
          <p>{t("auth.errors.invalidResetLink")}</p>
          <Link to="/resetpassword">{t("auth.newPassword.requestNew")}</Link>
        </div>
      ) : (
        <Form method="post" noValidate aria-labelledby="new-password-title">
          <input type="hidden" name="token" value={loaderData.token} />
          <div className="mb-3">
            <label htmlFor="new-password" className="form-label">
              {t("auth.fields.newPassword")}
            </label>
            <input
              id="new-password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              className={`form-control${fields.password ? " is-invalid" : ""}`}
              aria-invalid={fields.password ? true : undefined}
              aria-describedby={`new-password-help${fields.password ? " new-password-error" : ""}`}
            />
            <div id="new-password-help" className="form-text">
              {t("auth.password.requirements")}
            </div>
            {fields.password ? (
              <div id="new-password-error" className="invalid-feedback">
                {t(fields.password)}
              </div>
            ) : null}
          </div>
          <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
            {t("auth.newPassword.submit")}
          </button>
        </Form>
      )}
    </section>
  );
}
