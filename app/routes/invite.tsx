/**
 * `/invite/{token}` (decision 022): the link in an organisation invite. Signed-out visitors
 * are asked to sign in or register and come back here (the return-to cookie); a signed-in
 * user whose verified email is the invited one accepts it. Used once, within 7 days.
 */
import { useTranslation } from "~/i18n/react";
import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { FormAlert } from "~/components/form/FormAlert";
import { formatDate } from "~/lib/domain/dates";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { getSessionUser, requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { formAction } from "~/server/http/form-action.server";
import { organisationErrors } from "~/server/organisations/organisations.http.server";
import { acceptInvite, getInvite, OrganisationError } from "~/server/organisations/organisations.service.server";
import type { Route } from "./+types/invite";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["organisations"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "organisations.accept");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const deps = await getDeps();
  const user = await getSessionUser(request);
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  // A link that ended is said on the invite page itself, beside the way to sign in.
  try {
    const invite = await getInvite(deps, params.token);
    if (!user || user.email.toLowerCase() !== invite.email) {
      // Sign-in (and a sign-in after registering, or after signing out of another account) comes back here.
      const remember = deps.cookies.returnTo(request);
      if (remember) headers.append("Set-Cookie", remember);
    }
    return data(
      {
        invite,
        error: null,
        signedIn: !!user,
        email: user?.email ?? null,
        emailVerified: user?.emailVerified ?? false,
        path: `/invite/${encodeURIComponent(params.token)}`,
      },
      { headers },
    );
  } catch (err) {
    if (!(err instanceof OrganisationError)) throw err;
    const { status, message } = httpErrorOf(organisationErrors, err);
    return data(
      { invite: null, error: message, signedIn: !!user, email: null, emailVerified: false, path: "" },
      { status, headers },
    );
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const account = { id: user.ref, email: user.email, emailVerified: user.emailVerified };
  return formAction(
    request,
    { errors: organisationErrors, values: () => ({}) },
    {
      schema: z.object({}),
      async handle() {
        const organisationId = await acceptInvite(await getDeps(), account, params.token);
        return redirect(`/organisations/${organisationId}?done=joined`);
      },
    },
  );
}

export default function Invite({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { invite, error, signedIn, email, emailVerified, path } = loaderData;
  const result = actionData as ActionResult<Record<string, never>> | undefined;
  return (
    <section className="py-4 col-lg-8" aria-labelledby="invite-title">
      <h1 id="invite-title">{t("organisations.accept.title")}</h1>
      {!invite ? (
        <FormAlert message={error} />
      ) : (
        <>
          <p className="lead text-break">
            {t("organisations.accept.lead", {
              organisation: invite.organisationName,
              role: t(`organisations.rolesInSentence.${invite.role}`),
            })}
          </p>
          <p className="text-break">
            {t("organisations.accept.for", { email: invite.email, date: formatDate(invite.expiresAt, lang) })}
          </p>
          <FormAlert message={result?.formError} />
          {signedIn && email?.toLowerCase() !== invite.email ? (
            // Accepting could only be refused: say which address the invite is for instead.
            <div className="alert alert-warning">
              <p className="text-break">
                {t("organisations.accept.otherEmail", { email: email ?? "", invited: invite.email })}
              </p>
              <Link className="btn btn-outline-primary" to="/logout">
                {t("organisations.accept.signOut")}
              </Link>
            </div>
          ) : signedIn && !emailVerified ? (
            <div className="alert alert-warning">
              <p>{t("organisations.accept.verifyFirst")}</p>
              {/* The new link comes back here too (decision 038). */}
              <Form method="post" action="/user/verify-email" className="mb-0">
                <input type="hidden" name="next" value={path} />
                <button type="submit" className="btn btn-outline-dark">
                  {t("organisations.accept.resend")}
                </button>
              </Form>
            </div>
          ) : signedIn ? (
            <Form method="post">
              <button type="submit" className="btn btn-primary">
                {t("organisations.accept.submit")}
              </button>
            </Form>
          ) : (
            <>
              <p>{t("organisations.accept.signInFirst")}</p>
              <p className="d-flex flex-wrap gap-2">
                <Link className="btn btn-primary" to="/login">
                  {t("organisations.accept.signIn")}
                </Link>
                {/* The invited address typed in, and back here after registering and verifying (decision 038). */}
                <Link
                  className="btn btn-outline-primary"
                  to={`/user/register?${new URLSearchParams({ email: invite.email, next: path })}`}
                >
                  {t("organisations.accept.register")}
                </Link>
              </p>
            </>
          )}
        </>
      )}
    </section>
  );
}
