import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import { getT } from "~/i18n/i18n";
import { REPLY_MAX } from "~/lib/contact-limits";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { contactErrorMessage, contactErrorStatus } from "~/server/contact/contact.http.server";
import { ContactError, markHandled, openMessage, replyToMessage } from "~/server/contact/contact.service.server";
import { getRuntime } from "~/server/runtime.server";
import { readForm } from "~/server/http/form.server";
import type { Route } from "./+types/admin.message";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "admin.messages");
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { database } = await getRuntime();
  try {
    return await openMessage(database.db, params.id);
  } catch (err) {
    if (err instanceof ContactError && err.code === "notFound") throw data(null, { status: 404 });
    throw err;
  }
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("handled"), handled: z.enum(["0", "1"]) }),
  z.object({ intent: z.literal("reply"), text: z.string() }),
]);

type ActionResult = { ok: true; replied: boolean } | { ok: false; message: string; text: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const t = getT(context.get(requestContext).lang);
  const { config, database } = await getRuntime();
  const parsed = intentSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) throw data(null, { status: 400 });
  try {
    if (parsed.data.intent === "handled") {
      await markHandled(database.db, params.id, parsed.data.handled === "1", admin.email);
      return data<ActionResult>({ ok: true, replied: false });
    }
    await replyToMessage({ config, db: database.db }, params.id, parsed.data.text, admin);
    return data<ActionResult>({ ok: true, replied: true });
  } catch (err) {
    if (!(err instanceof ContactError)) throw err;
    if (err.code === "notFound") throw data(null, { status: 404 });
    const text = parsed.data.intent === "reply" ? parsed.data.text : "";
    return data<ActionResult>(
      { ok: false, message: contactErrorMessage(t, err, config.captcha), text },
      { status: contactErrorStatus(err) },
    );
  }
}

export default function AdminMessage() {
  const { t, i18n } = useTranslation();
  const m = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const replyRef = useRef<HTMLTextAreaElement>(null);
  const fmt = new Intl.DateTimeFormat(i18n.language === "sv" ? "sv-SE" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "Europe/Stockholm",
  });

  useEffect(() => {
    // A sent reply clears the box (with JavaScript; without it the page reloads empty).
    if (result?.ok && result.replied && replyRef.current) replyRef.current.value = "";
  }, [result]);

  return (
    <article className="py-4" aria-labelledby="message-title">
      <p>
        <Link to="/admin/messages">{t("admin.messages.back")}</Link>
      </p>
      <h1 id="message-title">{m.name || m.email}</h1>
      <dl className="row">
        <dt className="col-sm-3">{t("admin.messages.from")}</dt>
        <dd className="col-sm-9">
          {m.name ? `${m.name} ` : ""}&lt;<a href={`mailto:${m.email}`}>{m.email}</a>&gt;
        </dd>
        <dt className="col-sm-3">{t("admin.messages.received")}</dt>
        <dd className="col-sm-9">
          <time dateTime={new Date(m.createdAt).toISOString()}>{fmt.format(m.createdAt)}</time>
        </dd>
        <dt className="col-sm-3">{t("admin.messages.language")}</dt>
        <dd className="col-sm-9">{m.lang}</dd>
        <dt className="col-sm-3">{t("admin.messages.status")}</dt>
        <dd className="col-sm-9">
          {m.handledAt ? (
            <span className="message-handled">{t("admin.messages.handledBy", { by: m.handledBy })}</span>
          ) : (
            "—"
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
                    {t("admin.messages.sentBy", { by: r.authorEmail, date: fmt.format(r.createdAt) })}
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
          <label htmlFor="reply-text" className="form-label">
            {t("admin.messages.reply")}
          </label>
          <textarea
            id="reply-text"
            ref={replyRef}
            name="text"
            required
            rows={6}
            maxLength={REPLY_MAX}
            className="form-control mb-1"
            aria-describedby="reply-hint"
            defaultValue={result && !result.ok ? result.text : ""}
          />
          <p id="reply-hint" className="form-text">
            {t("admin.messages.replyHint", { lang: m.lang })}
          </p>
          {result && !result.ok ? (
            <p className="alert alert-danger" role="alert">
              {result.message}
            </p>
          ) : null}
          {result?.ok && result.replied ? (
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
