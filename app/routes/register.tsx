import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { SocialButtons } from "~/components/SocialButtons";
import { registerSchema } from "~/lib/auth-forms";
import { fieldErrors } from "~/lib/form-errors";
import { pageMeta } from "~/lib/meta";
import { isSocialProvider, LINK_ERRORS, PASSWORD_LINK_REQUIRED } from "~/lib/social";
import { enabledProviders } from "~/server/auth/auth.server";
import { registerWithPassword, startSocialSignIn } from "~/server/auth/accounts.service.server";
import { getSessionUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getRuntime } from "~/server/runtime.server";
import { readForm } from "~/server/http/form.server";
import type { Route } from "./+types/register";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.register");
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
    const res = await startSocialSignIn({ provider: String(form.provider ?? ""), from: "register", request });
    if (!res.ok) return data({ error: res.error, params: res.params, fields: {}, values: {} }, { status: res.status });
    throw redirect(res.redirectTo!, { headers: res.headers });
  }
  const values = {
    name: typeof form.name === "string" ? form.name : "",
    email: typeof form.email === "string" ? form.email : "",
  };
  const parsed = registerSchema.safeParse(form);
  if (!parsed.success) {
    return data({ error: null, params: undefined, fields: fieldErrors(parsed.error), values }, { status: 400 });
  }
  const info = context.get(requestContext);
  const res = await registerWithPassword({ ...parsed.data, language: info.lang, ip: info.ip });
  if (!res.ok) {
    const isPassword = res.error.startsWith("auth.password.");
    return data(
      {
        error: isPassword ? null : res.error,
        params: res.params,
        fields: isPassword ? { password: res.error } : ({} as Record<string, string>),
        values,
      },
      { status: res.status },
    );
  }
  throw redirect("/dashboard", { headers: res.headers });
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const fields: Record<string, string> = actionData?.fields ?? {};
  const values = actionData?.values as { name?: string; email?: string } | undefined;
  const { linkProvider, socialError } = loaderData;

  function field(name: "name" | "email" | "password", type: string, autoComplete: string, help?: string) {
    const id = `register-${name}`;
    const describedBy = [help ? `${id}-help` : "", fields[name] ? `${id}-error` : ""].filter(Boolean).join(" ");
    return (
      <div className="mb-3">
        <label htmlFor={id} className="form-label">
          {t(`auth.fields.${name}`)}
        </label>
        <input
          id={id}
          name={name}
          type={type}
          autoComplete={autoComplete}
          required
          minLength={name === "password" ? 8 : undefined}
          defaultValue={name === "password" ? undefined : (values?.[name] ?? "")}
          className={`form-control${fields[name] ? " is-invalid" : ""}`}
          aria-invalid={fields[name] ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        {help ? (
          <div id={`${id}-help`} className="form-text">
            {help}
          </div>
        ) : null}
        {fields[name] ? (
          <div id={`${id}-error`} className="invalid-feedback">
            {t(fields[name])}
          </div>
        ) : null}
      </div>
    );
  }

  return (
    <section className="py-5 auth-page" aria-labelledby="register-title">
      <h1 id="register-title">{t("auth.register.title")}</h1>
      {linkProvider ? (
        <div className="alert alert-warning" role="alert">
          <p className="mb-1">{t("auth.errors.linkFirst")}</p>
          <Link to={`/login?provider=${linkProvider}&error=${PASSWORD_LINK_REQUIRED}`}>{t("auth.register.login")}</Link>
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
      <SocialButtons providers={loaderData.providers} mode="register" />
      {loaderData.providers.length > 0 ? (
        <p className="text-center text-body-secondary">{t("auth.register.or")}</p>
      ) : null}
      {/* A full page load: signing in changes the whole page (header) and may continue to a
          social provider to link accounts. */}
      <Form method="post" reloadDocument noValidate aria-labelledby="register-title">
        {field("name", "text", "name")}
        {field("email", "email", "email")}
        {field("password", "password", "new-password", t("auth.password.requirements"))}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t("auth.register.submit")}
        </button>
      </Form>
      <p className="mt-3">
        {t("auth.register.haveAccount")} <Link to="/login">{t("auth.register.login")}</Link>
      </p>
    </section>
  );
}
