import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { SocialButtons } from "~/components/SocialButtons";
import { loginSchema } from "~/lib/auth-forms";
import { fieldErrors } from "~/lib/form-errors";
import { pageMeta } from "~/lib/meta";
import { isSocialProvider, LINK_ERRORS } from "~/lib/social";
import { enabledProviders } from "~/server/auth/auth.server";
import { signInWithPassword, startSocialSignIn } from "~/server/auth/accounts.service.server";
import { getSessionUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getRuntime } from "~/server/runtime.server";
import { readForm } from "~/server/http/form.server";
import type { Route } from "./+types/login";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.login");
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (user?.name.trim()) throw redirect("/dashboard");
  const { config } = await getRuntime();
  const url = new URL(request.url);
  const provider = url.searchParams.get("provider");
  const error = url.searchParams.get("error");
  const known = isSocialProvider(provider) ? provider : null;
  return {
    providers: enabledProviders(config),
    linkProvider: known && error && LINK_ERRORS.has(error) ? known : null,
    socialError: known && error && !LINK_ERRORS.has(error) ? known : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readForm(request));
  if (form.intent === "social") {
    const res = await startSocialSignIn({ provider: String(form.provider ?? ""), from: "login", request });
    if (!res.ok) return data({ error: res.error, params: res.params, fields: {}, values: {} }, { status: res.status });
    throw redirect(res.redirectTo!, { headers: res.headers });
  }
  const values = { email: typeof form.email === "string" ? form.email : "", rememberMe: form.rememberMe === "on" };
  const parsed = loginSchema.safeParse(form);
  if (!parsed.success) {
    return data({ error: null, params: undefined, fields: fieldErrors(parsed.error), values }, { status: 400 });
  }
  const link = parsed.data.linkProvider;
  const res = await signInWithPassword({
    email: parsed.data.email,
    password: parsed.data.password,
    rememberMe: parsed.data.rememberMe === "on",
    ip: context.get(requestContext).ip,
    linkProvider: isSocialProvider(link) ? link : undefined,
  });
  if (!res.ok) return data({ error: res.error, params: res.params, fields: {}, values }, { status: res.status });
  throw redirect(res.redirectTo ?? "/dashboard", { headers: res.headers });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const fields: Record<string, string> = actionData?.fields ?? {};
  const values = actionData?.values as { email?: string; rememberMe?: boolean } | undefined;
  const { linkProvider, socialError } = loaderData;
  return (
    <section className="py-5 auth-page" aria-labelledby="login-title">
      <h1 id="login-title">{t("auth.login.title")}</h1>
      {linkProvider ? (
        <div className="alert alert-warning" role="alert">
          <p className="mb-1">{t("auth.errors.linkFirst")}</p>
          <p className="mb-0 small">{t("auth.login.linkPending", { provider: t(`auth.providers.${linkProvider}`) })}</p>
        </div>
      ) : null}
      {socialError ? (
        <div className="alert alert-danger" role="alert">
          {t("auth.errors.socialFailed", { provider: t(`auth.providers.${socialError}`) })}
        </div>
      ) : null}
      {actionData?.error ? (
        <div className="alert alert-danger" role="alert">
          {t(actionData.error, actionData.params ?? {})}
        </div>
      ) : null}
      {linkProvider ? null : <SocialButtons providers={loaderData.providers} mode="login" />}
      {loaderData.providers.length > 0 && !linkProvider ? (
        <p className="text-center text-body-secondary">{t("auth.login.or")}</p>
      ) : null}
      {/* A full page load: signing in changes the whole page (header) and may continue to a
          social provider to link accounts. */}
      <Form method="post" reloadDocument noValidate aria-labelledby="login-title">
        {linkProvider ? <input type="hidden" name="linkProvider" value={linkProvider} /> : null}
        <div className="mb-3">
          <label htmlFor="login-email" className="form-label">
            {t("auth.fields.email")}
          </label>
          <input
            id="login-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={values?.email ?? ""}
            className={`form-control${fields.email ? " is-invalid" : ""}`}
            aria-invalid={fields.email ? true : undefined}
            aria-describedby={fields.email ? "login-email-error" : undefined}
          />
          {fields.email ? (
            <div id="login-email-error" className="invalid-feedback">
              {t(fields.email)}
            </div>
          ) : null}
        </div>
        <div className="mb-3">
          <label htmlFor="login-password" className="form-label">
            {t("auth.fields.password")}
          </label>
          <input
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            className={`form-control${fields.password ? " is-invalid" : ""}`}
            aria-invalid={fields.password ? true : undefined}
            aria-describedby={fields.password ? "login-password-error" : undefined}
          />
          {fields.password ? (
            <div id="login-password-error" className="invalid-feedback">
              {t(fields.password)}
            </div>
          ) : null}
        </div>
        <div className="form-check mb-3">
          <input
            id="login-remember"
            name="rememberMe"
            type="checkbox"
            className="form-check-input"
            defaultChecked={values?.rememberMe ?? false}
          />
          <label htmlFor="login-remember" className="form-check-label">
            {t("auth.fields.rememberMe")}
          </label>
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t("auth.login.submit")}
        </button>
      </Form>
      <p className="mt-3">
        <Link to="/resetpassword">{t("auth.login.forgot")}</Link>
      </p>
      <p>
        {t("auth.login.noAccount")} <Link to="/user/register">{t("auth.login.register")}</Link>
      </p>
    </section>
  );
}
