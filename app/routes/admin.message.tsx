import { useEffect } from "react";
import { useTranslation } from "~/i18n/react";
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { TextareaField } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { adminMessageIntentSchema } from "~/lib/domain/contact";
import { REPLY_MAX } from "~/lib/domain/contact-limits";
import { formatDateTime } from "~/lib/domain/dates";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { requireAdmin } from "~/server/auth/session.server";
import { contactErrors } from "~/server/support/support.http.server";
import { markHandled, openMessage, replyToMessage } from "~/server/support/support.service.server";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { formAction } from "~/server/http/form-action.server";
import type { Route } from "./+types/admin.message";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["admin", "common", "contact"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "admin.messages");
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  return orErrorPage(contactErrors, openMessage(await getDeps(), params.id));
}

type ReplyValues = { text: string };
type MessageResult = ActionResult<ReplyValues> & { replied: boolean };

const replyValues = (form: FormData): ReplyValues => {
  const text = form.get("text");
  return { text: form.get("intent") === "reply" && typeof text === "string" ? text : "" };
};

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const deps = await getDeps();
  return formAction(
    request,
    { errors: contactErrors, values: replyValues },
    {
      schema: adminMessageIntentSchema,
      invalidOn: "page",
      async handle(input, form) {
        if (input.intent === "handled") {
          await markHandled(deps, params.id, input.handled === "1", admin.email);
          return data<MessageResult>({ values: replyValues(form), fieldErrors: {}, formError: null, replied: false });
        }
        await replyToMessage(deps, params.id, input.text, admin);
        return data<MessageResult>({ values: { text: "" }, fieldErrors: {}, formError: null, replied: true });
      },
    },
  );
}

export default function AdminMessage() {
  const { t } = useTranslation();
  const lang = useLang();
  const m = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as MessageResult | ActionResult<ReplyValues> | undefined;
  const replied = !!result && "replied" in result && result.replied;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";

  useEffect(() => {
    // A sent reply clears the box (with JavaScript; without it the page reloads empty).
    const box = document.getElementById("reply-text");
    if (replied && box instanceof HTMLTextAreaElement) box.value = "";
  }, [result, replied]);

  return (
    <article className="py-4" aria-labelledby="message-title">
      <p>
        <Link to="/admin/messages">{t("admin.messages.back")}</Link>
      </p>
      <h1 id="message-title">{m.name || m.email}</h1>
      <dl className="row">
        <dt className="col-sm-3">{t("admin.messages.from")}</dt>
        <dd className="col-sm-9 text-break">
          {m.name ? `${m.name} ` : ""}&lt;<a href={`mailto:${m.email}`}>{m.email}</a>&gt;
        </dd>
        <dt className="col-sm-3">{t("admin.messages.received")}</dt>
        <dd className="col-sm-9">
          <time dateTime={new Date(m.createdAt).toISOString()}>{formatDateTime(m.createdAt, lang)}</time>
        </dd>
        <dt className="col-sm-3">{t("admin.messages.language")}</dt>
        <dd className="col-sm-9">{t(m.lang === "sv" ? "layout.swedish" : "layout.english")}</dd>
        <dt className="col-sm-3">{t("admin.messages.status")}</dt>
        <dd className="col-sm-9">
          {m.handledAt ? (
            <span className="message-handled">{t("admin.messages.handledBy", { by: m.handledBy })}</span>
          ) : (
            t(m.replies.length > 0 ? "admin.messages.statusReplied" : "admin.messages.statusOpen")
          )}
        </dd>
      </dl>
      <div className="card mb-3">
        <div className="card-body message-body text-break" style={{ whiteSpace: "pre-wrap" }}>
          {m.message}
        </div>
      </div>
      <Form method="post" className="mb-4">
        <input type="hidden" name="intent" value="handled" />
        <input type="hidden" name="handled" value={m.handledAt ? "0" : "1"} />
        <button type="submit" className="btn btn-outline-success" disabled={busy}>
          {m.handledAt ? t("admin.messages.markUnhandled") : t("admin.messages.markHandled")}
        </button>
      </Form>

      {m.replies.length > 0 ? (
        <section aria-labelledby="replies-title" className="mb-4">
          <h2 id="replies-title">{t("admin.messages.replies")}</h2>
          <ul className="list-unstyled">
            {m.replies.map((r) => (
              <li key={r.id} className="card mb-2">
                <div className="card-body">
                  <p className="small text-body-secondary mb-1">
                    {t("admin.messages.sentBy", { by: r.authorEmail, date: formatDateTime(r.createdAt, lang) })}
                  </p>
                  <div className="message-body text-break" style={{ whiteSpace: "pre-wrap" }}>
                    {r.text}
                  </div>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="reply-title">
        <h2 id="reply-title">{t("admin.messages.reply")}</h2>
        <Form method="post">
          <input type="hidden" name="intent" value="reply" />
          <TextareaField
            id="reply-text"
            name="text"
            required
            rows={6}
            maxLength={REPLY_MAX}
            label={t("admin.messages.replyLabel", { email: m.email })}
            help={t("admin.messages.replyHint", { lang: t(m.lang === "sv" ? "layout.swedish" : "layout.english") })}
            error={result?.fieldErrors.text}
            defaultValue={result && !replied ? result.values.text : ""}
          />
          <FormAlert message={result?.formError} />
          {replied ? (
            <p className="alert alert-success" role="status">
              {t("admin.messages.replySent")}
            </p>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t("admin.messages.send")}
          </button>
        </Form>
      </section>
    </article>
  );
}
