/**
 * /organisations/{id}/webhooks (decision 061): the organisation's webhook endpoints. Its
 * admins add an endpoint (https, a public host) with the events it hears of, see its
 * signing secret, its delivery log (time, event, status, duration) with "Resend", send a
 * test event, and disable, enable or delete it. Anyone else gets "Page not found".
 * Linked from the organisation's page. Every form answers a redirect back (PRG) or the
 * add form with its message.
 */
import { Link } from "react-router";
import { WebhookEndpoints, type WebhooksResult } from "~/components/WebhookEndpoints";
import { useTranslation } from "~/i18n/react";
import { pageMeta } from "~/lib/domain/meta";
import { requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { webhooksAction, webhooksLoader } from "~/server/webhooks/webhooks-page.http.server";
import type { Route } from "./+types/organisation-webhooks";

export const handle = { i18n: ["common", "recipients", "webhooks"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "webhooks.page"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return webhooksLoader(request, await getDeps(), user.ref, params.id);
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  return webhooksAction(request, await getDeps(), user.ref, params.id);
}

export default function OrganisationWebhooks({ loaderData, actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { organisation, message } = loaderData;
  return (
    <div className="py-4 account-page">
      <p>
        <Link to={`/organisations/${params.id}`}>{t("webhooks.back", { organisation })}</Link>
      </p>
      <h1 id="webhooks-title" className="mb-3 text-break" tabIndex={-1}>
        {t("webhooks.title", { organisation })}
      </h1>
      {message ? (
        <div className="alert alert-success" role="status">
          {t(message)}
        </div>
      ) : null}
      <WebhookEndpoints page={loaderData} result={actionData as WebhooksResult | undefined} />
    </div>
  );
}
