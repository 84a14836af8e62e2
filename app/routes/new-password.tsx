import { useTranslation } from "~/i18n/react";
import { Form, Link, useNavigation } from "react-router";
import { PasswordField } from "~/components/form/AuthFields";
import { FormAlert } from "~/components/form/FormAlert";
import { newPasswordSchema, resetTokenOf } from "~/lib/forms/auth-forms";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { ACCOUNT_HTTP_ERRORS } from "~/server/auth/accounts.http.server";
import { resetPassword } from "~/server/auth/accounts.service.server";
import { getDeps } from "~/server/deps.server";
import { formAction } from "~/server/http/form-action.server";
import type { Route } from "./+types/new-password";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["auth", "common"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.newPassword");
}

type NewPasswordValues = Record<string, never>;
const INVALID_LINK = "auth.errors.invalidResetLink";

/** The page a reset mail links to: /resetpassword/new?token=… */
export function loader({ request }: Route.LoaderArgs) {
  return { token: resetTokenOf(new URL(request.url).searchParams.get("token")) };
}

export async function action({ request }: Route.ActionArgs) {
  return formAction(
    request,
    { errors: ACCOUNT_HTTP_ERRORS, values: () => ({}) as NewPasswordValues },
    {
      schema: newPasswordSchema,
      // A link that cannot be one is said once, for the whole form; the password's errors beside it.
      invalidFields: (errors) => (errors.token ? {} : errors),
      invalid: (errors) => (errors.token ? { key: INVALID_LINK } : null),
      async handle(input) {
        await resetPassword(await getDeps(), { token: input.token, password: input.password });
        const done: ActionResult<NewPasswordValues> & { done: boolean } = {
          values: {},
          fieldErrors: {},
          formError: null,
          done: true,
        };
        return done;
      },
    },
  );
}

export default function NewPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const result = actionData as (ActionResult<NewPasswordValues> & { done?: boolean }) | undefined;
  const fields = result?.fieldErrors ?? {};
  const invalid = !loaderData.token || result?.formError?.key === INVALID_LINK;
  return (
    <section className="py-5 auth-page" aria-labelledby="new-password-title">
      <h1 id="new-password-title">{t("auth.newPassword.title")}</h1>
      {result?.done ? (
        <div className="alert alert-success" role="alert">
          <p>{t("auth.newPassword.done")}</p>
          <Link to="/login" className="btn btn-primary">
            {t("auth.newPassword.login")}
          </Link>
        </div>
      ) : invalid ? (
        <div className="alert alert-danger" role="alert">
          <p>{t(INVALID_LINK)}</p>
          <Link to="/resetpassword">{t("auth.newPassword.requestNew")}</Link>
        </div>
      ) : (
        <Form method="post" noValidate aria-labelledby="new-password-title">
          <FormAlert message={result?.formError} />
          <input type="hidden" name="token" value={loaderData.token} />
          <PasswordField id="new-password" error={fields.password} label={t("auth.fields.newPassword")} choosing />
          <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
            {t("auth.newPassword.submit")}
          </button>
        </Form>
      )}
    </section>
  );
}
