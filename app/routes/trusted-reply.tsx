/**
 * /t/r/{token}: a trusted contact's private reply page (decision 040):
 * the finder's messages and a form to answer them for the owner, without an account. The
 * answer goes through the relay as the owner's side (the finder never learns who wrote it
 * or how to reach them) and the owner sees it in the conversation. A wrong or altered
 * token, or one of a contact who stopped or was removed, is "Page not found".
 */
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import { z } from "zod";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/domain/dates";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { formAction } from "~/server/http/form-action.server";
import { contactsErrors } from "~/server/trusted-contacts/trusted-contacts.http.server";
import { openContactReply, REPLY_MAX, replyAsContact } from "~/server/trusted-contacts/reply.service.server";
import { PRIVATE_LINK_HEADERS, withActionHeaders } from "~/server/http/private-link.server";
import type { Route } from "./+types/trusted-reply";

export const handle = { i18n: ["common", "trusted"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "trusted"), { name: "robots", content: "noindex" }];
}

export const headers = withActionHeaders;

export async function loader({ params }: Route.LoaderArgs) {
  const thread = await orErrorPage(contactsErrors, openContactReply(await getDeps(), params.token));
  return data({ thread, maxLength: REPLY_MAX }, { headers: PRIVATE_LINK_HEADERS });
}

type Values = { message: string };

const messageValues = (form: FormData): Values => ({
  message: String(form.get("message") ?? "").slice(0, REPLY_MAX + 100),
});

/** The service says what is wrong with the reply (empty, too long): its codes, on the form. */
export async function action({ request, params }: Route.ActionArgs) {
  return formAction(
    request,
    { errors: contactsErrors, values: messageValues },
    {
      schema: z.object({
        message: z
          .unknown()
          .optional()
          .transform((v) => String(v ?? "")),
      }),
      async handle(input) {
        await replyAsContact(await getDeps(), params.token, input.message);
        return redirect(`/t/r/${params.token}?sent=1`, { headers: PRIVATE_LINK_HEADERS });
      },
    },
  );
}

export default function TrustedReply({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [search] = useSearchParams();
  const { thread, maxLength } = loaderData;
  const result = actionData as ActionResult<Values> | undefined;
  const sent = search.get("sent") === "1" && !result;
  const error = result?.fieldErrors.message;
  return (
    <section className="py-4 trusted-page" aria-labelledby="trusted-title">
      {sent ? (
        <div className="alert alert-success" role="status">
          {t("trusted.reply.sent")}
        </div>
      ) : null}
      <h1 id="trusted-title" className="h3 text-break">
        {t("trusted.reply.title", { owner: thread.owner, item: thread.itemName })}
      </h1>
      <p className="text-break">{t("trusted.reply.intro", { owner: thread.owner })}</p>
      <h2 className="h4">{t("trusted.reply.thread")}</h2>
      <ol className="list-unstyled relay-thread">
        {thread.messages.map((m) => (
          <li key={m.id} className={`relay-message relay-message-${m.fromFinder ? "finder" : "owner"}`}>
            <p className="small text-body-secondary mb-1">
              <strong>
                {m.fromFinder
                  ? t("trusted.reply.finder")
                  : m.mine
                    ? t("trusted.reply.you")
                    : t("trusted.reply.ownerSide", { owner: thread.owner })}
              </strong>
              {", "}
              <time dateTime={new Date(m.createdAt).toISOString()}>{formatDateTime(m.createdAt, lang)}</time>
            </p>
            <p className="relay-text text-break mb-0">{m.text}</p>
          </li>
        ))}
      </ol>
      <FormAlert message={result?.formError ?? null} />
      <Form method="post" noValidate className="card card-body mb-3">
        <label htmlFor="trusted-reply" className="form-label fw-bold">
          {t("trusted.reply.label")}
        </label>
        <textarea
          id="trusted-reply"
          name="message"
          className={`form-control${error ? " is-invalid" : ""}`}
          rows={5}
          required
          maxLength={maxLength}
          defaultValue={result?.values.message ?? ""}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "trusted-reply-error" : undefined}
          autoFocus={Boolean(error)}
        />
        {error ? (
          <div id="trusted-reply-error" className="invalid-feedback">
            {t(error)}
          </div>
        ) : null}
        <div className="mt-3">
          <button type="submit" className="btn btn-primary">
            {t("trusted.reply.send")}
          </button>
        </div>
      </Form>
      <p className="small">
        <Link to={thread.stopUrl.replace(/^https?:\/\/[^/]+/, "")}>{t("trusted.reply.stop")}</Link>
      </p>
    </section>
  );
}
