/**
 * /t/c/{token}: a trusted contact confirms (decisions 040, 046). The link in their
 * invitation only shows the page; a POST confirms, so a mail scanner that follows links
 * confirms nothing. Each address and number confirms on its own: invited by mail, one
 * button confirms the address, and the page then offers a code by SMS for the number given
 * beside it; reached only by SMS, the six-digit code their SMS carried is typed here (and
 * "send a new code" once it has expired). Before they agree the page names who asked by
 * their first name only, and offers "never contact me again" (the SMS invitation's only
 * link is this page), undone here too. A wrong or expired link is "Page not found".
 */
import { data, Form } from "react-router";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import type { ActionResult } from "~/lib/form";
import { pageMeta } from "~/lib/meta";
import { getDeps } from "~/server/deps.server";
import { serviceErrorResponse } from "~/server/http/errors.server";
import { readForm } from "~/server/http/form.server";
import { contactsSendErrors } from "~/server/contacts/contacts.http.server";
import {
  allowInvitation,
  confirmContact,
  declineInvitation,
  readConfirmation,
  resendConfirmCode,
} from "~/server/contacts/confirm.service.server";
import { PRIVATE_LINK_HEADERS } from "~/server/http/private-link.server";
import type { Route } from "./+types/trusted-confirm";

export const handle = { i18n: ["common", "recipients", "trusted"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "trusted"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers(loaderHeaders);
  actionHeaders.forEach((value, name) => headers.set(name, value));
  return headers;
}

/** What the page shows: never the contact row itself. */
const pageOf = ({ who, desk, step, phone, declined }: Awaited<ReturnType<typeof readConfirmation>>) => ({
  who,
  desk,
  step,
  phone,
  declined,
});

/** The page's forms besides confirming (the default). */
const INTENTS = {
  sendCode: resendConfirmCode,
  never: declineInvitation,
  allow: allowInvitation,
} as const;
type Intent = keyof typeof INTENTS;

export async function loader({ params }: Route.LoaderArgs) {
  try {
    return data(pageOf(await readConfirmation(await getDeps(), params.token)), { headers: PRIVATE_LINK_HEADERS });
  } catch (err) {
    return serviceErrorResponse(contactsSendErrors, err);
  }
}

type Values = { code: string };

export async function action({ request, params }: Route.ActionArgs) {
  const form = await readForm(request);
  const values: Values = { code: String(form.get("code") ?? "").slice(0, 20) };
  try {
    const deps = await getDeps();
    const intent = String(form.get("intent") ?? "");
    const act = Object.hasOwn(INTENTS, intent) ? INTENTS[intent as Intent] : null;
    const page = pageOf(act ? await act(deps, params.token) : await confirmContact(deps, params.token, values.code));
    return data({ page, sent: intent === "sendCode", result: null }, { headers: PRIVATE_LINK_HEADERS });
  } catch (err) {
    const marks = { code: "trusted.errors.codeField" };
    const res = serviceErrorResponse(contactsSendErrors, err, values, marks);
    return data(
      { page: null, sent: false, result: res.data as ActionResult<Values> },
      { ...res.init, headers: PRIVATE_LINK_HEADERS },
    );
  }
}

export default function TrustedConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { who, desk, step, phone, declined } = actionData?.page ?? loaderData;
  const result = actionData?.result ?? null;
  const intro = t(desk ? "trusted.confirm.deskText" : "trusted.confirm.text", { who });
  return (
    <section className="py-4 trusted-page" aria-labelledby="trusted-title">
      <h1 id="trusted-title" className="h3 text-break">
        {t("trusted.confirm.title")}
      </h1>
      {actionData?.sent ? (
        <div className="alert alert-success" role="status">
          {t("trusted.confirm.resent")}
        </div>
      ) : null}
      <FormAlert message={result?.formError} />
      {declined && step !== "done" ? (
        <>
          <div className="alert alert-success" role="status">
            {t("trusted.confirm.declined")}
          </div>
          <PageButton intent="allow" text={t("trusted.confirm.allowText")} button={t("trusted.confirm.allow")} />
        </>
      ) : step === "email" ? (
        <Form method="post">
          <p className="text-break">{intro}</p>
          <button type="submit" className="btn btn-primary">
            {t("trusted.confirm.button")}
          </button>
        </Form>
      ) : step === "code" ? (
        <>
          <p className="text-break">{intro}</p>
          <p>{t("trusted.confirm.codeText", { phone })}</p>
          <Form method="post" noValidate className="mb-4">
            <Field
              id="trusted-code"
              name="code"
              label={t("trusted.confirm.codeLabel")}
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              maxLength={10}
              className="mb-3 col-sm-6 col-md-4 px-0"
              defaultValue={result?.values.code ?? ""}
              error={result?.fieldErrors.code}
              help={t("trusted.confirm.codeHelp")}
            />
            <button type="submit" className="btn btn-primary">
              {t("trusted.confirm.button")}
            </button>
          </Form>
          <PageButton intent="sendCode" text={t("trusted.confirm.resendText")} button={t("trusted.confirm.resend")} />
        </>
      ) : (
        <>
          <div className="alert alert-success" role="status">
            {t("trusted.confirm.done")}
          </div>
          {step === "phone" ? (
            <PageButton
              intent="sendCode"
              text={t("trusted.confirm.phoneText", { phone })}
              button={t("trusted.confirm.phoneSend")}
            />
          ) : null}
        </>
      )}
      {!declined && (step === "email" || step === "code") ? (
        <PageButton intent="never" text={t("trusted.confirm.neverText")} button={t("trusted.confirm.never")} />
      ) : null}
    </section>
  );
}

/** One of the page's other forms: a code to the number (the first, or a new one), never, allow again. */
function PageButton({ intent, text, button }: { intent: Intent; text: string; button: string }) {
  return (
    <Form method="post" className="mt-4">
      <input type="hidden" name="intent" value={intent} />
      <p className="mb-2">{text}</p>
      <button type="submit" className="btn btn-outline-secondary">
        {button}
      </button>
    </Form>
  );
}
