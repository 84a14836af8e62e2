import { leanWhenAnonymous, useLeanRender, type LeanHandle } from "~/lean/lean-page";
import { useState, type FormEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { data, Form, useActionData, useLoaderData } from "react-router";
import { Captcha } from "~/components/Captcha";
import { SellerDetails } from "~/components/SellerDetails";
import { Field, TextareaField } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { useNonce } from "~/components/nonce";
import { parseContact, type ContactValues } from "~/lib/domain/contact";
import { MESSAGE_MAX, NAME_MAX } from "~/lib/domain/contact-limits";
import type { ActionResult, FormMessage } from "~/lib/forms/form";
import { formatStickerCode, normalizeStickerCode } from "~/lib/domain/sticker-code";
import { pageMeta } from "~/lib/domain/meta";
import { setFieldValue } from "~/lib/hooks/use-field-value";
import { useLang } from "~/lib/hooks/use-lang";
import { getSessionUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { contactErrors } from "~/server/support/support.http.server";
import { submitContactMessage } from "~/server/support/support.service.server";
import { getDeps } from "~/server/deps.server";
import { formAction } from "~/server/http/form-action.server";
import type { Route } from "./+types/contact";

/**
 * Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020);
 * without framework JavaScript for visitors who are not signed in (decision 042): the
 * captcha page script sends the form as JSON then.
 */
export const handle: { i18n: string[] } & LeanHandle = {
  i18n: ["admin", "common", "contact", "scans", "seller"],
  lean: leanWhenAnonymous,
};

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "contact");
}

export async function loader({ request }: Route.LoaderArgs) {
  const { site } = await getDeps();
  // /contact?item={code}: a finder handing in an item whose sticker is not active (decision 014).
  // The printed sticker code, as the finder reads it off the sticker.
  const item = normalizeStickerCode(new URL(request.url).searchParams.get("item") ?? "");
  return {
    itemCode: item === null ? null : formatStickerCode(item),
    captcha: site.captcha.kind,
    siteKey: site.captcha.siteKey,
    supportEmail: site.supportEmail,
    seller: site.seller,
  };
}

type ContactResult = ActionResult<ContactValues> & { sent: boolean };
const EMPTY: ContactValues = { name: "", email: "", message: "" };

/**
 * The plain-form path (no JavaScript). With JavaScript the page posts JSON to
 * /api/contact instead, as the spec's contact call does. Same parser, same service.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { lang, ip } = context.get(requestContext);
  return formAction(
    request,
    { errors: contactErrors },
    {
      parse: (form) => parseContact(Object.fromEntries(form)),
      // The first field's message on the alert too (it takes the focus).
      invalid: (errors) => ({ key: Object.values(errors)[0] ?? "contact.errors.failed" }),
      async handle(input) {
        const userId = (await getSessionUser(request))?.ref ?? null;
        await submitContactMessage(await getDeps(), input, { ip, lang, userId });
        return data<ContactResult>({ values: EMPTY, fieldErrors: {}, formError: null, sent: true });
      },
    },
  );
}

type Status = "idle" | "loading" | "success" | "error";

/** The form's fields as typed (they are uncontrolled). */
function valuesOf(form: HTMLFormElement): ContactValues {
  const data = new FormData(form);
  const text = (name: string) => {
    const v = data.get(name);
    return typeof v === "string" ? v : "";
  };
  return { name: text("name"), email: text("email"), message: text("message") };
}

export default function Contact() {
  const { t } = useTranslation();
  const lang = useLang();
  const { captcha, siteKey, supportEmail, itemCode, seller } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ContactResult | ActionResult<ContactValues> | undefined;
  const nonce = useNonce();
  const sent = !!result && "sent" in result && result.sent;
  // Uncontrolled fields: what is typed before the page's script runs stays (decision 032).
  const initial: ContactValues =
    result && !sent
      ? result.values
      : itemCode
        ? { ...EMPTY, message: t("scans.handIn.prefill", { code: itemCode }) }
        : EMPTY;
  const [status, setStatus] = useState<Status>(sent ? "success" : result?.formError ? "error" : "idle");
  const [error, setError] = useState<FormMessage | null>(result?.formError ?? null);
  const fieldErrs = result && status === "error" ? result.fieldErrors : {};
  const [token, setToken] = useState<string | null>(null);
  const [resetSignal, setResetSignal] = useState(0);
  // A lean page (decision 042): the captcha page script sends the form, with these texts.
  const lean = useLeanRender();
  const leanForm = lean
    ? {
        "data-json-action": "/api/contact",
        "data-texts": JSON.stringify({
          captchaRequired: t(
            captcha === "recaptcha" ? "contact.errors.captchaRequiredRecaptcha" : "contact.errors.captchaRequired",
          ),
          failed: t("contact.errors.failed"),
          generic: t("contact.errors.generic"),
          success: t("contact.success"),
          sending: t("contact.sending"),
        }),
      }
    : {};

  function change() {
    // Spec: typing resets error/success to idle.
    if (status === "error" || status === "success") {
      setStatus("idle");
      setError(null);
    }
  }

  function fail(message: FormMessage) {
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
      fail({
        key: captcha === "recaptcha" ? "contact.errors.captchaRequiredRecaptcha" : "contact.errors.captchaRequired",
      });
      return;
    }
    setStatus("loading");
    setError(null);
    try {
      const res = await fetch("/api/contact", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ ...valuesOf(form), captchaToken: token }),
      });
      if (res.ok) {
        for (const id of ["contact-name", "contact-email", "contact-message"]) setFieldValue(id, "");
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
      // The API's message is already in the visitor's language: shown as it is.
      fail(message ? { key: "contact.errors.server", params: { message } } : { key: "contact.errors.failed" });
    } catch {
      fail({ key: "contact.errors.generic" });
    }
  }

  return (
    <section className="py-4 contact-page" aria-labelledby="contact-title">
      <h1 id="contact-title">{t("contact.title")}</h1>
      <p className="lead">{t("contact.intro")}</p>
      <Form
        method="post"
        onSubmit={onSubmit}
        noValidate
        className="contact-form"
        aria-busy={status === "loading"}
        {...leanForm}
      >
        <Field
          id="contact-name"
          name="name"
          type="text"
          autoComplete="name"
          maxLength={NAME_MAX}
          label={t("contact.fields.name")}
          defaultValue={initial.name}
          onChange={change}
        />
        <Field
          id="contact-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          label={t("contact.fields.email")}
          error={fieldErrs.email}
          defaultValue={initial.email}
          onChange={change}
        />
        <TextareaField
          id="contact-message"
          name="message"
          required
          rows={6}
          counter={MESSAGE_MAX}
          label={t("contact.fields.message")}
          help={t("contact.fields.messageHint")}
          error={fieldErrs.message}
          defaultValue={initial.message}
          onChange={change}
        />
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
              setError(null);
            }
          }}
          resetSignal={resetSignal}
        />
        <noscript>
          <p className="alert alert-info">{t("contact.captcha.noscript", { email: supportEmail })}</p>
        </noscript>
        <div aria-live="polite" className="contact-status" data-form-status="">
          {status === "success" ? (
            <p className="alert alert-success" role="status">
              {t("contact.success")}
            </p>
          ) : null}
        </div>
        {status !== "error" ? null : lean ? (
          <div data-form-error="">
            <FormAlert message={error} />
          </div>
        ) : (
          <FormAlert message={error} />
        )}
        <button type="submit" className="btn btn-primary" disabled={status === "loading"}>
          {status === "loading" ? t("contact.sending") : t("contact.send")}
        </button>
      </Form>
      <section className="mt-5" aria-labelledby="contact-seller">
        <h2 id="contact-seller" className="h5">
          {t("seller.title")}
        </h2>
        <SellerDetails seller={seller} />
      </section>
    </section>
  );
}
