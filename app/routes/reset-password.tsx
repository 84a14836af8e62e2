import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { resetRequestSchema } from "~/lib/auth-forms";
import { fieldErrors } from "~/lib/form-errors";
import { pageMeta } from "~/lib/meta";
import { requestPasswordReset } from "~/server/auth/accounts.service.server";
import { getSessionUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { readForm } from "~/server/http/form.server";
import type { Route } from "./+types/reset-password";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.reset");
}

export async function loader({ request }: Route.LoaderArgs) {
  if (await getSessionUser(request)) throw redirect("/dashboard");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readForm(request));
  const values = { email: typeof form.email === "string" ? form.email : "" };
  const parsed = resetRequestSchema.safeParse(form);
  if (!parsed.success) {
    return data(
      { sent: false, error: null, params: undefined, fields: fieldErrors(parsed.error), values },
      { status: 400 },
    );
  }
  const res = await requestPasswordReset({ email: parsed.data.email, ip: context.get(requestContext).ip });
  if (!res.ok) {
    return data({ sent: false, error: res.error, params: res.params, fields: {}, values }, { status: res.status });
  }
  return { sent: true, error: null, params: undefined, fields: {}, values: { email: "" } };
}

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const fields: Record<string, string> = actionData?.fields ?? {};
  return (
    <section className="py-5 auth-page" aria-labelledby="reset-title">
      <h1 id="reset-title">{t("auth.reset.title")}</h1>
      {actionData?.sent ? (
        <div className="alert alert-success" role="alert">
          <p className="mb-1 fw-semibold">{t("auth.reset.sent")}</p>
          <p className="mb-0 small">{t("auth.reset.sentDetail")}</p>
        </div>
      ) : null}
      {actionData?.error ? (
        <div className="alert alert-danger" role="alert">
          {t(actionData.error, actionData.params ?? {})}
        </div>
      ) : null}
      <p>{t("auth.reset.intro")}</p>
      <Form method="post" noValidate aria-labelledby="reset-title">
        <div className="mb-3">
          <label htmlFor="reset-email" className="form-label">
            {t("auth.fields.email")}
          </label>
          <input
            id="reset-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={actionData?.values.email ?? ""}
            key={actionData?.sent ? "sent" : "form"}
            className={`form-control${fields.email ? " is-invalid" : ""}`}
            aria-invalid={fields.email ? true : undefined}
            aria-describedby={fields.email ? "reset-email-error" : undefined}
          />
          {fields.email ? (
            <div id="reset-email-error" className="invalid-feedback">
              {t(fields.email)}
            </div>
          ) : null}
        </div>
        <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
          {t("auth.reset.submit")}
        </button>
      </Form>
      <p className="mt-3">
        {t("auth.reset.noAccount")} <Link to="/user/register">{t("auth.reset.register")}</Link>
      </p>
    </section>
  );
}
