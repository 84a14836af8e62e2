/**
 * /t/s/{token}: a trusted contact stops getting messages (decisions 040, 046). The link is
 * in every message to them; the button (a POST) stops, so a link scanner stops nothing.
 * The stop holds for the address or number the link came by (and every one they
 * confirmed), whoever names them again; the same link lets them allow requests again.
 */
import { data, Form } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/i18n/react";
import { pageMeta } from "~/lib/domain/meta";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { buttonsAction, intent } from "~/server/http/form-action.server";
import { contactsErrors } from "~/server/trusted-contacts/trusted-contacts.http.server";
import { allowAfterStop, readStop, stopContact } from "~/server/trusted-contacts/confirm.service.server";
import { PRIVATE_LINK_HEADERS, withActionHeaders } from "~/server/http/private-link.server";
import type { Route } from "./+types/trusted-stop";

export const handle = { i18n: ["common", "trusted"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "trusted"), { name: "robots", content: "noindex" }];
}

export const headers = withActionHeaders;

/** What the page shows: never the contact row itself. */
const pageOf = (s: Awaited<ReturnType<typeof readStop>>, done: "" | "stopped" | "allowed") => ({
  name: s.name,
  owner: s.owner,
  stopped: s.stopped,
  suppressed: s.suppressed,
  channel: s.channel,
  done,
});

export async function loader({ params }: Route.LoaderArgs) {
  const stop = await orErrorPage(contactsErrors, readStop(await getDeps(), params.token));
  return data(pageOf(stop, ""), { headers: PRIVATE_LINK_HEADERS });
}

export async function action({ request, params }: Route.ActionArgs) {
  const deps = await getDeps();
  const answer = (page: ReturnType<typeof pageOf>) => data(page, { headers: PRIVATE_LINK_HEADERS });
  // No form to show a refusal on: a link that ended is the error page (decision 059).
  return buttonsAction(
    request,
    { errors: contactsErrors, otherwise: "stop" },
    {
      allow: intent({
        schema: z.object({}),
        handle: async () => answer(pageOf(await allowAfterStop(deps, params.token), "allowed")),
      }),
      stop: intent({
        schema: z.object({}),
        handle: async () => answer(pageOf(await stopContact(deps, params.token), "stopped")),
      }),
    },
  );
}

export default function TrustedStop({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { name, owner, stopped, suppressed, channel, done } = actionData ?? loaderData;
  const where = t(channel === "sms" ? "trusted.stop.whereSms" : "trusted.stop.whereEmail");
  return (
    <section className="py-4 trusted-page" aria-labelledby="trusted-title">
      <h1 id="trusted-title" className="h3 text-break">
        {t("trusted.stop.title")}
      </h1>
      {done === "allowed" ? (
        <div className="alert alert-success" role="status">
          {t("trusted.stop.allowed")}
        </div>
      ) : stopped || suppressed ? (
        <>
          <div className="alert alert-success" role="status">
            {done === "stopped" || suppressed
              ? t("trusted.stop.done", { where })
              : t("trusted.stop.already", { owner })}
          </div>
          {suppressed ? (
            <Form method="post">
              <input type="hidden" name="intent" value="allow" />
              <p className="mb-2">{t("trusted.stop.allowText")}</p>
              <button type="submit" className="btn btn-outline-secondary">
                {t("trusted.stop.allow")}
              </button>
            </Form>
          ) : null}
        </>
      ) : (
        <Form method="post">
          <p className="text-break">{t("trusted.stop.text", { name, owner, where })}</p>
          <button type="submit" className="btn btn-primary">
            {t("trusted.stop.button")}
          </button>
        </Form>
      )}
    </section>
  );
}
