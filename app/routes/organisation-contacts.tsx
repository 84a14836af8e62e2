/**
 * /organisations/{id}/contacts (decision 040): the trusted contacts of
 * an organisation's lost-and-found desk — up to three people who get the finder messages
 * and lost-mode alerts of its items assigned to nobody, each confirming first and able to
 * stop, chosen per item. Current admins only (anyone else: "Page not found"), and none is
 * named before the organisation accepted the data processing agreement (decision 046: the
 * page says so and links to where it is accepted). Linked from the organisation's page.
 * Every form answers a redirect back (PRG) or the form with its message.
 */
import { Link, redirect } from "react-router";
import { TrustedContacts } from "~/components/TrustedContacts";
import { UnverifiedSenderNotice, useSenderVerified } from "~/components/UnverifiedSenderNotice";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import type { ActionResult } from "~/lib/form";
import { pageMeta } from "~/lib/meta";
import { requireUser } from "~/server/auth/session.server";
import { contactsSendErrors } from "~/server/contacts/contacts.http.server";
import { getDeskContacts, removeDeskContact, saveDeskItemChoices } from "~/server/contacts/contacts.service.server";
import { addDeskContact } from "~/server/contacts/invite.service.server";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { intent, intentAction } from "~/server/http/form-action.server";
import { chosenItemContacts } from "~/server/alerts/alerts-page.http.server";
import { z } from "zod";
import type { Route } from "./+types/organisation-contacts";

export const handle = { i18n: ["alerts", "common", "recipients", "trusted"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "trusted.desk");
}

const DONE = { added: "trusted.added", removed: "trusted.removed", items: "trusted.perItem.saved" } as const;

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = await orErrorPage(contactsSendErrors, getDeskContacts(await getDeps(), user.ref, params.id));
  const done = new URL(request.url).searchParams.get("done") ?? "";
  const message = Object.hasOwn(DONE, done) ? DONE[done as keyof typeof DONE] : null;
  const addedName = done === "added" ? (page.contacts.at(-1)?.name ?? "") : "";
  return { ...page, message, addedName };
}

type Values = Record<string, string>;
type Result = ActionResult<Values> & { intent: string };

const text = z.unknown().transform((v) => (typeof v === "string" ? v.slice(0, 2000) : ""));
const contactValues = (form: FormData): Values => {
  const { name, email, phone } = z.object({ name: text, email: text, phone: text }).parse(Object.fromEntries(form));
  return { name, email, phone };
};

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const deps = await getDeps();
  const back = (done: string) => redirect(`/organisations/${params.id}/contacts?done=${done}#trusted-title`);
  const options = { errors: contactsSendErrors, values: contactValues, tagIntent: true };
  return intentAction(
    request,
    { ...options, unknownIntent: "alerts.errors.unknown", unknownIntentOn: "alert" },
    {
      addContact: intent({
        schema: z.object({ name: text, email: text, phone: text }),
        async handle(contact) {
          await addDeskContact(deps, user.ref, params.id, contact);
          return back("added");
        },
      }),
      removeContact: intent({
        schema: z.object({ contact: text }),
        async handle({ contact }) {
          await removeDeskContact(deps, user.ref, params.id, contact);
          return back("removed");
        },
      }),
      itemContacts: intent({
        schema: z.object({ items: text }),
        async handle({ items }, form) {
          const itemIds = items.split(",").slice(0, 200);
          await saveDeskItemChoices(deps, user.ref, params.id, chosenItemContacts(form), itemIds);
          return back("items");
        },
      }),
    },
  );
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
