import { Form, Link } from "react-router";
import { z } from "zod";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/domain/dates";
import { LOOKUP_QUERY_MAX } from "~/lib/domain/lookup";
import { pageMeta } from "~/lib/domain/meta";
import { RETENTION_MS, retentionPeriod } from "~/lib/domain/retention";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { useLang } from "~/lib/hooks/use-lang";
import { requireAdmin } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { formAction } from "~/server/http/form-action.server";
import { lookupErrors } from "~/server/lookup/lookup.http.server";
import { lookupItem, recentLookups } from "~/server/lookup/lookup.service.server";
import type { Route } from "./+types/admin.lookup";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["admin", "common", "privacy"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "admin.lookup"), { name: "robots", content: "noindex" }];
}

/**
 * /admin/lookup (decision 030; staff only, 404 to everyone else): someone handed a
 * found item in; staff type its sticker code or id and see the owner's account email and
 * contact details. The look-up is a POST so that each one is logged once (who, when, what)
 * and nothing of the owner sits in a URL; the page lists the latest look-ups.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { log: await recentLookups(await getDeps()) };
}

const queryValues = (form: FormData) => ({ q: String(form.get("q") ?? "").slice(0, LOOKUP_QUERY_MAX) });

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireAdmin(request);
  return formAction(
    request,
    { errors: lookupErrors, values: queryValues },
    {
      schema: z.object({}),
      async handle(_, form) {
        const values = queryValues(form);
        const item = await lookupItem(await getDeps(), { id: staff.ref, email: staff.email }, values.q);
        return { values, fieldErrors: {}, formError: null, item };
      },
    },
  );
}

export default function AdminLookup({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { log } = loaderData;
  const item = actionData && "item" in actionData ? actionData.item : null;
  const retention = retentionPeriod(RETENTION_MS.lookups);
  return (
    <section className="py-4 admin-lookup" aria-labelledby="lookup-title">
      <h1 id="lookup-title">{t("admin.lookup.title")}</h1>
      <p>{t("admin.lookup.intro")}</p>
      <FormAlert message={actionData?.formError} />
      <Form method="post" className="mb-4" style={{ maxWidth: "32rem" }}>
        <Field
          id="lookup-q"
          name="q"
          label={t("admin.lookup.label")}
          help={t("admin.lookup.hint")}
          defaultValue={actionData?.values.q ?? ""}
          key={item?.id ?? actionData?.values.q ?? ""}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={LOOKUP_QUERY_MAX}
        />
        <button type="submit" className="btn btn-primary">
          {t("admin.lookup.submit")}
        </button>
      </Form>

      {item ? (
        <section className="card mb-4" aria-labelledby="lookup-result" role="status">
          <div className="card-body">
            <h2 id="lookup-result" className="h4 card-title">
              {t("admin.lookup.result.title")}
            </h2>
            <dl className="row mb-0 lookup-result">
              <dt className="col-sm-4">{t("admin.lookup.result.item")}</dt>
              <dd className="col-sm-8 text-break">{item.name}</dd>
              <dt className="col-sm-4">{t("admin.lookup.result.code")}</dt>
              <dd className="col-sm-8">
                <code>{formatStickerCode(item.code)}</code>
              </dd>
              <dt className="col-sm-4">{t("admin.lookup.result.id")}</dt>
              <dd className="col-sm-8">
                <code>{item.id}</code> <Link to={`/product/${item.id}`}>{t("admin.lookup.result.open")}</Link>
              </dd>
              <dt className="col-sm-4">{t("admin.lookup.result.owner")}</dt>
              <dd className="col-sm-8 text-break">{item.ownerName}</dd>
              <dt className="col-sm-4">{t("admin.lookup.result.ownerEmail")}</dt>
              <dd className="col-sm-8 text-break">
                <a href={`mailto:${item.ownerEmail}`}>{item.ownerEmail}</a>
              </dd>
              <dt className="col-sm-4">{t("admin.lookup.result.contact")}</dt>
              <dd className="col-sm-8 text-break lookup-contact">
                {item.contactInfo.trim() || t("admin.lookup.result.noContact")}
              </dd>
              {item.organisationName !== null ? (
                <>
                  <dt className="col-sm-4">{t("admin.lookup.result.organisation")}</dt>
                  <dd className="col-sm-8 text-break">{item.organisationName}</dd>
                  <dt className="col-sm-4">{t("admin.lookup.result.desk")}</dt>
                  <dd className="col-sm-8 text-break lookup-contact">{item.deskContact}</dd>
                </>
              ) : null}
              <dt className="col-sm-4">{t("admin.lookup.result.status")}</dt>
              <dd className="col-sm-8">
                {item.activeNow ? t("admin.lookup.result.active") : t("admin.lookup.result.inactive")}
                {item.lostAt !== null ? (
                  <span className="badge text-bg-warning ms-2">{t("admin.lookup.result.lost")}</span>
                ) : null}
              </dd>
            </dl>
          </div>
        </section>
      ) : null}

      <section aria-labelledby="lookup-log">
        <h2 id="lookup-log" className="h4">
          {t("admin.lookup.log.title")}
        </h2>
        <p className="small text-body-secondary">
          {t("admin.lookup.log.retention", {
            period: t(`privacy.retention.${retention.unit}`, { count: retention.count }),
          })}
        </p>
        {log.length === 0 ? (
          <p>{t("admin.lookup.log.empty")}</p>
        ) : (
          <div className="table-responsive">
            <table className="table table-sm lookup-log">
              <thead>
                <tr>
                  <th scope="col">{t("admin.lookup.log.when")}</th>
                  <th scope="col">{t("admin.lookup.log.who")}</th>
                  <th scope="col">{t("admin.lookup.log.what")}</th>
                  <th scope="col">{t("admin.lookup.log.found")}</th>
                </tr>
              </thead>
              <tbody>
                {log.map((row) => (
                  <tr key={row.id}>
                    <td>
                      <time dateTime={new Date(row.lookedUpAt).toISOString()}>
                        {formatDateTime(row.lookedUpAt, lang)}
                      </time>
                    </td>
                    <td className="text-break">{row.staffEmail}</td>
                    <td className="text-break">
                      <code>{row.query}</code>
                    </td>
                    <td>{row.productId ? <code>{row.productId}</code> : t("admin.lookup.log.nothing")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </section>
  );
}
