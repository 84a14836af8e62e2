/**
 * /account/alerts (decision 033): how Hittad reaches the owner — the verified mobile number
 * (a code by SMS), the alert settings (event × email / SMS / push) and the trusted
 * contacts (point 1: up to three, each confirms; per item which of them get its alerts).
 * A code or an invitation reaches someone who has not confirmed yet, so an account whose
 * email is not verified is told why those forms are not offered (decision 046).
 * Linked from /account. Every form works without JavaScript and answers with a redirect (PRG) or the
 * form again with its message and what was typed.
 */
import { data, Form } from "react-router";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { CardSection } from "~/components/CardSection";
import { TrustedContacts } from "~/components/TrustedContacts";
import { UnverifiedSenderNotice, useSenderVerified } from "~/components/UnverifiedSenderNotice";
import { useTranslation } from "~/i18n/react";
import { ALERT_CHANNELS, ALERT_EVENTS, isAlwaysOn } from "~/lib/domain/alerts";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { PHONE_INPUT_MAX } from "~/lib/domain/phone";
import { alertsDone, alertsPageAction } from "~/server/alerts/alerts-page.http.server";
import { getAlertSettings, getPhoneState } from "~/server/alerts/alerts.service.server";
import { requireUser } from "~/server/auth/session.server";
import { listContacts, listItemContactChoices } from "~/server/trusted-contacts/trusted-contacts.service.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/account-alerts";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["alerts", "common", "recipients", "trusted"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "alerts");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const deps = await getDeps();
  const [phone, settings, contacts, items] = await Promise.all([
    getPhoneState(deps, user.ref),
    getAlertSettings(deps, user.ref),
    listContacts(deps, user.ref),
    listItemContactChoices(deps, user.ref),
  ]);
  const done = new URL(request.url).searchParams.get("done");
  return data({
    phone,
    settings,
    contacts,
    items,
    done: alertsDone(done),
    // The name in "We sent {{name}} a link".
    addedName: done === "contactAdded" ? (contacts.at(-1)?.name ?? "") : "",
  });
}

/** A refused form's answer names the form (decision 059). */
type Result = ActionResult<Record<string, string>> & { intent?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  return alertsPageAction(request, await getDeps(), user.ref, context.get(requestContext).lang);
}

export default function AccountAlerts({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { phone, settings, contacts, items, done, addedName } = loaderData;
  const verified = useSenderVerified();
  const result = actionData as Result | undefined;
  const errorFor = (intent: string) => (result?.intent === intent ? result.formError : null);
  const fieldFor = (intent: string, field: string) =>
    result?.intent === intent ? result.fieldErrors[field] : undefined;
  const valueOf = (intent: string, field: string) => (result?.intent === intent ? (result.values[field] ?? "") : "");

  return (
    <div className="py-4 account-page">
      <h1 className="mb-4">{t("alerts.title")}</h1>
      <p>{t("alerts.intro")}</p>
      {done ? (
        <div className="alert alert-success" role="status">
          {t(done, { name: addedName })}
        </div>
      ) : null}
      {result?.intent === "" ? <FormAlert message={result.formError} /> : null}

      <CardSection id="alerts-phone" title={t("alerts.phone.title")}>
        <p>{t("alerts.phone.intro")}</p>
        {phone.verified ? (
          <Form method="post" className="mb-3">
            <p>
              {t("alerts.phone.current")} <strong>{phone.verified}</strong>
            </p>
            <input type="hidden" name="intent" value="removePhone" />
            <button type="submit" className="btn btn-outline-danger">
              {t("alerts.phone.remove")}
            </button>
          </Form>
        ) : null}
        <FormAlert message={errorFor("code")} />
        {phone.pending ? (
          <>
            <Form method="post" noValidate className="mb-3">
              <input type="hidden" name="intent" value="code" />
              <Field
                id="alerts-code"
                name="code"
                label={t("alerts.phone.codeLabel", { phone: phone.pending })}
                inputMode="numeric"
                autoComplete="one-time-code"
                required
                maxLength={10}
                defaultValue={valueOf("code", "code")}
                error={fieldFor("code", "code")}
                help={t("alerts.phone.codeHelp")}
              />
              <button type="submit" className="btn btn-primary">
                {t("alerts.phone.confirm")}
              </button>
            </Form>
          </>
        ) : null}
        <FormAlert message={errorFor("phone")} />
        {verified ? (
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="phone" />
            <Field
              id="alerts-phone-number"
              name="phone"
              type="tel"
              label={phone.verified ? t("alerts.phone.changeLabel") : t("alerts.phone.label")}
              autoComplete="tel"
              inputMode="tel"
              required
              maxLength={PHONE_INPUT_MAX}
              defaultValue={valueOf("phone", "phone")}
              error={fieldFor("phone", "phone")}
              help={t("alerts.phone.help")}
            />
            <button type="submit" className="btn btn-primary">
              {t("alerts.phone.send")}
            </button>
          </Form>
        ) : (
          <UnverifiedSenderNotice />
        )}
      </CardSection>

      <CardSection id="alerts-settings" title={t("alerts.settings.title")}>
        <p>{t("alerts.settings.intro")}</p>
        <Form method="post">
          <input type="hidden" name="intent" value="settings" />
          <div className="table-responsive">
            <table className="table align-middle table-fit">
              <caption className="visually-hidden">{t("alerts.settings.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("alerts.settings.event")}</th>
                  {ALERT_CHANNELS.map((c) => (
                    <th scope="col" key={c} className="text-center">
                      {t(`alerts.channels.${c}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {ALERT_EVENTS.map((e) => (
                  <tr key={e}>
                    <th scope="row" id={`alerts-event-${e}`} className="fw-normal">
                      {t(`alerts.events.${e}`)}
                    </th>
                    {ALERT_CHANNELS.map((c) => (
                      <td key={c} className="text-center">
                        {/* A cell that is always on (the paid year's mail, decision 056): shown ticked, not sent. */}
                        <input
                          className="form-check-input"
                          type="checkbox"
                          name={`${e}.${c}`}
                          id={`alerts-${e}-${c}`}
                          defaultChecked={settings[e][c]}
                          disabled={isAlwaysOn(e, c)}
                          aria-describedby={isAlwaysOn(e, c) ? "alerts-always-help" : undefined}
                          aria-label={`${t(`alerts.events.${e}`)}: ${t(`alerts.channels.${c}`)}`}
                        />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="form-text">{t("alerts.settings.help")}</p>
          <p className="form-text" id="alerts-always-help">
            {t("alerts.settings.renewalHelp")}
          </p>
          <button type="submit" className="btn btn-primary">
            {t("alerts.settings.save")}
          </button>
        </Form>
      </CardSection>

      <TrustedContacts
        contacts={contacts}
        items={items}
        errorFor={errorFor}
        fieldFor={fieldFor}
        valueOf={valueOf}
        intro={t("trusted.intro")}
        listTitle={t("trusted.list")}
        addBlocked={verified ? undefined : <UnverifiedSenderNotice />}
      />
    </div>
  );
}
