/**
 * /t/s/{token}: a trusted contact stops getting messages (decision 033). The link is
 * in every message to them; the button (a POST) stops, so a link scanner stops nothing.
 */
import { data, Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { pageMeta } from "~/lib/meta";
import { getDeps } from "~/server/deps.server";
import { serviceErrorResponse } from "~/server/http/errors.server";
import { contactsErrors } from "~/server/contacts/contacts.http.server";
import { readStop, stopContact } from "~/server/contacts/contacts.service.server";
import type { Route } from "./+types/trusted-stop";

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
    const { name, owner, stopped } = await readStop(await getDeps(), params.token);
    return data({ name, owner, stopped, done: false }, { headers: PRIVATE_HEADERS });
  } catch (err) {
    return serviceErrorResponse(contactsErrors, err);
  }
}

export async function action({ params }: Route.ActionArgs) {
  try {
    const { name, owner } = await stopContact(await getDeps(), params.token);
    return data({ name, owner, stopped: true, done: true }, { headers: PRIVATE_HEADERS });
  } catch (err) {
    return serviceErrorResponse(contactsErrors, err);
  }
}

export default function TrustedStop({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { name, owner, stopped, done } = actionData ?? loaderData;
  return (
    <section className="py-4 trusted-page" aria-labelledby="trusted-title">
      <h1 id="trusted-title" className="h3 text-break">
        {t("trusted.stop.title", { owner })}
      </h1>
      {done || stopped ? (
        <div className="alert alert-success" role="status">
          {t(done ? "trusted.stop.done" : "trusted.stop.already", { owner })}
        </div>
      ) : (
        <Form method="post">
          <p className="text-break">{t("trusted.stop.text", { name, owner })}</p>
          <button type="submit" className="btn btn-primary">
            {t("trusted.stop.button")}
          </button>
        </Form>
      )}
    </section>
  );
}
