/**
 * The finder's private link /m/{token} (decision 013): the conversation with the owner,
 * the owner's replies and a form to write again. No account: the 256-bit token is the
 * key; a wrong one is 'Page not found'. Nothing here names the owner.
 */
import { useTranslation } from "~/i18n/react";
import { data, Form, Link, useSearchParams } from "react-router";
import { CopyButton } from "~/components/CopyButton";
import { FinderMessageForm } from "~/components/FinderMessageForm";
import { useNonce } from "~/components/nonce";
import { formatDate, formatDateTime } from "~/lib/domain/dates";
import { formatFee } from "~/lib/domain/fee";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { isFinderToken, type FinderMessageValues } from "~/lib/domain/relay";
import { useLang } from "~/lib/hooks/use-lang";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { finderThreadAction } from "~/server/relay/finder-forms.http.server";
import { relayErrors } from "~/server/relay/relay.http.server";
import { openFinderThread } from "~/server/relay/relay.service.server";
import { PRIVATE_LINK_HEADERS, withActionHeaders } from "~/server/http/private-link.server";
import type { Route } from "./+types/finder-thread";

export const handle = { i18n: ["common", "relay"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "relay.finder"), { name: "robots", content: "noindex" }];
}

export const headers = withActionHeaders;

export async function loader({ params, request }: Route.LoaderArgs) {
  if (!isFinderToken(params.token)) throw data(null, { status: 404 });
  const deps = await getDeps();
  // `c`: the first mail's code, which confirms the finder's address (decision 058).
  const code = new URL(request.url).searchParams.get("c");
  const thread = await orErrorPage(relayErrors, openFinderThread(deps, params.token, code));
  return data({ thread, captcha: deps.site.captcha }, { headers: PRIVATE_LINK_HEADERS });
}

/** The finder writes again (the same checks as the first message), or their mailbox says yes. */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isFinderToken(params.token)) throw data(null, { status: 404 });
  const { ip, lang } = context.get(requestContext);
  return finderThreadAction(request, await getDeps(), params.token, { ip, lang });
}

export default function FinderThread({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const nonce = useNonce();
  const [search] = useSearchParams();
  const { thread, captcha } = loaderData;
  const sent = search.get("sent") === "1" && !actionData;
  const replied = thread.messages.some((m) => m.author === "owner");
  return (
    <section className="py-4 finder-thread" aria-labelledby="thread-title">
      {sent ? (
        <div className="alert alert-success" role="status">
          {t("relay.sent")}
        </div>
      ) : null}
      <h1 id="thread-title" className="h3 text-break">
        {t("relay.finder.title", { item: thread.itemName })}
      </h1>
      {thread.returned ? (
        // Decision 019: the owner confirmed the return; the fee is settled between them.
        <div className="alert alert-success return-thanks" role="status">
          <p className="fw-bold mb-1">{t("relay.returned.finderThanks")}</p>
          <p className="mb-0">
            {t("relay.returned.finderNote", {
              date: formatDate(thread.returned.at, lang),
              fee: formatFee(thread.returned.fee, thread.returned.currency),
            })}
          </p>
        </div>
      ) : null}
      <div className="card mb-4">
        <div className="card-body">
          <p className="mb-2">{t("relay.finder.linkLead")}</p>
          <label htmlFor="finder-link" className="form-label fw-bold">
            {t("relay.finder.linkLabel")}
          </label>
          <div className="d-flex flex-wrap gap-2">
            <input
              id="finder-link"
              className="form-control font-monospace flex-grow-1 w-auto"
              readOnly
              value={thread.url}
            />
            <CopyButton text={thread.url} label={t("relay.finder.copyLink")} />
          </div>
          {thread.confirmMail ? (
            <Form method="post" className="mt-3" aria-labelledby="confirm-mail-lead">
              <p id="confirm-mail-lead" className="mb-2">
                {t("relay.finder.confirmMailLead")}
              </p>
              <input type="hidden" name="intent" value="confirmMail" />
              <input type="hidden" name="c" value={thread.confirmMail} />
              <button type="submit" className="btn btn-primary">
                {t("relay.finder.confirmMail")}
              </button>
            </Form>
          ) : thread.mailed ? (
            <p className="form-text mb-0">
              {t(thread.mailConfirmed ? "relay.finder.mailConfirmed" : "relay.finder.linkMailed")}
            </p>
          ) : null}
        </div>
      </div>
      <h2 className="h4">{t("relay.finder.thread")}</h2>
      <ol className="list-unstyled relay-thread">
        {thread.messages.map((m) => (
          <li key={m.id} className={`relay-message relay-message-${m.author}`}>
            <p className="small text-body-secondary mb-1">
              <strong>{t(m.author === "owner" ? "relay.finder.owner" : "relay.finder.you")}</strong>
              {", "}
              <time dateTime={new Date(m.createdAt).toISOString()}>{formatDateTime(m.createdAt, lang)}</time>
              {m.located ? ` · ${t("relay.finder.location")}` : null}
            </p>
            <p className="relay-text text-break mb-0">{m.text}</p>
          </li>
        ))}
      </ol>
      {!replied ? <p className="text-body-secondary">{t("relay.finder.noReply")}</p> : null}
      <p className="small text-body-secondary">{t("relay.finder.retention")}</p>
      {thread.canWrite ? (
        <FinderMessageForm
          result={actionData as ActionResult<FinderMessageValues> | undefined}
          captcha={captcha.kind}
          siteKey={captcha.siteKey}
          nonce={nonce}
          heading={t("relay.finder.writeMore")}
          flooded={thread.flooded}
          code={thread.code}
          followUp
        />
      ) : (
        <p className="alert alert-info">{t("relay.finder.closed")}</p>
      )}
      <p className="mt-4">
        <Link to={`/product/${thread.itemId}`}>{t("relay.finder.itemLink")}</Link>
      </p>
    </section>
  );
}
