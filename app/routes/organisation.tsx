/**
 * `/organisations/{id}` (decision 022): the organisation's page. Admins edit its details,
 * see members and pending invites, invite by email, revoke invites, change roles and
 * remove members; every member can leave. Outsiders get the 404 page. One form per
 * section, told apart by `intent`; each answers a redirect back here (PRG). An admin whose
 * email is not verified is told why, instead of the forms that would mail someone else (the
 * invite, the billing email's link; decision 046): the server refuses them anyway.
 */
import { useTranslation } from "~/i18n/react";
import { data, Form, Link } from "react-router";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { IntentButton } from "~/components/form/IntentButton";
import { OrganisationForm } from "~/components/OrganisationForm";
import { formatDate } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { ORG_ROLES, ORGANISATION_FIELDS } from "~/lib/forms/organisation-fields";
import { useLang } from "~/lib/hooks/use-lang";
import { requireUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import {
  getOrganisationPage,
  type OrganisationPage,
  OrganisationError,
} from "~/server/organisations/organisations.service.server";
import {
  organisationAction,
  organisationDone,
  type OrganisationResult,
} from "~/server/organisations/organisation-page.http.server";
import { CardSection } from "~/components/CardSection";
import { DataProcessingAgreement } from "~/components/DataProcessingAgreement";
import { OrganisationInvoices } from "~/components/OrganisationInvoices";
import { UnverifiedSenderNotice, useSenderVerified } from "~/components/UnverifiedSenderNotice";
import { listOrganisationBilling } from "~/server/orders/invoice.service.server";
import type { Route } from "./+types/organisation";
import { may } from "~/lib/domain/permissions";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["common", "invoices", "organisations", "recipients"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "organisations.page");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  // Any refusal is the bare 404 page: an outsider learns nothing of the organisation.
  try {
    const deps = await getDeps();
    const page = await getOrganisationPage(deps, user.ref, params.id);
    // Invoices and receipts: admins only (decision 027); members get none.
    const billing = may(page.role, "invoice", "use") ? await listOrganisationBilling(deps, user.ref, params.id) : null;
    const done = new URL(request.url).searchParams.get("done");
    return data({ page, billing, me: user.ref, done: organisationDone(done) });
  } catch (err) {
    if (err instanceof OrganisationError) throw data(null, { status: 404 });
    throw err;
  }
}

type Values = Partial<Record<string, string>>;
type Result = OrganisationResult;
/** The confirming POST of a change the page asked about first. */
const CONFIRMED = "yes";

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const { lang } = context.get(requestContext);
  return organisationAction(request, await getDeps(), user, params.id, lang);
}

export default function OrganisationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { page, me, done, billing } = loaderData;
  const { organisation: org } = page;
  const result = actionData as Result | undefined;
  const errorFor = (intent: string) => (result?.intent === intent ? result.formError : null);
  const fieldsFor = (intent: string) => (result?.intent === intent ? result.fieldErrors : {});
  const admin = may(page.role, "organisation", "manage");
  const verified = useSenderVerified();
  const details: Values =
    result?.intent === "details"
      ? result.values
      : Object.fromEntries(ORGANISATION_FIELDS.map((f) => [f, org[f] ?? ""]));

  return (
    <div className="py-4 organisation-page">
      <h1 className="mb-1 text-break">{org.name}</h1>
      <p className="text-body-secondary mb-4">
        {t("organisations.page.yourRole", { role: t(`organisations.rolesInSentence.${page.role}`) })} ·{" "}
        {t("organisations.page.orgNumber", { number: org.orgNumber })}
      </p>
      {done ? (
        <div id="org-done" className="alert alert-success" role="status" tabIndex={-1}>
          {t(done)}
        </div>
      ) : null}
      {/* Its items, one step away (decision 038): switches to the organisation and opens its dashboard. */}
      <Form method="post" action="/scope" className="mb-4">
        <input type="hidden" name="scope" value={org.id} />
        <input type="hidden" name="redirectTo" value="/dashboard" />
        <button type="submit" className="btn btn-primary text-break organisation-items-link">
          {t("organisations.page.items", { organisation: org.name })}
        </button>
      </Form>
      {result?.intent === "" ? <FormAlert message={result.formError} /> : null}
      {result?.confirm ? <ConfirmChange result={result} page={page} me={me} /> : null}

      {admin ? (
        <>
          {page.dpa ? (
            <DataProcessingAgreement
              organisation={org.name}
              current={page.dpa.current}
              history={page.dpa.history}
              error={errorFor("acceptDpa")}
              tickError={!!fieldsFor("acceptDpa").accept}
              lang={lang}
            />
          ) : null}
          {billing ? <OrganisationInvoices rows={billing} /> : null}
          <CardSection id="org-billing-email" title={t("organisations.billingEmail.title")}>
            <FormAlert message={errorFor("confirmBilling")} />
            {page.billingEmailConfirmed ? (
              <p className="mb-0 text-break">
                {t("organisations.billingEmail.confirmed", { email: org.billingEmail })}
              </p>
            ) : (
              <>
                <p className="text-break">{t("organisations.billingEmail.unconfirmed", { email: org.billingEmail })}</p>
                {verified ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="confirmBilling" />
                    <button type="submit" className="btn btn-outline-primary">
                      {t("organisations.billingEmail.send")}
                    </button>
                  </Form>
                ) : (
                  <UnverifiedSenderNotice text="organisations.billingEmail.unverified" />
                )}
              </>
            )}
          </CardSection>
          <CardSection id="org-members" title={t("organisations.members.title")}>
            <FormAlert message={errorFor("role") ?? errorFor("remove")} />
            <ul className="list-group mb-0">
              {page.members.map((m) => (
                <li key={m.userId} className="list-group-item">
                  <div className="d-flex flex-wrap justify-content-between gap-2">
                    <span className="text-break">
                      <strong>{m.name || m.email}</strong>
                      {m.userId === me ? ` ${t("organisations.members.you")}` : null}
                      <span className="d-block small text-body-secondary text-break">{m.email}</span>
                    </span>
                    <span className="badge text-bg-light align-self-start">{t(`organisations.roles.${m.role}`)}</span>
                  </div>
                  <div className="d-flex flex-wrap gap-2 mt-2">
                    <Form method="post" className="d-flex flex-wrap gap-2 align-items-center">
                      <input type="hidden" name="intent" value="role" />
                      <input type="hidden" name="userId" value={m.userId} />
                      <label className="visually-hidden" htmlFor={`role-${m.userId}`}>
                        {t("organisations.members.roleFor", { name: m.name || m.email })}
                      </label>
                      <select
                        id={`role-${m.userId}`}
                        name="role"
                        className="form-select form-select-sm w-auto"
                        defaultValue={m.role}
                      >
                        {ORG_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {t(`organisations.roles.${r}`)}
                          </option>
                        ))}
                      </select>
                      <button type="submit" className="btn btn-outline-primary btn-sm">
                        {t("organisations.members.changeRole")}
                      </button>
                    </Form>
                    {m.userId !== me ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="userId" value={m.userId} />
                        <button
                          type="submit"
                          className="btn btn-outline-danger btn-sm"
                          aria-label={t("organisations.members.removeLabel", { name: m.name || m.email })}
                        >
                          {t("organisations.members.remove")}
                        </button>
                      </Form>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
            <p className="small text-body-secondary mt-2 mb-0">{t("organisations.members.removeHelp")}</p>
          </CardSection>

          <CardSection id="org-invite" title={t("organisations.invite.title")}>
            <FormAlert message={errorFor("invite") ?? errorFor("revoke")} />
            {verified ? (
              <>
                {/* A new pending invite remounts the form: the sent address does not stay in the field. */}
                <Form method="post" noValidate key={page.invites.length}>
                  <input type="hidden" name="intent" value="invite" />
                  <Field
                    id="invite-email"
                    name="email"
                    type="email"
                    label={t("organisations.invite.email")}
                    autoComplete="off"
                    required
                    maxLength={254}
                    defaultValue={result?.intent === "invite" ? (result.values.email ?? "") : ""}
                    error={fieldsFor("invite").email}
                  />
                  <div className="mb-3">
                    <label htmlFor="invite-role" className="form-label">
                      {t("organisations.invite.role")}
                    </label>
                    <select
                      id="invite-role"
                      name="role"
                      className="form-select"
                      defaultValue={result?.intent === "invite" ? (result.values.role ?? "member") : "member"}
                      aria-describedby="invite-role-help"
                    >
                      {ORG_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {t(`organisations.roles.${r}`)}
                        </option>
                      ))}
                    </select>
                    <div id="invite-role-help" className="form-text">
                      {t("organisations.invite.roleHelp")}
                    </div>
                  </div>
                  <button type="submit" className="btn btn-primary">
                    {t("organisations.invite.submit")}
                  </button>
                </Form>
              </>
            ) : (
              <UnverifiedSenderNotice text="organisations.invite.unverified" />
            )}
            <h3 className="h5 mt-4">{t("organisations.invite.pending")}</h3>
            {page.invites.length === 0 ? (
              <p className="mb-0">{t("organisations.invite.none")}</p>
            ) : (
              <ul className="list-group">
                {page.invites.map((i) => (
                  <li
                    key={i.id}
                    className="list-group-item d-flex flex-wrap align-items-center justify-content-between gap-2"
                  >
                    <span className="text-break">
                      <strong>{i.email}</strong> · {t(`organisations.roles.${i.role}`)}
                      <span className="d-block small text-body-secondary">
                        {i.expired
                          ? t("organisations.invite.expired")
                          : t("organisations.invite.until", { date: formatDate(i.expiresAt, lang) })}
                      </span>
                    </span>
                    <IntentButton
                      intent="revoke"
                      fields={{ inviteId: i.id }}
                      label={t("organisations.invite.revoke")}
                      ariaLabel={t("organisations.invite.revokeLabel", { email: i.email })}
                      danger
                    />
                  </li>
                ))}
              </ul>
            )}
          </CardSection>

          <CardSection id="org-desk-contacts" title={t("organisations.deskContacts.title")}>
            <p>{t("organisations.deskContacts.help")}</p>
            <Link to={`/organisations/${page.organisation.id}/contacts`}>{t("organisations.deskContacts.link")}</Link>
          </CardSection>

          <CardSection id="org-claim-mode" title={t("organisations.claimMode.title")}>
            <p>{t("organisations.claimMode.help")}</p>
            <Link to={`/organisations/${page.organisation.id}/claim`}>{t("organisations.claimMode.link")}</Link>
          </CardSection>

          <CardSection id="org-webhooks" title={t("organisations.webhooks.title")}>
            <p>{t("organisations.webhooks.help")}</p>
            <Link to={`/organisations/${page.organisation.id}/webhooks`}>{t("organisations.webhooks.link")}</Link>
          </CardSection>

          <CardSection id="org-api-keys" title={t("organisations.apiKeys.title")}>
            <p>{t("organisations.apiKeys.help")}</p>
            <Link to={`/organisations/${page.organisation.id}/api`}>{t("organisations.apiKeys.link")}</Link>
          </CardSection>

          <CardSection id="org-details" title={t("organisations.details.title")}>
            <FormAlert message={errorFor("details")} />
            <OrganisationForm
              values={details}
              errors={fieldsFor("details")}
              submit={t("organisations.details.submit")}
              intent="details"
            />
          </CardSection>
        </>
      ) : null}

      <CardSection id="org-leave" title={t("organisations.leave.title")}>
        <FormAlert message={errorFor("leave")} />
        {page.lastAdmin ? (
          <p className="mb-0">{t("organisations.leave.lastAdmin")}</p>
        ) : (
          <>
            <p>{t("organisations.leave.text")}</p>
            <Form method="post">
              <input type="hidden" name="intent" value="leave" />
              <button type="submit" className="btn btn-outline-danger">
                {t("organisations.leave.submit")}
              </button>
            </Form>
          </>
        )}
      </CardSection>
    </div>
  );
}

/** The confirmation step of a role change, a removal or leaving: the same fields again with confirmed=yes. */
function ConfirmChange({ result, page, me }: { result: Result; page: OrganisationPage; me: string }) {
  const { t } = useTranslation();
  const { intent, values } = result;
  const target = page.members.find((m) => m.userId === values.userId);
  const name = target ? target.name || target.email : "";
  const role = ORG_ROLES.find((r) => r === values.role) ?? null;
  const question =
    intent === "leave"
      ? t("organisations.confirm.leave", { organisation: page.organisation.name })
      : !target
        ? null
        : intent === "remove"
          ? t("organisations.confirm.remove", { name })
          : role
            ? t(target.userId === me ? "organisations.confirm.roleSelf" : "organisations.confirm.role", {
                name,
                role: t(`organisations.roles.${role}`),
              })
            : null;
  if (!question) return null;
  return (
    <section className="alert alert-warning" aria-labelledby="org-confirm-title">
      <h2 id="org-confirm-title" className="h5" tabIndex={-1} ref={(el) => el?.focus()}>
        {t("organisations.confirm.title")}
      </h2>
      <p className="text-break">{question}</p>
      {intent !== "role" ? (
        <p>{t(intent === "leave" ? "organisations.leave.text" : "organisations.members.removeHelp")}</p>
      ) : null}
      <Form method="post" className="d-flex flex-wrap gap-2">
        <input type="hidden" name="intent" value={intent} />
        {values.userId ? <input type="hidden" name="userId" value={values.userId} /> : null}
        {role ? <input type="hidden" name="role" value={role} /> : null}
        <input type="hidden" name="confirmed" value={CONFIRMED} />
        <button type="submit" className={intent === "role" ? "btn btn-primary" : "btn btn-danger"}>
          {t(`organisations.confirm.submit.${intent === "role" ? "role" : intent === "leave" ? "leave" : "remove"}`)}
        </button>
        <Link to={`/organisations/${page.organisation.id}`} className="btn btn-outline-secondary">
          {t("organisations.confirm.cancel")}
        </Link>
      </Form>
    </section>
  );
}
