import { useTranslation } from "~/i18n/react";
import { Link, useLoaderData } from "react-router";
import { parseInboxPage } from "~/lib/domain/contact";
import { formatDateTime } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { requireAdmin } from "~/server/auth/session.server";
import { inboxPage } from "~/server/support/support.service.server";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/admin.messages";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["admin"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "admin.messages");
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = parseInboxPage(new URL(request.url).searchParams);
  const deps = await getDeps();
  return inboxPage(deps, page);
}

export default function AdminMessages() {
  const { t } = useTranslation();
  const lang = useLang();
  const inbox = useLoaderData<typeof loader>();
  return (
    <section className="py-4" aria-labelledby="inbox-title">
      <h1 id="inbox-title">{t("admin.messages.title")}</h1>
      <p>
        {t("admin.messages.countTotal", { count: inbox.total })},{" "}
        {t("admin.messages.countUnread", { count: inbox.unread })}
      </p>
      {inbox.messages.length === 0 ? (
        <p>{t("admin.messages.empty")}</p>
      ) : (
        <ul className="list-group mb-3 inbox-list">
          {inbox.messages.map((m) => (
            <li key={m.id} className={`list-group-item${m.unread ? " inbox-unread" : ""}`}>
              <div className="d-flex flex-wrap justify-content-between gap-2">
                <Link to={`/admin/messages/${m.id}`} className={`text-break${m.unread ? " fw-bold" : ""}`}>
                  {m.name || t("admin.messages.noName")} &lt;{m.email}&gt;
                </Link>
                <span className="d-flex gap-2 align-items-center">
                  {m.unread ? <span className="badge text-bg-primary">{t("admin.messages.unread")}</span> : null}
                  {m.handled ? <span className="badge text-bg-success">{t("admin.messages.handled")}</span> : null}
                  <time dateTime={new Date(m.createdAt).toISOString()} className="small text-body-secondary">
                    {formatDateTime(m.createdAt, lang)}
                  </time>
                </span>
              </div>
              <p className="mb-0 small text-break inbox-excerpt">{m.excerpt}</p>
            </li>
          ))}
        </ul>
      )}
      {inbox.pages > 1 ? (
        <nav aria-label={t("admin.messages.pagination")} className="d-flex gap-3 align-items-center">
          {inbox.page > 1 ? <Link to={`?page=${inbox.page - 1}`}>{t("admin.messages.previous")}</Link> : null}
          <span>{t("admin.messages.page", { page: inbox.page, pages: inbox.pages })}</span>
          {inbox.page < inbox.pages ? <Link to={`?page=${inbox.page + 1}`}>{t("admin.messages.next")}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
