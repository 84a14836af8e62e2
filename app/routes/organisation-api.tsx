/**
 * /organisations/{id}/api (decision 054): the organisation's REST API keys. Its admins make
 * a key (named, read or read-write; shown once, right here), see every key with when and by
 * whom it was made and when it was last used, and revoke one at once. Anyone else gets
 * "Page not found", as the organisation's other admin pages. Linked from the organisation's page.
 */
import { data, Form, Link } from "react-router";
import { CardSection } from "~/components/CardSection";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { IntentButton } from "~/components/form/IntentButton";
import { useTranslation } from "~/i18n/react";
import { API_KEY_NAME_MAX, API_KEY_SCOPES } from "~/lib/domain/api-keys";
import { formatDate, formatDateTime } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { apiKeyPageErrors, apiKeysAction, apiKeysDone, type CreatedKey } from "~/server/api/api-keys-page.http.server";
import { getApiKeysPage } from "~/server/api/api-keys.service.server";
import { requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import type { Refusal } from "~/server/http/form-action.server";
import type { Route } from "./+types/organisation-api";

export const handle = { i18n: ["api", "common", "organisations"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "api.keys"), { name: "robots", content: "noindex" }];
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = await orErrorPage(apiKeyPageErrors, getApiKeysPage(await getDeps(), user.ref, params.id));
  const done = apiKeysDone(new URL(request.url).searchParams.get("done"));
  return data({ ...page, done }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  return apiKeysAction(request, await getDeps(), user, params.id);
}

const scopeKey = (scope: string) => (scope === "read" ? "api.keys.scopes.read" : "api.keys.scopes.readWrite");

export default function OrganisationApi({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { organisation, keys, done } = loaderData;
  const result = actionData as (Refusal & Partial<CreatedKey>) | (CreatedKey & { intent?: undefined }) | undefined;
  const created = result && "created" in result ? result.created : undefined;
  const refusal = result && !("created" in result) ? (result as Refusal) : undefined;
  return (
    <div className="py-4 account-page">
      <p>
        <Link to={`/organisations/${organisation.id}`}>{t("api.keys.back", { organisation: organisation.name })}</Link>
      </p>
      <h1 className="mb-3 text-break">{t("api.keys.title", { organisation: organisation.name })}</h1>
      <p>{t("api.keys.intro")}</p>
      <p>
        <Link to="/api/docs">{t("api.keys.docs")}</Link>
      </p>
      {done ? (
        <div id="api-keys-done" className="alert alert-success" role="status" tabIndex={-1}>
          {t(done)}
        </div>
      ) : null}
      {created ? (
        <section className="alert alert-success" aria-labelledby="api-key-created-title">
          <h2 id="api-key-created-title" className="h5" tabIndex={-1} ref={(el) => el?.focus()}>
            {t("api.keys.created.title", { name: created.name })}
          </h2>
          <p>
            {t("api.keys.created.text")}
            {created.told > 0 ? ` ${t("api.keys.created.told")}` : ""}
          </p>
          <label htmlFor="api-key-value" className="form-label">
            {t("api.keys.created.label")}
          </label>
          <input
            id="api-key-value"
            className="form-control font-monospace"
            readOnly
            value={created.key}
            onFocus={(e) => e.currentTarget.select()}
          />
        </section>
      ) : null}
      <CardSection id="api-key-create" title={t("api.keys.create.title")}>
        <FormAlert message={refusal?.intent === "create" ? refusal.formError : null} />
        <Form method="post" noValidate key={keys.length}>
          <input type="hidden" name="intent" value="create" />
          <Field
            id="api-key-name"
            name="name"
            label={t("api.keys.create.name")}
            help={t("api.keys.create.nameHelp")}
            required
            maxLength={API_KEY_NAME_MAX}
            autoComplete="off"
            defaultValue={refusal?.intent === "create" ? (refusal.values.name ?? "") : ""}
            error={refusal?.intent === "create" ? refusal.fieldErrors.name : undefined}
          />
          <fieldset className="mb-3">
            <legend className="form-label fs-6">{t("api.keys.create.scope")}</legend>
            {API_KEY_SCOPES.map((scope) => (
              <div className="form-check" key={scope}>
                <input
                  className="form-check-input"
                  type="radio"
                  name="scope"
                  id={`api-key-scope-${scope}`}
                  value={scope}
                  defaultChecked={scope === (refusal?.values.scope ?? "read")}
                />
                <label className="form-check-label" htmlFor={`api-key-scope-${scope}`}>
                  {t(scopeKey(scope))}
                </label>
              </div>
            ))}
          </fieldset>
          <button type="submit" className="btn btn-primary">
            {t("api.keys.create.submit")}
          </button>
        </Form>
      </CardSection>
      <CardSection id="api-key-list" title={t("api.keys.list.title")}>
        {keys.length === 0 ? (
          <p className="mb-0">{t("api.keys.list.none")}</p>
        ) : (
          <ul className="list-group">
            {keys.map((k) => (
              <li key={k.id} className="list-group-item d-flex flex-wrap justify-content-between gap-2">
                <span className="text-break">
                  <strong>{k.name}</strong> · {t(scopeKey(k.scope))}
                  <span className="d-block small font-monospace">{k.hint}…</span>
                  <span className="d-block small text-body-secondary">
                    {t("api.keys.list.created", { date: formatDate(k.createdAt, lang), name: k.creatorName })}
                  </span>
                  <span className="d-block small text-body-secondary">
                    {k.revokedAt !== null
                      ? t("api.keys.list.revoked", { date: formatDateTime(k.revokedAt, lang) })
                      : k.lastUsedAt !== null
                        ? t("api.keys.list.lastUsed", { date: formatDateTime(k.lastUsedAt, lang) })
                        : t("api.keys.list.neverUsed")}
                  </span>
                </span>
                {k.revokedAt === null ? (
                  <IntentButton
                    intent="revoke"
                    fields={{ keyId: k.id }}
                    label={t("api.keys.list.revoke")}
                    ariaLabel={t("api.keys.list.revokeLabel", { name: k.name })}
                    danger
                    className="align-self-start"
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </CardSection>
    </div>
  );
}
