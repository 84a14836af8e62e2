/**
 * /t/c/{token}: a trusted contact confirms (decision 040). The link in
 * their invitation only shows the page; a POST confirms, so a mail scanner that follows
 * links confirms nothing. Invited by mail: one button. Reached only by SMS: the SMS also
 * carried a six-digit code, typed here in one field (and "send a new code" once it has
 * expired). A wrong or expired link is "Page not found".
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
import { contactsErrors } from "~/server/contacts/contacts.http.server";
import { confirmContact, readConfirmation, resendConfirmCode } from "~/server/contacts/contacts.service.server";
import type { Route } from "./+types/trusted-confirm";

export const handle = { i18n: ["common", "trusted"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "trusted"), { name: "robots", content: "noindex" }];
}

const PRIVATE_HEADERS = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers(loaderHeaders);
  actionHeaders.forEach((value, name) => headers.set(name, value));
  return headers;
}

export async function loader({ params }: Route.LoaderArgs) {
  try {
    const { name, owner, confirmed, byCode } = await readConfirmation(await getDeps(), params.token);
    return data({ name, owner, byCode, done: confirmed }, { headers: PRIVATE_HEADERS });
  } catch (err) {
    return serviceErrorResponse(contactsErrors, err);
  }
}

type Values = { code: string };

export async function action({ request, params }: Route.ActionArgs) {
  const form = await readForm(request);
  const values: Values = { code: String(form.get("code") ?? "").slice(0, 20) };
  try {
    if (form.get("intent") === "resend") {
      await resendConfirmCode(await getDeps(), params.token);
      return data({ resent: true, result: null }, { headers: PRIVATE_HEADERS });
    }
    await confirmContact(await getDeps(), params.token, values.code);
    return data({ confirmed: true, result: null }, { headers: PRIVATE_HEADERS });
  } catch (err) {
    const marks = { code: "trusted.errors.codeField" };
    const res = serviceErrorResponse(contactsErrors, err, values, marks);
    return data({ result: res.data as ActionResult<Values> }, { ...res.init, headers: PRIVATE_HEADERS });
  }
}

export default function TrustedConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { name, owner, byCode } = loaderData;
  const done = loaderData.done || (actionData && "confirmed" in actionData);
  const result = actionData?.result ?? null;
  return (
    <section className="py-4 trusted-page" aria-labelledby="trusted-title">
      <h1 id="trusted-title" className="h3 text-break">
        {t("trusted.confirm.title", { owner })}
      </h1>
      {done ? (
        <div className="alert alert-success" role="status">
          {t("trusted.confirm.done", { name, owner })}
        </div>
      ) : byCode ? (
        <>
          <p className="text-break">{t("trusted.confirm.codeText", { name, owner })}</p>
          {actionData && "resent" in actionData ? (
            <div className="alert alert-success" role="status">
              {t("trusted.confirm.resent")}
            </div>
          ) : null}
          <FormAlert message={result?.formError} />
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
          <Form method="post">
            <input type="hidden" name="intent" value="resend" />
            <p className="mb-2">{t("trusted.confirm.resendText")}</p>
            <button type="submit" className="btn btn-outline-secondary">
              {t("trusted.confirm.resend")}
            </button>
          </Form>
        </>
      ) : (
        <Form method="post">
          <p className="text-break">{t("trusted.confirm.text", { name, owner })}</p>
          <button type="submit" className="btn btn-primary">
            {t("trusted.confirm.button")}
          </button>
        </Form>
      )}
    </section>
  );
}
