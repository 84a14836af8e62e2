/**
 * The owner's messages from finders (decision 013): conversations newest first with the
 * number of unread finder messages. Signed-in users only; each sees only their own.
 */
import { useTranslation } from "~/i18n/react";
import { data, Link } from "react-router";
import { formatDateTime } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { listOwnerConversations } from "~/server/relay/relay.service.server";
import type { Route } from "./+types/messages";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["relay"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "relay.inbox");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const conversations = await listOwnerConversations(await getDeps(), user.ref);
  return data({ conversations });
}

const EXCERPT = 140;

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { conversations } = loaderData;
  return (
    <section className="py-4" aria-labelledby="messages-title">
      <h1 id="messages-title">{t("relay.inbox.title")}</h1>
      {conversations.length === 0 ? (
        <p className="lead">{t("relay.inbox.empty")}</p>
      ) : (
        <ul className="list-unstyled relay-inbox">
          {conversations.map((c) => (
            <li key={c.id} className={`card mb-3${c.unread ? " border-primary" : ""}`}>
              <div className="card-body">
                <h2 className="h5 card-title text-break">
                  <Link to={`/messages/${c.id}`} className="stretched-link">
                    {t("relay.inbox.item", { item: c.itemName })}
                  </Link>{" "}
                  {c.unread ? (
                    <span className="badge text-bg-primary">{t("relay.inbox.unread", { count: c.unread })}</span>
                  ) : null}
                  {/* Decision 055: the finder wrote by SMS (their number stays on the server). */}
                  {c.bySms ? (
                    <span className="badge text-bg-secondary ms-1 by-sms">{t("relay.inbox.bySms")}</span>
                  ) : null}
                </h2>
                <p className="card-text text-break relay-text mb-1">
                  {c.lastText.length > EXCERPT ? `${c.lastText.slice(0, EXCERPT)}…` : c.lastText}
                </p>
                <p className="card-text small text-body-secondary mb-0">
                  {t("relay.inbox.last", { date: formatDateTime(c.lastMessageAt, lang) })} ·{" "}
                  {t("relay.inbox.messages", { count: c.messages })}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      <p className="small text-body-secondary">{t("relay.inbox.retention")}</p>
    </section>
  );
}
