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
import { z } from "zod";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { intent, intentAction } from "~/server/http/form-action.server";
import { contactsSendErrors } from "~/server/trusted-contacts/trusted-contacts.http.server";
import {
  allowInvitation,
  confirmContact,
  declineInvitation,
  readConfirmation,
  resendConfirmCode,
} from "~/server/trusted-contacts/confirm.service.server";
import { PRIVATE_LINK_HEADERS, withActionHeaders } from "~/server/http/private-link.server";
import type { Route } from "./+types/trusted-confirm";

export const handle = { i18n: ["common", "recipients", "trusted"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "trusted"), { name: "robots", content: "noindex" }];
}

export const headers = withActionHeaders;

/** What the page shows: never the contact row itself. */
const pageOf = ({ who, desk, step, phone, declined }: Awaited<ReturnType<typeof readConfirmation>>) => ({
  who,
  desk,
  step,
  phone,
  declined,
});

export async function loader({ params }: Route.LoaderArgs) {
  const confirmation = await orErrorPage(contactsSendErrors, readConfirmation(await getDeps(), params.token));
  return data(pageOf(confirmation), { headers: PRIVATE_LINK_HEADERS });
}

type Values = { code: string };
const codeValues = (form: FormData): Values => ({ code: String(form.get("code") ?? "").slice(0, 20) });
type Page = ReturnType<typeof pageOf>;
const noFields = z.object({});

/** Confirming is the page's main form; the others send a new code, decline, or undo declining. */
export async function action({ request, params }: Route.ActionArgs) {
  const deps = await getDeps();
  const show = (page: Page, sent = false) =>
    data({ page, sent, result: null as ActionResult<Values> | null }, { headers: PRIVATE_LINK_HEADERS });
  const options = {
    errors: contactsSendErrors,
    values: codeValues,
    marks: () => ({ code: "trusted.errors.codeField" }),
    otherwise: "confirm",
    // The refusal beside the page it is about, under the private link's headers.
    refused: (result: ActionResult<Values>, init: ResponseInit) =>
      data({ page: null as Page | null, sent: false, result }, { ...init, headers: PRIVATE_LINK_HEADERS }),
  };
  return intentAction(request, options, {
    sendCode: intent({
      schema: noFields,
      handle: async () => show(pageOf(await resendConfirmCode(deps, params.token)), true),
    }),
    never: intent({ schema: noFields, handle: async () => show(pageOf(await declineInvitation(deps, params.token))) }),
    allow: intent({ schema: noFields, handle: async () => show(pageOf(await allowInvitation(deps, params.token))) }),
    confirm: intent({
      schema: noFields,
      handle: async (_, form) => show(pageOf(await confirmContact(deps, params.token, codeValues(form).code))),
    }),
  });
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
function PageButton({
  intent,
  text,
  button,
}: {
  intent: "sendCode" | "never" | "allow";
  text: string;
  button: string;
}) {
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
