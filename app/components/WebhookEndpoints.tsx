/**
 * The webhooks page's body (decision 061): the form that adds an endpoint, and each
 * endpoint with its state, events, signing secret (revealed on demand: admins may always
 * see it, the server needs it in clear to sign), its buttons and its delivery log. Plain
 * forms, posted by intent; the log is a list, not a table, so it fits 390 px. An admin
 * whose email is not verified gets the reason instead of every form that makes Hittad post.
 */
import { Form } from "react-router";
import { CardSection } from "~/components/CardSection";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { IntentButton } from "~/components/form/IntentButton";
import { UnverifiedSenderNotice } from "~/components/UnverifiedSenderNotice";
import { useTranslation } from "~/i18n/react";
import { formatDate, formatDateTime } from "~/lib/domain/dates";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX, type WebhookEndpointView } from "~/lib/domain/webhooks";
import type { ActionResult } from "~/lib/forms/form";
import { useLang } from "~/lib/hooks/use-lang";

export type WebhooksResult = ActionResult<{ url?: string; events?: string }> & { intent?: string };

/** The translation key's tail of an event type: `item.scanned` → `itemScanned`. */
const eventKey = (type: string) => type.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());

function Button({
  intent,
  endpoint,
  label,
  danger,
}: {
  intent: string;
  endpoint: string;
  label: string;
  danger?: boolean;
}) {
  return <IntentButton intent={intent} fields={{ endpoint }} label={label} danger={danger} className="d-inline" />;
}

/** `sends`: the viewer may make Hittad post (a verified admin); otherwise no test, enable or resend. */
function Endpoint({ e, sends }: { e: WebhookEndpointView; sends: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const state = e.enabled
    ? e.failingSince !== null
      ? t("webhooks.state.failing", { date: formatDate(e.failingSince, lang) })
      : t("webhooks.state.enabled")
    : e.disabledReason === "failing"
      ? t("webhooks.state.disabledFailing")
      : t("webhooks.state.disabled");
  return (
    <li id={`endpoint-${e.id}`} className="border rounded p-3 mb-3">
      <h3 className="h6 text-break mb-1">{e.url}</h3>
      <p className={`mb-2 small ${e.enabled && e.failingSince === null ? "text-success" : "text-danger"}`}>{state}</p>
      <p className="mb-2 small">
        {t("webhooks.events")}: {e.events.map((ev) => t(`webhooks.event.${eventKey(ev)}`)).join(", ")}
      </p>
      <details className="mb-2">
        <summary>{t("webhooks.secret.show")}</summary>
        <p className="small mb-1 mt-1">{t("webhooks.secret.help")}</p>
        <code className="d-block text-break user-select-all">{e.secret}</code>
      </details>
      <div className="d-flex flex-wrap gap-2 mb-3">
        {e.enabled && sends ? <Button intent="test" endpoint={e.id} label={t("webhooks.test")} /> : null}
        {e.enabled ? (
          <Button intent="disable" endpoint={e.id} label={t("webhooks.disable")} />
        ) : sends ? (
          <Button intent="enable" endpoint={e.id} label={t("webhooks.enable")} />
        ) : null}
        <Button intent="delete" endpoint={e.id} label={t("webhooks.delete")} danger />
      </div>
      <h4 className="h6">{t("webhooks.log.title")}</h4>
      {e.deliveries.length === 0 ? (
        <p className="small text-body-secondary mb-0">{t("webhooks.log.none")}</p>
      ) : (
        <ol className="list-unstyled mb-0">
          {e.deliveries.map((d) => (
            <li key={d.id} className="border-top py-2 d-flex flex-wrap align-items-center gap-2 small">
              <span className={`badge ${d.ok ? "text-bg-success" : "text-bg-danger"}`}>
                {d.statusCode ?? t("webhooks.log.noAnswer")}
              </span>
              <span className="text-break">{d.eventType}</span>
              <span className="text-body-secondary">
                {formatDateTime(d.attemptedAt, lang)} · {t("webhooks.log.duration", { ms: d.durationMs })}
              </span>
              {e.enabled && sends ? (
                <Form method="post" className="ms-auto">
                  <input type="hidden" name="intent" value="resend" />
                  <input type="hidden" name="endpoint" value={e.id} />
                  <input type="hidden" name="event" value={d.eventId} />
                  <button
                    type="submit"
                    className="btn btn-link btn-sm p-0"
                    aria-label={t("webhooks.log.resendLabel", {
                      event: d.eventType,
                      time: formatDateTime(d.attemptedAt, lang),
                    })}
                  >
                    {t("webhooks.log.resend")}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}

export function WebhookEndpoints({
  page,
  result,
}: {
  page: { endpoints: WebhookEndpointView[]; full: boolean; emailVerified: boolean };
  result: WebhooksResult | undefined;
}) {
  const { t } = useTranslation();
  const adding = result?.intent === "add" ? result : undefined;
  const chosen = new Set((adding?.values.events ?? "").split(","));
  return (
    <>
      {result && result.intent !== "add" ? <FormAlert message={result.formError} /> : null}
      <p>{t("webhooks.intro")}</p>
      <CardSection id="webhooks-add" title={t("webhooks.add.title")}>
        {!page.emailVerified ? (
          <>
            <FormAlert message={adding?.formError} />
            <UnverifiedSenderNotice text="webhooks.unverified" />
          </>
        ) : page.full ? (
          <p className="mb-0">{t("webhooks.errors.tooMany", { max: page.endpoints.length })}</p>
        ) : (
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="add" />
            <FormAlert message={adding?.formError} />
            <Field
              id="webhook-url"
              name="url"
              type="url"
              inputMode="url"
              label={t("webhooks.add.url")}
              help={t("webhooks.add.urlHelp")}
              placeholder="https://"
              required
              maxLength={WEBHOOK_URL_MAX}
              defaultValue={adding?.values.url ?? ""}
              error={adding?.fieldErrors.url}
            />
            <fieldset
              className="mb-3"
              aria-describedby={adding?.fieldErrors.events ? "webhook-events-error" : undefined}
            >
              <legend className="form-label fs-6">{t("webhooks.add.events")}</legend>
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <div className="form-check" key={type}>
                  <input
                    className="form-check-input"
                    type="checkbox"
                    name="events"
                    value={type}
                    id={`webhook-event-${type}`}
                    defaultChecked={chosen.has(type)}
                  />
                  <label className="form-check-label" htmlFor={`webhook-event-${type}`}>
                    {t(`webhooks.event.${eventKey(type)}`)} <code className="small">{type}</code>
                  </label>
                </div>
              ))}
              {adding?.fieldErrors.events ? (
                <div id="webhook-events-error" className="invalid-feedback d-block">
                  {t(adding.fieldErrors.events)}
                </div>
              ) : null}
            </fieldset>
            <button type="submit" className="btn btn-primary">
              {t("webhooks.add.submit")}
            </button>
          </Form>
        )}
      </CardSection>
      <CardSection id="webhooks-list" title={t("webhooks.list")}>
        {page.endpoints.length === 0 ? (
          <p className="mb-0">{t("webhooks.none")}</p>
        ) : (
          <ul className="list-unstyled mb-0">
            {page.endpoints.map((e) => (
              <Endpoint key={e.id} e={e} sends={page.emailVerified} />
            ))}
          </ul>
        )}
      </CardSection>
    </>
  );
}
