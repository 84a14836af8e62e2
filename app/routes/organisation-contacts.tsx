/**
 * /organisations/{id}/contacts (decision 040): the trusted contacts of
 * an organisation's lost-and-found desk — up to three people who get the finder messages
 * and lost-mode alerts of its items assigned to nobody, each confirming first and able to
 * stop, chosen per item. Current admins only (anyone else: "Page not found"), and none is
 * named before the organisation accepted the data processing agreement (decision 046: the
 * page says so and links to where it is accepted). Linked from the organisation's page.
 * Every form answers a redirect back (PRG) or the form with its message.
 */
import { Link } from "react-router";
import { TrustedContacts } from "~/components/TrustedContacts";
import { UnverifiedSenderNotice, useSenderVerified } from "~/components/UnverifiedSenderNotice";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { requireUser } from "~/server/auth/session.server";
import { contactsSendErrors } from "~/server/trusted-contacts/trusted-contacts.http.server";
import { getDeskContacts } from "~/server/trusted-contacts/trusted-contacts.service.server";
import { DESK_DONE, deskPageAction } from "~/server/trusted-contacts/desk-page.http.server";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import type { Route } from "./+types/organisation-contacts";

export const handle = { i18n: ["alerts", "common", "recipients", "trusted"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "trusted.desk");
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = await orErrorPage(contactsSendErrors, getDeskContacts(await getDeps(), user.ref, params.id));
  const done = new URL(request.url).searchParams.get("done") ?? "";
  const message = Object.hasOwn(DESK_DONE, done) ? DESK_DONE[done as keyof typeof DESK_DONE] : null;
  const addedName = done === "added" ? (page.contacts.at(-1)?.name ?? "") : "";
  return { ...page, message, addedName };
}

type Result = ActionResult<Record<string, string>> & { intent: string };

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  return deskPageAction(request, await getDeps(), user.ref, params.id);
}

export default function OrganisationContacts({ loaderData, actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { organisation, dpaAccepted, contacts, items, message, addedName } = loaderData;
  const verified = useSenderVerified();
  const result = actionData as Result | undefined;
  return (
    <div className="py-4 account-page">
      <p>
        <Link to={`/organisations/${params.id}`}>{t("trusted.desk.back", { organisation })}</Link>
      </p>
      <h1 className="mb-4 text-break">{t("trusted.desk.title", { organisation })}</h1>
      {message ? (
        <div className="alert alert-success" role="status">
          {t(message, { name: addedName })}
        </div>
      ) : null}
      {result && !["addContact"].includes(result.intent) ? <FormAlert message={result.formError} /> : null}
      <TrustedContacts
        contacts={contacts}
        items={items}
        errorFor={(intent) => (result?.intent === intent ? result.formError : null)}
        fieldFor={(intent, field) => (result?.intent === intent ? result.fieldErrors[field] : undefined)}
        valueOf={(intent, field) => (result?.intent === intent ? (result.values[field] ?? "") : "")}
        intro={t("trusted.desk.intro", { organisation })}
        listTitle={t("trusted.desk.list")}
        addBlocked={
          !dpaAccepted ? (
            <div className="alert alert-warning" role="note">
              <p className="mb-2">{t("trusted.desk.dpaNotice")}</p>
              <Link to={`/organisations/${params.id}#dpa`}>{t("trusted.desk.dpaLink")}</Link>
            </div>
          ) : !verified ? (
            <UnverifiedSenderNotice />
          ) : undefined
        }
      />
    </div>
  );
}
