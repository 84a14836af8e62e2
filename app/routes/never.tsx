/**
 * /t/n/{code}: "never contact me again" (decision 046), the link every consent request
 * carries (a trusted contact's invitation, a code to prove a number, an organisation's
 * invite, a billing-email link). The page shows; its button (a POST) puts the address or
 * number on the suppression list, so a link scanner suppresses nothing. The same link lets
 * the person allow requests again. Anyone else's code, or an altered one, is "Page not found".
 */
import { data, Form } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/i18n/react";
import { pageMeta } from "~/lib/domain/meta";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { buttonsAction, intent } from "~/server/http/form-action.server";
import { PRIVATE_LINK_HEADERS, withActionHeaders } from "~/server/http/private-link.server";
import { recipientsErrors } from "~/server/recipients/recipients.http.server";
import { allowContactAgain, neverContactAgain, readNeverLink } from "~/server/recipients/recipients.service.server";
import type { Route } from "./+types/never";

export const handle = { i18n: ["common", "recipients"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "recipients.never"), { name: "robots", content: "noindex" }];
}

export const headers = withActionHeaders;

export async function loader({ params }: Route.LoaderArgs) {
  const link = await orErrorPage(recipientsErrors, readNeverLink(await getDeps(), params.token));
  return data({ ...link, done: "" }, { headers: PRIVATE_LINK_HEADERS });
}

export async function action({ request, params }: Route.ActionArgs) {
  const deps = await getDeps();
  const answer = <T,>(page: T) => data(page, { headers: PRIVATE_LINK_HEADERS });
  // No form to show a refusal on: a link that ended is the error page (decision 059).
  return buttonsAction(
    request,
    { errors: recipientsErrors, otherwise: "never" },
    {
      allow: intent({
        schema: z.object({}),
        async handle() {
          return answer({ ...(await allowContactAgain(deps, params.token)), suppressed: false, done: "allowed" });
        },
      }),
      never: intent({
        schema: z.object({}),
        async handle() {
          return answer({ ...(await neverContactAgain(deps, params.token)), suppressed: true, done: "never" });
        },
      }),
    },
  );
}

export default function Never({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { channel, suppressed, done } = actionData ?? loaderData;
  const where = t(channel === "sms" ? "recipients.never.whereSms" : "recipients.never.whereEmail");
  return (
    <section className="py-4 trusted-page" aria-labelledby="never-title">
      <h1 id="never-title" className="h3">
        {t("recipients.never.title")}
      </h1>
      {done === "allowed" ? (
        <div className="alert alert-success" role="status">
          {t("recipients.never.allowed")}
        </div>
      ) : suppressed ? (
        <>
          <div className="alert alert-success" role="status">
            {t("recipients.never.done", { where })}
          </div>
          <Form method="post">
            <input type="hidden" name="intent" value="allow" />
            <p className="mb-2">{t("recipients.never.allowText")}</p>
            <button type="submit" className="btn btn-outline-secondary">
              {t("recipients.never.allow")}
            </button>
          </Form>
        </>
      ) : (
        <Form method="post">
          <p>{t("recipients.never.text", { where })}</p>
          <button type="submit" className="btn btn-primary">
            {t("recipients.never.button")}
          </button>
        </Form>
      )}
    </section>
  );
}
