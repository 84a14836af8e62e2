/** `/organisations/new` (decision 022): a signed-in user creates an organisation and becomes its admin. */
import { useTranslation } from "~/i18n/react";
import { data, redirect } from "react-router";
import { FormAlert } from "~/components/form/FormAlert";
import { OrganisationForm } from "~/components/OrganisationForm";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { ORGANISATION_FIELDS, organisationSchema } from "~/lib/domain/organisations";
import { getSessionUser, requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { formAction } from "~/server/http/form-action.server";
import { organisationErrors } from "~/server/organisations/organisations.http.server";
import { createOrganisation } from "~/server/organisations/organisations.service.server";
import type { Route } from "./+types/organisations-new";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["common", "organisations"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "organisations.new");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

/**
 * Signed-out visitors (the /companies call to action) register first and come back here:
 * the return-to cookie is honoured by both registration and sign-in.
 */
export async function loader({ request }: Route.LoaderArgs) {
  if (!(await getSessionUser(request))) {
    const remember = (await getDeps()).cookies.returnTo(request);
    throw redirect("/user/register", remember ? { headers: { "Set-Cookie": remember } } : undefined);
  }
  return data(null);
}

type Values = Partial<Record<string, string>>;

const organisationValues = (form: FormData): Values => {
  const values: Values = {};
  for (const f of ORGANISATION_FIELDS) if (typeof form.get(f) === "string") values[f] = form.get(f) as string;
  return values;
};

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return formAction(
    request,
    { errors: organisationErrors, values: organisationValues },
    {
      schema: organisationSchema,
      invalid: { key: "organisations.errors.summary" },
      // A number another organisation has (decision 057): beside the field, with what was typed.
      async handle(input) {
        const deps = await getDeps();
        const id = await createOrganisation(deps, user.ref, input);
        // The new organisation becomes the active scope (decision 038): the header names
        // it and its dashboard is one link away; the scope is checked on every request as ever.
        return redirect(`/organisations/${id}?done=created`, { headers: { "Set-Cookie": deps.cookies.scope(id) } });
      },
    },
  );
}

export default function NewOrganisation({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult<Values> | undefined;
  return (
    <section className="py-4 col-lg-8" aria-labelledby="org-new-title">
      <h1 id="org-new-title">{t("organisations.new.title")}</h1>
      <p className="lead">{t("organisations.new.lead")}</p>
      <FormAlert message={result?.formError} />
      <OrganisationForm
        values={result?.values ?? { invoiceCountry: "SE" }}
        errors={result?.fieldErrors ?? {}}
        submit={t("organisations.new.submit")}
      />
    </section>
  );
}
