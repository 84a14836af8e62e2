import { useTranslation } from "~/i18n/react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { FormAlert } from "~/components/form/FormAlert";
import { verifyTokenOf } from "~/lib/forms/auth-forms";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { z } from "zod";
import { ACCOUNT_HTTP_ERRORS } from "~/server/auth/accounts.http.server";
import { AccountError, resendVerificationMail, verifyEmailToken } from "~/server/auth/accounts.service.server";
import { requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { formAction } from "~/server/http/form-action.server";
import { localReturnPath } from "~/lib/domain/redirect-target";
import type { Route } from "./+types/verify-email";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["auth", "dashboard"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.verify");
}

type State = "verified" | "invalid" | "pending";

/**
 * /user/verify-email?token=… is the link of the verification mail: it marks the email
 * verified and says so. Without a token a signed-in user sees where the link went and
 * can ask for it again (POST).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const raw = params.get("token");
  if (raw !== null) {
    const token = verifyTokenOf(raw);
    if (!token) return { state: "invalid" as State, email: null };
    // A link that verifies nothing (expired, used, altered) is this page's own "invalid" state, not an error page.
    try {
      await verifyEmailToken(await getDeps(), token);
      // Back to the invite that sent the visitor to register (decision 038): a local
      // path only, so a crafted link cannot send anyone off-site.
      const next = localReturnPath(params.get("next"));
      if (next) throw redirect(next);
      return { state: "verified" as State, email: null };
    } catch (err) {
      if (err instanceof AccountError) return { state: "invalid" as State, email: null };
      throw err;
    }
  }
  const user = await requireUser(request);
  return { state: (user.emailVerified ? "verified" : "pending") as State, email: user.email };
}

type ResendValues = Record<string, never>;

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const deps = await getDeps();
  return formAction(
    request,
    { errors: ACCOUNT_HTTP_ERRORS, values: (): ResendValues => ({}) },
    {
      // The invite page's "Send the link again" comes back to the invite (a local path only).
      schema: z.object({ next: z.unknown().optional() }),
      async handle({ next }) {
        const account = { id: user.ref, email: user.email, emailVerified: user.emailVerified };
        await resendVerificationMail(deps, account, localReturnPath(next));
        return { values: {}, fieldErrors: {}, formError: null, sent: true } satisfies ActionResult<ResendValues> & {
          sent: boolean;
        };
      },
    },
  );
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const result = actionData as (ActionResult<ResendValues> & { sent?: boolean }) | undefined;
  const { state, email } = loaderData;
  return (
    <section className="py-5 auth-page" aria-labelledby="verify-title">
      <h1 id="verify-title">{t("auth.verify.title")}</h1>
      {state === "verified" ? (
        <div className="alert alert-success" role="status">
          <p>{t("auth.verify.done")}</p>
          <Link to="/dashboard" className="btn btn-primary">
            {t("auth.verify.continue")}
          </Link>
        </div>
      ) : state === "pending" ? (
        <>
          {result?.sent ? (
            <div className="alert alert-success" role="status">
              {t("auth.verify.sent", { email })}
            </div>
          ) : (
            <p>{t("auth.verify.pending", { email })}</p>
          )}
          <FormAlert message={result?.formError} />
          <Form method="post">
            <button type="submit" className="btn btn-outline-primary" disabled={navigation.state === "submitting"}>
              {t("dashboard.verify.resend")}
            </button>
          </Form>
        </>
      ) : (
        <div className="alert alert-danger" role="alert">
          <p>{t("auth.errors.invalidVerifyLink")}</p>
          <Link to="/dashboard">{t("auth.verify.continue")}</Link>
        </div>
      )}
    </section>
  );
}
