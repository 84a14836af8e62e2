import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, useActionData, useLoaderData } from "react-router";
import { Captcha } from "~/components/Captcha";
import { useNonce } from "~/components/nonce";
import { getT } from "~/i18n/i18n";
import { contactSchema, fieldErrors } from "~/lib/contact";
import { MESSAGE_MAX, NAME_MAX, type CaptchaKind } from "~/lib/contact-limits";
import { pageMeta } from "~/lib/meta";
import { requestContext } from "~/server/context";
import { contactErrorMessage, contactErrorStatus } from "~/server/contact/contact.http.server";
import { ContactError, submitContactMessage } from "~/server/contact/contact.service.server";
import { getRuntime } from "~/server/runtime.server";
import { readForm } from "~/server/http/form.server";
import type { Route } from "./+types/contact";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "contact");
}

export async function loader({ context }: Route.LoaderArgs) {
  const { config } = await getRuntime();
  return {
    lang: context.get(requestContext).lang,
    captcha: config.captcha as CaptchaKind,
    siteKey: config.captcha === "recaptcha" ? config.recaptcha.siteKey : undefined,
    supportEmail: config.supportEmail,
  };
}

type Values = { name: string; email: string; message: string };
type ActionResult =
  { status: "success" } | { status: "error"; message: string; values: Values; errors: Partial<Record<string, string>> };

/**
 * The plain-form path (no JavaScript). With JavaScript the page posts JSON to
 * /api/contact instead, as the spec's contact call does. Same service, same rules.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { lang, ip } = context.get(requestContext);
  const t = getT(lang);
  const { config, database } = await getRuntime();
  const form = await readForm(request);
  const raw = Object.fromEntries(["name", "email", "message", "captchaToken"].map((k) => [k, form.get(k) ?? ""]));
  const values: Values = { name: String(raw.name), email: String(raw.email), message: String(raw.message) };
  const parsed = contactSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = Object.fromEntries(Object.entries(fieldErrors(parsed.error)).map(([k, v]) => [k, t(v)]));
    return data<ActionResult>(
      { status: "error", message: Object.values(errors)[0] ?? t("contact.errors.failed"), values, errors },
      { status: 400 },
    );
  }
  try {
    await submitContactMessage({ config, db: database.db }, parsed.data, { ip, lang });
    return data<ActionResult>({ status: "success" });
  } catch (err) {
    if (!(err instanceof ContactError)) throw err;
    return data<ActionResult>(
      { status: "error", message: contactErrorMessage(t, err, config.captcha), values, errors: {} },
      { status: contactErrorStatus(err) },
    );
  }
}

type Status = "idle" | "loading" | "success" | "error";

export default function Contact() {
  const { t } = useTranslation();
  const { captcha, siteKey, lang, supportEmail } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const nonce = useNonce();
  const initial = actionData?.status === "error" ? actionData.values : { name: "", email: "", message: "" };
  const [values, setValues] = useState<Values>(initial);
  const [status, setStatus] = useState<Status>(actionData?.status ?? "idle");
  const [error, setError] = useState(actionData?.status === "error" ? actionData.message : "");
  const fieldErrs = actionData?.status === "error" && status === "error" ? actionData.errors : {};
  const [token, setToken] = useState<string | null>(null);
  const [resetSignal, setResetSignal] = useState(0);

  function change(field: keyof Values, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    // Spec: typing resets error/success to idle.
    if (status === "error" || status === "success") {
      setStatus("idle");
      setError("");
    }
  }

  function fail(message: string) {
    setStatus("error");
    setError(message);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === "loading") return;
    // The form is noValidate because the captcha widget marks its own checkbox required,
    // which would stop the submit before the spec's captcha message can show. The
    // browser still checks our own fields here.
    const form = event.currentTarget;
    for (const field of ["name", "email", "message"]) {
      const input = form.elements.namedItem(field);
      if (input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement) {
        if (!input.checkValidity()) {
          input.reportValidity();
          return;
        }
      }
    }
    if (!token) {
      // Spec: no request is sent without a captcha solution.
      fail(t(captcha === "recaptcha" ? "contact.errors.captchaRequiredRecaptcha" : "contact.errors.captchaRequired"));
      return;
    }
    setStatus("loading");
    setError("");
    try {
      const res = await fetch("/api/contact", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ ...values, captchaToken: token }),
      });
      if (res.ok) {
        setValues({ name: "", email: "", message: "" });
        setToken(null);
        setResetSignal((n) => n + 1);
        setStatus("success");
        return;
      }
      let message = "";
      try {
        const body = (await res.json()) as { message?: unknown };
        if (typeof body.message === "string") message = body.message;
      } catch {
        // Not JSON: fall back to the generic text below.
      }
      // A used or refused solution cannot be sent again: start a new captcha.
      setToken(null);
      setResetSignal((n) => n + 1);
      fail(message || t("contact.errors.failed"));
    } catch {
      fail(t("contact.errors.generic"));
    }
  }

  return (
    <section className="py-4 contact-page" aria-labelledby="contact-title">
      <h1 id="contact-title">{t("contact.title")}</h1>
      <p className="lead">{t("contact.intro")}</p>
      <Form method="post" onSubmit={onSubmit} noValidate className="contact-form" aria-busy={status === "loading"}>
        <div className="mb-3">
          <label htmlFor="contact-name" className="form-label">
            {t("contact.fields.name")}
          </label>
          <input
            id="contact-name"
            name="name"
            type="text"
            autoComplete="name"
            maxLength={NAME_MAX}
            className="form-control"
            value={values.name}
            onChange={(e) => change("name", e.target.value)}
          />
        </div>
        <div className="mb-3">
          <label htmlFor="contact-email" className="form-label">
            {t("contact.fields.email")}
          </label>
          <input
            id="contact-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            className={`form-control${fieldErrs.email ? " is-invalid" : ""}`}
            aria-invalid={fieldErrs.email ? true : undefined}
            aria-describedby={fieldErrs.email ? "contact-email-error" : undefined}
            value={values.email}
            onChange={(e) => change("email", e.target.value)}
          />
          {fieldErrs.email ? (
            <div id="contact-email-error" className="invalid-feedback">
              {fieldErrs.email}
            </div>
          ) : null}
        </div>
        <div className="mb-3">
          <label htmlFor="contact-message" className="form-label">
            {t("contact.fields.message")}
          </label>
          <textarea
            id="contact-message"
            name="message"
            required
            rows={6}
            maxLength={MESSAGE_MAX}
            className={`form-control${fieldErrs.message ? " is-invalid" : ""}`}
            aria-invalid={fieldErrs.message ? true : undefined}
            aria-describedby={fieldErrs.message ? "contact-message-error contact-message-hint" : "contact-message-hint"}
            value={values.message}
            onChange={(e) => change("message", e.target.value)}
          />
          <div id="contact-message-hint" className="form-text">
            {t("contact.fields.messageHint")}
          </div>
          {fieldErrs.message ? (
            <div id="contact-message-error" className="invalid-feedback">
              {fieldErrs.message}
            </div>
          ) : null}
        </div>
        <Captcha
          kind={captcha}
          lang={lang}
          label={t("contact.captcha.label")}
          loadingText={t("contact.captcha.loading")}
          siteKey={siteKey}
          nonce={nonce}
          onToken={(tok) => {
            setToken(tok);
            if (tok && status === "error") {
              setStatus("idle");
              setError("");
            }
          }}
          resetSignal={resetSignal}
        />
        <noscript>
          <p className="alert alert-info">{t("contact.captcha.noscript", { email: supportEmail })}</p>
        </noscript>
        <div aria-live="polite" className="contact-status">
          {status === "success" ? (
            <p className="alert alert-success" role="status">
              {t("contact.success")}
            </p>
          ) : null}
        </div>
        {status === "error" ? (
          <p className="alert alert-danger" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={status === "loading"}>
          {status === "loading" ? t("contact.sending") : t("contact.send")}
        </button>
      </Form>
    </section>
  );
}
