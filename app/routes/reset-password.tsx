import { leanWhenAnonymous, type LeanHandle } from "~/lean/lean-page";
import { useTranslation } from "~/i18n/react";
import { Form, Link, useNavigation } from "react-router";
import { EmailField } from "~/components/form/AuthFields";
import { FormAlert } from "~/components/form/FormAlert";
import { resetRequestSchema } from "~/lib/forms/auth-forms";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { ACCOUNT_HTTP_ERRORS } from "~/server/auth/accounts.http.server";
import { requestPasswordReset } from "~/server/auth/accounts.service.server";
import { requireSignedOut } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { formAction } from "~/server/http/form-action.server";
import type { Route } from "./+types/reset-password";

/**
 * Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020);
 * without framework JavaScript for visitors who are not signed in (decision 042).
 */
export const handle: { i18n: string[] } & LeanHandle = { i18n: ["auth", "common"], lean: leanWhenAnonymous };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.reset");
}

interface ResetValues {
  email: string;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireSignedOut(request);
  return null;
}

const emailValues = (form: FormData): ResetValues => {
  const email = form.get("email");
  return { email: typeof email === "string" ? email : "" };
};

export async function action({ request, context }: Route.ActionArgs) {
  const ip = context.get(requestContext).ip;
  return formAction(
    request,
    { errors: ACCOUNT_HTTP_ERRORS, values: emailValues },
    {
      schema: resetRequestSchema,
      async handle(input) {
        await requestPasswordReset(await getDeps(), { email: input.email, ip });
        const sent: ActionResult<ResetValues> & { sent: boolean } = {
          values: { email: "" },
          fieldErrors: {},
          formError: null,
          sent: true,
        };
        return sent;
      },
    },
  );
}

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const result = actionData as (ActionResult<ResetValues> & { sent?: boolean }) | undefined;
  const fields = result?.fieldErrors ?? {};
  return (
    <section className="py-5 auth-page" aria-labelledby="reset-title">
      <h1 id="reset-title">{t("auth.reset.title")}</h1>
      {result?.sent ? (
        <div className="alert alert-success" role="alert">
          <p className="mb-1 fw-semibold">{t("auth.reset.sent")}</p>
          <p className="mb-0 small">{t("auth.reset.sentDetail")}</p>
        </div>
      ) : null}
      <FormAlert message={result?.formError} />
      <p>{t("auth.reset.intro")}</p>
      <Form method="post" noValidate aria-labelledby="reset-title">
        <EmailField
          key={result?.sent ? "sent" : "form"}
          id="reset-email"
          error={fields.email}
          defaultValue={result?.values.email ?? ""}
        />
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
