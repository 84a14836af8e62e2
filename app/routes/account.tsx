import { useTranslation } from "~/i18n/react";
import { data, Form, Link } from "react-router";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import type { Lang } from "~/i18n/config";
import { NAME_MAX } from "~/lib/forms/account-fields";
import type { ActionResult } from "~/lib/forms/form";
import { formatDateTime } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/lib/domain/password";
import { isSocialProvider } from "~/lib/domain/social-providers";
import { useLang } from "~/lib/hooks/use-lang";
import { accountAction, accountDone } from "~/server/account/account-page.http.server";
import { getAccountPage } from "~/server/account/account.service.server";
import { requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { CardSection } from "~/components/CardSection";
import { PushDevices } from "~/components/PushDevices";
import { listDevices } from "~/server/push/push.service.server";
import { vapidPublicKey } from "~/server/push/vapid.server";
import type { Route } from "./+types/account";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["account", "alerts", "auth", "common", "push", "recipients"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "account");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const deps = await getDeps();
  const page = await getAccountPage(deps, request.headers);
  // Web push (decision 034): the devices that get notifications, and the key browsers subscribe with.
  const [devices, pushKey] = await Promise.all([listDevices(deps, user.ref), vapidPublicKey(deps)]);
  const q = new URL(request.url).searchParams;
  const done = q.get("done");
  const linked = q.get("linked");
  const linkFailed = q.get("linkFailed");
  return data({
    page,
    devices,
    pushKey,
    done: accountDone(done),
    linked: isSocialProvider(linked) ? linked : null,
    linkFailed: isSocialProvider(linkFailed) ? linkFailed : null,
  });
}

/** A refused section's answer names the section (decision 059). */
type Result = ActionResult<Record<string, string>> & { intent?: string };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return accountAction(request, await getDeps(), user.ref);
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { page, done: doneKey, linked, linkFailed, devices, pushKey } = loaderData;
  const result = actionData as Result | undefined;
  const errorFor = (intent: string) => (result?.intent === intent ? result.formError : null);
  const fieldFor = (intent: string, field: string) =>
    result?.intent === intent ? result.fieldErrors[field] : undefined;
  const valueOf = (intent: string, field: string, fallback: string) =>
    result?.intent === intent ? (result.values[field] ?? fallback) : fallback;
  const providerName = (p: string) => (isSocialProvider(p) ? t(`account.methods.${p}`) : p);
  const socialMethods = page.methods.filter((m) => m.provider !== "credential");
  const onlyOne = page.methods.length <= 1;
  const others = page.sessions.filter((s) => !s.current).length;
  const when = (ms: number) => formatDateTime(ms, lang);

  return (
    <div className="py-4 account-page">
      <h1 className="mb-4">{t("account.title")}</h1>
      {doneKey ? (
        <div className="alert alert-success" role="status">
          {t(doneKey)}
        </div>
      ) : null}
      {linked ? (
        <div className="alert alert-success" role="status">
          {t("account.methods.linked", { provider: providerName(linked) })}
        </div>
      ) : null}
      {linkFailed ? (
        <FormAlert message={{ key: "account.methods.linkFailed", params: { provider: providerName(linkFailed) } }} />
      ) : null}
      {result?.intent === "" ? <FormAlert message={result.formError} /> : null}

      <CardSection id="profile" title={t("account.profile.title")}>
        <FormAlert message={errorFor("profile")} />
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="profile" />
          <Field
            id="account-name"
            name="name"
            label={t("account.profile.name")}
            autoComplete="name"
            required
            maxLength={NAME_MAX}
            defaultValue={valueOf("profile", "name", page.name)}
            error={fieldFor("profile", "name")}
          />
          <fieldset className="mb-3">
            <legend className="form-label fs-6">{t("account.profile.language")}</legend>
            {(["en", "sv"] as Lang[]).map((l) => (
              <div className="form-check form-check-inline" key={l}>
                <input
                  className="form-check-input"
                  type="radio"
                  name="language"
                  id={`account-language-${l}`}
                  value={l}
                  defaultChecked={valueOf("profile", "language", page.language) === l}
                  aria-describedby="account-language-help"
                />
                <label className="form-check-label" htmlFor={`account-language-${l}`} lang={l}>
                  {t(`account.profile.${l}`)}
                </label>
              </div>
            ))}
            <div id="account-language-help" className="form-text">
              {t("account.profile.languageHelp")}
            </div>
          </fieldset>
          <button type="submit" className="btn btn-primary">
            {t("account.profile.save")}
          </button>
        </Form>
      </CardSection>

      <CardSection id="alerts" title={t("alerts.title")}>
        <p>{t("alerts.linkHelp")}</p>
        <Link to="/account/alerts" className="btn btn-outline-primary">
          {t("alerts.link")}
        </Link>
      </CardSection>

      <CardSection id="email" title={t("account.email.title")}>
        <p className="text-break">
          {t("account.email.current", { email: page.email })}{" "}
          {page.emailVerified ? null : t("account.email.unverified")}
        </p>
        <FormAlert message={errorFor("email")} />
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="email" />
          <Field
            id="account-email"
            name="email"
            type="email"
            label={t("account.email.new")}
            autoComplete="email"
            required
            maxLength={254}
            defaultValue={valueOf("email", "email", "")}
            error={fieldFor("email", "email")}
          />
          <button type="submit" className="btn btn-primary">
            {t("account.email.submit")}
          </button>
        </Form>
      </CardSection>

      <CardSection
        id="password"
        title={page.hasPassword ? t("account.password.title") : t("account.password.setTitle")}
      >
        {page.hasPassword ? (
          <>
            <FormAlert message={errorFor("password")} />
            <Form method="post" noValidate>
              <input type="hidden" name="intent" value="password" />
              <Field
                id="account-current-password"
                name="currentPassword"
                type="password"
                label={t("account.password.current")}
                autoComplete="current-password"
                required
                maxLength={PASSWORD_MAX}
                error={fieldFor("password", "currentPassword")}
              />
              <Field
                id="account-new-password"
                name="newPassword"
                type="password"
                label={t("account.password.new")}
                autoComplete="new-password"
                required
                minLength={PASSWORD_MIN}
                maxLength={PASSWORD_MAX}
                help={t("account.password.help")}
                error={fieldFor("password", "newPassword")}
              />
              <button type="submit" className="btn btn-primary">
                {t("account.password.submit")}
              </button>
            </Form>
          </>
        ) : (
          <>
            <p>
              {t("account.password.setIntro", {
                providers: socialMethods.map((m) => providerName(m.provider)).join(", "),
              })}
            </p>
            <FormAlert message={errorFor("setPassword")} />
            <Form method="post" noValidate>
              <input type="hidden" name="intent" value="setPassword" />
              <Field
                id="account-set-password"
                name="newPassword"
                type="password"
                label={t("account.password.new")}
                autoComplete="new-password"
                required
                minLength={PASSWORD_MIN}
                maxLength={PASSWORD_MAX}
                error={fieldFor("setPassword", "newPassword")}
              />
              <button type="submit" className="btn btn-primary">
                {t("account.password.set")}
              </button>
            </Form>
          </>
        )}
      </CardSection>

      <CardSection id="push" title={t("push.title")}>
        <FormAlert message={errorFor("pushRemove")} />
        <PushDevices publicKey={pushKey} devices={devices} formatDate={when} />
      </CardSection>

      <CardSection id="methods" title={t("account.methods.title")}>
        <FormAlert message={errorFor("unlink") ?? errorFor("link")} />
        <ul className="list-group mb-3">
          {page.methods.map((m) => (
            <li
              key={m.id}
              className="list-group-item d-flex flex-wrap align-items-center justify-content-between gap-2"
            >
              <span>
                <strong>
                  {m.provider === "credential" ? t("account.methods.credential") : providerName(m.provider)}
                </strong>
                <span className="d-block small text-body-secondary">
                  {t("account.methods.since", { date: when(m.createdAt) })}
                </span>
              </span>
              {m.provider !== "credential" && !onlyOne ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="unlink" />
                  <input type="hidden" name="accountId" value={m.id} />
                  <button
                    type="submit"
                    className="btn btn-outline-danger btn-sm"
                    aria-label={t("account.methods.unlinkLabel", { provider: providerName(m.provider) })}
                  >
                    {t("account.methods.unlink")}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
        {onlyOne ? <p className="small text-body-secondary">{t("account.methods.last")}</p> : null}
        {page.linkable.length > 0 ? (
          <div className="d-flex flex-wrap gap-2">
            {page.linkable.map((p) => (
              <Form method="post" key={p}>
                <input type="hidden" name="intent" value="link" />
                <input type="hidden" name="provider" value={p} />
                <button type="submit" className="btn btn-outline-primary">
                  {t("account.methods.link", { provider: providerName(p) })}
                </button>
              </Form>
            ))}
          </div>
        ) : null}
      </CardSection>

      <CardSection id="sessions" title={t("account.sessions.title")}>
        <FormAlert message={errorFor("signOutOthers")} />
        <ul className="list-group mb-3">
          {page.sessions.map((s) => (
            <li key={s.id} className="list-group-item">
              {/* Name and badge side by side; on a narrow screen the badge wraps to the start
                  of the next line, not indented by a margin (decision 057). */}
              <div className="d-flex flex-wrap align-items-center gap-2" data-testid="session-name">
                <strong>
                  {/* "Phone: Safari on iOS", from the session's User-Agent (decision 057). */}
                  {s.browser && s.system
                    ? t("account.sessions.named", {
                        device: t(`account.sessions.device.${s.device}`),
                        browser: s.browser,
                        system: s.system,
                      })
                    : s.browser || s.system
                      ? t("account.sessions.browser", {
                          device: t(`account.sessions.device.${s.device}`),
                          browser: s.browser || s.system,
                        })
                      : t(`account.sessions.device.${s.device}`)}
                </strong>
                {s.current ? <span className="badge text-bg-success">{t("account.sessions.this")}</span> : null}
              </div>
              <span className="d-block small text-body-secondary">
                {t("account.sessions.signedIn", { date: when(s.createdAt) })},{" "}
                {t("account.sessions.lastActive", { date: when(s.lastActiveAt) })}
              </span>
            </li>
          ))}
        </ul>
        {others > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="signOutOthers" />
            <button type="submit" className="btn btn-outline-danger">
              {t("account.sessions.signOutOthers")}
            </button>
          </Form>
        ) : (
          <p className="mb-0">{t("account.sessions.none")}</p>
        )}
      </CardSection>

      <CardSection id="data" title={t("account.data.title")}>
        <p>{t("account.data.intro")}</p>
        {/* A plain form: the answer is a file download, the page stays. */}
        <form method="post" action="/account/export" data-discover="false">
          <button type="submit" className="btn btn-outline-primary">
            {t("account.data.download")}
          </button>
        </form>
      </CardSection>

      <CardSection id="delete" title={t("account.delete.title")}>
        <p>{t("account.delete.intro")}</p>
        <Link to="/account/delete" className="btn btn-outline-danger">
          {t("account.delete.link")}
        </Link>
      </CardSection>
    </div>
  );
}
