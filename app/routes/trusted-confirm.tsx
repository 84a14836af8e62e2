/**
 * /t/c/{token}: a trusted contact confirms (issue #33 point 1, decision 040). The link in
 * their invitation only shows the page; the button (a POST, no JavaScript needed)
 * confirms, so a mail scanner that follows links confirms nothing. A wrong or expired
 * link is "Page not found".
 */
import { data, Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { pageMeta } from "~/lib/meta";
import { getDeps } from "~/server/deps.server";
import { serviceErrorResponse } from "~/server/http/errors.server";
import { contactsErrors } from "~/server/contacts/contacts.http.server";
import { confirmContact, readConfirmation } from "~/server/contacts/contacts.service.server";
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
    const { name, owner, confirmed } = await readConfirmation(await getDeps(), params.token);
    return data({ name, owner, done: confirmed }, { headers: PRIVATE_HEADERS });
  } catch (err) {
    return serviceErrorResponse(contactsErrors, err);
  }
}

export async function action({ params }: Route.ActionArgs) {
  try {
    const { name, owner } = await confirmContact(await getDeps(), params.token);
    return data({ name, owner, done: true }, { headers: PRIVATE_HEADERS });
  } catch (err) {
    return serviceErrorResponse(contactsErrors, err);
  }
}

export default function TrustedConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { name, owner, done } = actionData ?? loaderData;
  return (
    <section className="py-4 trusted-page" aria-labelledby="trusted-title">
      <h1 id="trusted-title" className="h3 text-break">
        {t("trusted.confirm.title", { owner })}
      </h1>
      {done ? (
        <div className="alert alert-success" role="status">
          {t("trusted.confirm.done", { name, owner })}
        </div>
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
