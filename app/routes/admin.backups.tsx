import { data } from "react-router";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { getBackupStatus } from "~/server/backup/backup-status.service.server";
import { requireAdmin } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/admin.backups";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["backups"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "backups"), { name: "robots", content: "noindex" }];
}

/**
 * /admin/backups (decision 048; staff only, 404 to everyone else): when the last backup
 * was made and how it went, the schedule, and the latest attempts. Backups are made and
 * restored with `npm run backup` / `npm run restore` or by the schedule, never from here.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return data(await getBackupStatus(await getDeps()));
}

function megabytes(bytes: number, lang: string) {
  return new Intl.NumberFormat(lang, { style: "unit", unit: "megabyte", maximumFractionDigits: 1 }).format(
    bytes / 1024 / 1024,
  );
}

export default function AdminBackups({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { every, encrypted, lastGood, latest } = loaderData;
  const last = latest[0];
  return (
    <section className="py-4" aria-labelledby="backups-title">
      <h1 id="backups-title">{t("backups.title")}</h1>
      {last ? (
        <div className={`alert ${last.result === "ok" ? "alert-success" : "alert-danger"}`} role="status">
          <p className="mb-1 fw-semibold">
            {t(last.result === "ok" ? "backups.last.ok" : "backups.last.failed", {
              when: formatDateTime(last.finishedAt, lang),
            })}
          </p>
          {last.error ? <p className="mb-1 small text-break">{last.error}</p> : null}
          {last.result !== "ok" && lastGood ? (
            <p className="mb-0 small">{t("backups.last.good", { when: formatDateTime(lastGood.finishedAt, lang) })}</p>
          ) : null}
        </div>
      ) : (
        <div className="alert alert-warning" role="status">
          {t("backups.last.none")}
        </div>
      )}
      <p className="mb-1">
        {every === null ? t("backups.schedule.off") : t(`backups.schedule.${every.unit}`, { count: every.count })}
      </p>
      <p>{t(encrypted ? "backups.encrypted.yes" : "backups.encrypted.no")}</p>
      <h2 className="h4 mt-4">{t("backups.history.title")}</h2>
      {latest.length === 0 ? (
        <p>{t("backups.history.empty")}</p>
      ) : (
        <ul className="list-group">
          {latest.map((b) => (
            <li key={`${b.name}-${b.finishedAt}`} className="list-group-item">
              <div className="d-flex flex-wrap justify-content-between gap-2">
                <time dateTime={new Date(b.finishedAt).toISOString()}>{formatDateTime(b.finishedAt, lang)}</time>
                <span className="d-flex flex-wrap gap-2 align-items-center">
                  <span className="badge text-bg-secondary">{t(`backups.trigger.${b.trigger}`)}</span>
                  <span className={`badge ${b.result === "ok" ? "text-bg-success" : "text-bg-danger"}`}>
                    {t(`backups.result.${b.result}`)}
                  </span>
                </span>
              </div>
              <p className="mb-0 small text-break">
                <code>{b.name}</code>
                {b.sizeBytes !== null ? ` · ${megabytes(b.sizeBytes, lang)}` : ""}
              </p>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-4 small text-body-secondary">{t("backups.howto")}</p>
    </section>
  );
}
