import { leanWhenAnonymous, type LeanHandle } from "~/lean/lean-page";
import { Trans, useTranslation } from "~/i18n/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { EmailField, PasswordField } from "~/components/form/AuthFields";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { SocialButtons } from "~/components/SocialButtons";
import { registerSchema } from "~/lib/forms/auth-forms";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { parseSocialQuery } from "~/lib/domain/social";
import { PASSWORD_LINK_REQUIRED } from "~/lib/domain/social-providers";
import { ACCOUNT_HTTP_ERRORS } from "~/server/auth/accounts.http.server";
import { registerWithPassword, signInOptions } from "~/server/auth/accounts.service.server";
import { socialIntent } from "~/server/auth/sign-in-forms.http.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { intent, intentAction } from "~/server/http/form-action.server";
import { chosenPackage, signedOutRemembering } from "~/server/order-draft/package-choice.server";
import { takeReturnTo } from "~/server/http/return-to.server";
import { localReturnPath } from "~/lib/domain/redirect-target";
import type { Route } from "./+types/register";

/**
 * Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020);
 * without framework JavaScript for visitors who are not signed in (decision 042).
 */
export const handle: { i18n: string[] } & LeanHandle = { i18n: ["auth", "common"], lean: leanWhenAnonymous };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.register");
}

interface RegisterValues {
  name: string;
  email: string;
}

export async function loader({ request }: Route.LoaderArgs) {
  const deps = await getDeps();
  // The package chosen on the home page is remembered from here (decision 018).
  const headers = await signedOutRemembering(request, deps.cookies);
  const params = new URL(request.url).searchParams;
  const { linkProvider, socialError } = parseSocialQuery(params);
  // From an invite (decision 038): the invited address typed in, and the invite to
  // come back to after registering and after the verification link (a local path only).
  const email = params.get("email") ?? "";
  return data(
    {
      ...signInOptions(deps),
      linkProvider,
      socialError,
      email: email.length <= 254 && !/[\s<>]/.test(email) ? email : "",
      next: localReturnPath(params.get("next")) ?? "",
    },
    { headers },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

const registerValues = (form: FormData): RegisterValues => {
  const text = (name: string) => form.get(name);
  const name = text("name");
  const email = text("email");
  return { name: typeof name === "string" ? name : "", email: typeof email === "string" ? email : "" };
};

export async function action({ request, context }: Route.ActionArgs) {
  const deps = await getDeps();
  const info = context.get(requestContext);
  const options = { errors: ACCOUNT_HTTP_ERRORS, values: registerValues, otherwise: "password" };
  return intentAction(request, options, {
    social: socialIntent(deps, "register", request.headers, { name: "", email: "" }),
    password: intent({
      schema: registerSchema,
      async handle(input, form) {
        // Back to the page that sent the visitor to sign in or register (an organisation
        // invite, /organisations/new from /companies), else a package chosen on the home page
        // goes straight on to registering the items. The invite's own link carries it as `next`
        // (it outlives the ten-minute cookie); either is a local path only.
        const next = localReturnPath(form.get("next"));
        const back = takeReturnTo(request, chosenPackage(request) ? "/product/register" : "/dashboard");
        const res = await registerWithPassword(deps, {
          ...input,
          language: info.lang,
          ip: info.ip,
          returnTo: next ?? (back.clear ? back.to : null),
          userAgent: request.headers.get("user-agent"),
        });
        if (back.clear) res.headers.append("Set-Cookie", back.clear);
        return redirect(next ?? back.to, { headers: res.headers });
      },
    }),
  });
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const result = actionData as ActionResult<RegisterValues> | undefined;
  const fields = result?.fieldErrors ?? {};
  const { linkProvider, socialError } = loaderData;

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
      <FormAlert message={result?.formError} />
      <SocialButtons providers={loaderData.providers} mode="register" />
      {loaderData.providers.length > 0 ? (
        <p className="text-center text-body-secondary">{t("auth.register.or")}</p>
      ) : null}
      {/* A full page load: signing in changes the whole page (header). */}
      <Form method="post" reloadDocument noValidate aria-labelledby="register-title">
        <Field
          id="register-name"
          name="name"
          label={t("auth.fields.name")}
          error={fields.name}
          type="text"
          autoComplete="name"
          required
          defaultValue={result?.values.name ?? ""}
        />
        <EmailField id="register-email" error={fields.email} defaultValue={result?.values.email ?? loaderData.email} />
        {loaderData.next ? <input type="hidden" name="next" value={loaderData.next} /> : null}
        <PasswordField id="register-password" error={fields.password} choosing />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t("auth.register.submit")}
        </button>
      </Form>
      <p className="mt-3 small">
        <Trans i18nKey="auth.register.privacy" components={{ a: <Link to="/privacy" /> }} />
      </p>
      <p className="mt-3">
        {t("auth.register.haveAccount")} <Link to="/login">{t("auth.register.login")}</Link>
      </p>
    </section>
  );
}
