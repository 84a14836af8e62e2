/**
 * One conversation with a finder (decision 013): the thread, the finder's shared location as
 * a maps link, and the owner's reply form. Another user's conversation is 'Page not
 * found', never a hint that it exists.
 */
import { useTranslation } from "~/i18n/react";
import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { ContactText } from "~/components/ContactText";
import { TextareaField } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { formatDate, formatDateTime } from "~/lib/domain/dates";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { parseOwnerReply, type OwnerReplyValues } from "~/lib/domain/relay";
import { RELAY_MESSAGE_MAX } from "~/lib/domain/relay-limits";
import { useLang } from "~/lib/hooks/use-lang";
import { requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { withActionHeaders } from "~/server/http/private-link.server";
import { orErrorPage } from "~/server/http/errors.server";
import { intent, intentAction, type FormReading } from "~/server/http/form-action.server";
import { relayErrors } from "~/server/relay/relay.http.server";
import { formatFee } from "~/lib/domain/fee";
import { listConversationDeliveries } from "~/server/alerts/alerts.service.server";
import { confirmReturn, openOwnerConversation, replyAsOwner } from "~/server/relay/relay.service.server";
import type { Route } from "./+types/message";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["alerts", "common", "push", "relay", "trusted"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "relay.thread");
}

export const headers = withActionHeaders;

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const deps = await getDeps();
  const conversation = await orErrorPage(relayErrors, openOwnerConversation(deps, user.ref, params.id));
  // After the access check above: the user's own alert deliveries only (decision 033).
  const deliveries = await listConversationDeliveries(deps, user.ref, params.id);
  return { conversation, deliveries };
}

/** The owner's reply as the action reads it: the text, or what is wrong with it. */
function readReply(form: FormData): FormReading<string> {
  const parsed = parseOwnerReply(form);
  return parsed.ok ? { ok: true, data: parsed.text, values: parsed.values } : parsed;
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const deps = await getDeps();
  return intentAction(
    request,
    { errors: relayErrors, otherwise: "reply" },
    {
      // "I have my item back" (decision 019): the same answer however often it is sent. Only the
      // confirmation step's button (confirm=1) records it; the first tap asks.
      returned: intent({
        schema: z.object({ confirm: z.unknown().optional() }),
        errorsOn: "page",
        async handle(input) {
          if (input.confirm !== "1") return redirect(`/messages/${params.id}?confirmReturn=1#return`);
          await confirmReturn(deps, user.ref, params.id);
          return redirect(`/messages/${params.id}?returned=1`);
        },
      }),
      reply: intent({
        parse: readReply,
        invalid: { key: "relay.errors.invalid" },
        async handle(text) {
          await replyAsOwner(deps, user.ref, params.id, text);
          return redirect(`/messages/${params.id}?replied=1`);
        },
      }),
    },
  );
}

export default function Message({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [search] = useSearchParams();
  const navigation = useNavigation();
  const { conversation: c, deliveries } = loaderData;
  const result = actionData as ActionResult<OwnerReplyValues> | undefined;
  const replied = search.get("replied") === "1" && !result;
  const justReturned = search.get("returned") === "1";
  const confirming = search.get("confirmReturn") === "1";
  return (
    <article className="py-4" aria-labelledby="conversation-title">
      <p>
        <Link to="/messages">{t("relay.thread.back")}</Link>
      </p>
      <h1 id="conversation-title" className="h3 text-break">
        {t("relay.thread.title", { item: c.itemName })}
      </h1>
      {c.bySms ? (
        <p className="by-sms">
          <span className="badge text-bg-secondary me-2">{t("relay.inbox.bySms")}</span>
          {t("relay.thread.bySms")}
        </p>
      ) : c.finderContact ? (
        <p>
          {t("relay.thread.finderContact")} {/* A phone number or address the owner can tap; the rest stays text. */}
          <span className="text-break finder-contact">
            <ContactText text={c.finderContact} />
          </span>
        </p>
      ) : (
        <p className="text-body-secondary">{t("relay.thread.noContact")}</p>
      )}
      <ol className="list-unstyled relay-thread">
        {c.messages.map((m) => (
          <li key={m.id} className={`relay-message relay-message-${m.author}`}>
            <p className="small text-body-secondary mb-1">
              <strong>
                {m.byContact !== null
                  ? t("trusted.byContact", { name: m.byContact })
                  : t(m.author === "owner" ? "relay.thread.you" : "relay.thread.finder")}
              </strong>
              {", "}
              <time dateTime={new Date(m.createdAt).toISOString()}>{formatDateTime(m.createdAt, lang)}</time>
              {m.unread ? <span className="badge text-bg-primary ms-2">{t("relay.thread.new")}</span> : null}
            </p>
            <p className="relay-text text-break mb-1">{m.text}</p>
            {m.mapsUrl ? (
              <p className="mb-0">
                <a href={m.mapsUrl} target="_blank" rel="noopener noreferrer" className="maps-link">
                  {t("relay.thread.map")}
                </a>
              </p>
            ) : null}
          </li>
        ))}
      </ol>
      <Deliveries deliveries={deliveries} />
      {replied ? (
        <div className="alert alert-success" role="status">
          {t("relay.thread.sent")}
        </div>
      ) : null}
      <ReturnSection id={c.id} returned={c.returned} justReturned={justReturned} confirming={confirming} />
      {/* Keyed by the thread's length: a sent reply (a new message) remounts the form, so
          the box is empty again instead of inviting a duplicate. */}
      <Form method="post" noValidate className="mt-3" key={c.messages.length}>
        <FormAlert message={result?.formError} />
        <TextareaField
          id="reply-message"
          name="message"
          label={t("relay.thread.reply")}
          help={t(
            c.bySms
              ? "relay.thread.replyHelpSms"
              : c.finderCanGetMail
                ? "relay.thread.replyHelpMail"
                : "relay.thread.replyHelpLink",
          )}
          error={result?.fieldErrors.message}
          defaultValue={result?.values.message ?? ""}
          rows={4}
          maxLength={RELAY_MESSAGE_MAX}
          required
        />
        <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
          {t("relay.thread.send")}
        </button>
      </Form>
    </article>
  );
}

/** How the alerts of this conversation reached the owner (decision 033): "Delivered by SMS to +46 70… 14:02". */
function Deliveries({
  deliveries,
}: {
  deliveries: {
    id: string;
    channel: string;
    recipientLabel: string;
    status: string;
    sentAt: number | null;
    deliveredAt: number | null;
  }[];
}) {
  const { t } = useTranslation();
  const lang = useLang();
  if (deliveries.length === 0) return null;
  return (
    <section className="mb-3 alert-deliveries" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title" className="h6">
        {t("alerts.deliveries.title")}
      </h2>
      <ul className="small text-body-secondary mb-0">
        {deliveries.map((d) => {
          const at = d.deliveredAt ?? d.sentAt;
          return (
            <li key={d.id} className={`delivery delivery-${d.status}`}>
              {t(`alerts.deliveries.${d.status}`, {
                // Mid-sentence: "Skickat som sms", not "som Sms" (decision 057).
                channel: t(`alerts.channelsInSentence.${d.channel}`),
                to: d.recipientLabel || t("push.unknownDevice"),
                time: at ? formatDateTime(at, lang) : "",
              })}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * "I have my item back" (decision 019): a plain POST (no JavaScript needed); once confirmed,
 * the date and the fee agreed then, as the finder sees them at their link.
 */
function ReturnSection({
  id,
  returned,
  justReturned,
  confirming,
}: {
  id: string;
  returned: { at: number; fee: number; currency: "SEK" | "EUR" } | null;
  justReturned: boolean;
  confirming: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigation = useNavigation();
  if (returned) {
    return (
      <div className="alert alert-success return-confirmed" role="status">
        {justReturned ? <p className="fw-bold mb-1">{t("relay.returned.ownerDone")}</p> : null}
        <p className="mb-0">
          {t("relay.returned.ownerNote", {
            date: formatDate(returned.at, lang),
            fee: formatFee(returned.fee, returned.currency),
          })}
        </p>
      </div>
    );
  }
  if (confirming) {
    // The confirmation step: server-rendered, so it works without JavaScript.
    return (
      <Form method="post" className="card mb-3 return-form border-success" id="return" replace>
        <div className="card-body">
          <h2 className="h5">{t("relay.returned.confirmTitle")}</h2>
          <p>{t("relay.returned.confirmHelp")}</p>
          <input type="hidden" name="intent" value="returned" />
          <input type="hidden" name="confirm" value="1" />
          <div className="d-flex flex-wrap gap-2">
            <button type="submit" className="btn btn-success" disabled={navigation.state === "submitting"}>
              {t("relay.returned.confirm")}
            </button>
            <Link to={`/messages/${id}`} replace className="btn btn-outline-secondary">
              {t("relay.returned.cancel")}
            </Link>
          </div>
        </div>
      </Form>
    );
  }
  return (
    <Form method="post" className="card mb-3 return-form" id="return">
      <div className="card-body">
        <h2 className="h5">{t("relay.returned.ownerTitle")}</h2>
        <p>{t("relay.returned.ownerHelp")}</p>
        <input type="hidden" name="intent" value="returned" />
        <button type="submit" className="btn btn-success" disabled={navigation.state === "submitting"}>
          {t("relay.returned.button")}
        </button>
      </div>
    </Form>
  );
}
