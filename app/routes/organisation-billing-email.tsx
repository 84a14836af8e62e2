/**
 * `/organisations/billing-email/{token}` (decision 028): the link mailed
 * to an organisation's billing email. Opening it confirms that address, so the
 * organisation's admins may pay by invoice. The token is the key (no sign-in: the billing
 * address is often a shared mailbox); it works once, for 7 days, and only while the
 * organisation still bills that address. The token is in the path: listed in
 * app/server/secret-urls.server.ts, so the request log never shows it.
 */
import { useTranslation } from "~/i18n/react";
import { data, Link } from "react-router";
import { pageMeta } from "~/lib/domain/meta";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { organisationErrors } from "~/server/organisations/organisations.http.server";
import { confirmBillingEmail, OrganisationError } from "~/server/organisations/organisations.service.server";
import { PRIVATE_LINK_HEADERS } from "~/server/http/private-link.server";
import type { Route } from "./+types/organisation-billing-email";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["organisations"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "organisations.billingEmail.page"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ params }: Route.LoaderArgs) {
  // A link that ended is said on this page itself (decision 059's exception), under the private link's headers.
  try {
    const { organisation } = await confirmBillingEmail(await getDeps(), params.token);
    return data({ organisation, error: null }, { headers: PRIVATE_LINK_HEADERS });
  } catch (err) {
    if (!(err instanceof OrganisationError)) throw err;
    const { status, message } = httpErrorOf(organisationErrors, err);
    return data({ organisation: null, error: message }, { status, headers: PRIVATE_LINK_HEADERS });
  }
}

/**
 * No form posts here: 405 from the route itself, so React Router's "no action" error (which
 * names the path, token included) never reaches the log.
 */
export async function action() {
  throw data(null, { status: 405, headers: { Allow: "GET" } });
}

export default function OrganisationBillingEmail({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { organisation, error } = loaderData;
  return (
    <section className="py-5 col-lg-8" aria-labelledby="billing-email-title">
      <h1 id="billing-email-title">{t("organisations.billingEmail.page.title")}</h1>
      {organisation ? (
        <div className="alert alert-success text-break" role="status">
          {t("organisations.billingEmail.page.done", { organisation })}
        </div>
      ) : (
        <div className="alert alert-danger" role="alert">
          {error ? t(error.key, error.params ?? {}) : null}
        </div>
      )}
      <Link to="/" className="btn btn-outline-secondary">
        {t("organisations.billingEmail.page.home")}
      </Link>
    </section>
  );
}
