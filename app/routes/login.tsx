import { leanWhenAnonymous, useLeanRender, type LeanHandle } from "~/lean/lean-page";
import { useState } from "react";
import { useTranslation } from "~/i18n/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Captcha } from "~/components/Captcha";
import { EmailField, PasswordField } from "~/components/form/AuthFields";
import { FormAlert } from "~/components/form/FormAlert";
import { SocialButtons } from "~/components/SocialButtons";
import { loginSchema } from "~/lib/forms/auth-forms";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { parseSocialQuery } from "~/lib/domain/social";
import { useNonce } from "~/components/nonce";
import { useLang } from "~/lib/hooks/use-lang";
import { ACCOUNT_HTTP_ERRORS, needsCaptcha } from "~/server/auth/accounts.http.server";
import { socialIntent } from "~/server/auth/sign-in-forms.http.server";
import { AccountError, signInOptions, signInWithPassword } from "~/server/auth/accounts.service.server";
import { takeReturnTo } from "~/server/http/return-to.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { intent, intentAction } from "~/server/http/form-action.server";
import { chosenPackage, signedOutRemembering } from "~/server/order-draft/package-choice.server";
import type { Route } from "./+types/login";

/**
 * Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020);
 * without framework JavaScript for visitors who are not signed in (decision 042).
 */
export const handle: { i18n: string[] } & LeanHandle = { i18n: ["auth", "common"], lean: leanWhenAnonymous };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.login");
}

interface LoginValues {
  email: string;
  rememberMe: boolean;
  /** The form must show the captcha (this address failed too often for the account). */
  captcha: boolean;
}

export async function loader({ request }: Route.LoaderArgs) {
  const deps = await getDeps();
  // The package chosen on the home page is remembered from here (decision 018).
  const headers = await signedOutRemembering(request, deps.cookies);
  const { linkProvider, socialError } = parseSocialQuery(new URL(request.url).searchParams);
  return data({ ...signInOptions(deps), linkProvider, socialError }, { headers });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

const loginValues = (form: FormData): LoginValues => {
  const email = form.get("email");
  return { email: typeof email === "string" ? email : "", rememberMe: form.get("rememberMe") === "on", captcha: false };
};

/** Too many tries for the address: the form comes back asking for the captcha. */
const withCaptcha = (refusal: ActionResult<LoginValues>, init: ResponseInit, err?: unknown) =>
  data({ ...refusal, values: { ...refusal.values, captcha: err instanceof AccountError && needsCaptcha(err) } }, init);

export async function action({ request, context }: Route.ActionArgs) {
  const deps = await getDeps();
  const options = { errors: ACCOUNT_HTTP_ERRORS, values: loginValues, otherwise: "password", refused: withCaptcha };
  return intentAction(request, options, {
    social: socialIntent(deps, "login", request.headers, { email: "", rememberMe: false, captcha: false }),
    password: intent({
      schema: loginSchema,
      async handle(input) {
        const res = await signInWithPassword(deps, {
          email: input.email,
          password: input.password,
          rememberMe: input.rememberMe === "on",
          ip: context.get(requestContext).ip,
          captcha: input.captcha || undefined,
          linkProvider: input.linkProvider,
          userAgent: request.headers.get("user-agent"),
        });
        // Back to the protected page that sent the visitor here, else the order page for a
        // package chosen on the home page, else the dashboard (decision 018).
        const back = takeReturnTo(request, chosenPackage(request) ? "/order" : "/dashboard");
        if (back.clear) res.headers.append("Set-Cookie", back.clear);
        return redirect(res.redirectTo ?? back.to, { headers: res.headers });
      },
    }),
  });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const result = actionData as ActionResult<LoginValues> | undefined;
  const fields = result?.fieldErrors ?? {};
  const { linkProvider, socialError } = loaderData;
  const lang = useLang();
  const nonce = useNonce();
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  // A lean page (decision 042): the captcha page script's widget fills the `captcha` field.
  const lean = useLeanRender();
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
      <FormAlert message={result?.formError} />
      {linkProvider ? null : <SocialButtons providers={loaderData.providers} mode="login" />}
      {loaderData.providers.length > 0 && !linkProvider ? (
        <p className="text-center text-body-secondary">{t("auth.login.or")}</p>
      ) : null}
      {/* A full page load: signing in changes the whole page (header) and may continue to a
          social provider to link accounts. */}
      <Form method="post" reloadDocument noValidate aria-labelledby="login-title">
        {linkProvider ? <input type="hidden" name="linkProvider" value={linkProvider} /> : null}
        <EmailField id="login-email" error={fields.email} defaultValue={result?.values.email ?? ""} />
        <PasswordField id="login-password" error={fields.password} choosing={false} />
        {result?.values.captcha ? (
          <div className="mb-3">
            {lean ? null : <input type="hidden" name="captcha" value={captchaToken ?? ""} />}
            <Captcha
              name="captcha"
              kind={loaderData.captcha}
              lang={lang}
              label={t("auth.login.captchaLabel")}
              loadingText={t("auth.login.captchaLoading")}
              siteKey={loaderData.siteKey}
              nonce={nonce}
              onToken={setCaptchaToken}
              resetSignal={0}
            />
          </div>
        ) : null}
        <div className="form-check mb-3">
          <input
            id="login-remember"
            name="rememberMe"
            type="checkbox"
            className="form-check-input"
            defaultChecked={result?.values.rememberMe ?? false}
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
