import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { formatDate } from "~/lib/domain/dates";
import { DPA_DATE, DPA_SECTIONS, DPA_VERSION } from "~/lib/domain/dpa";
import type { FormMessage } from "~/lib/forms/form";
import type { Lang } from "~/i18n/config";
import { FormAlert } from "./form/FormAlert";

interface Acceptance {
  version: number;
  name: string;
  email: string;
  acceptedAt: number;
}

/**
 * The organisation's data processing agreement (decision 030): its text, who accepted
 * which version and when, and, until the current version is accepted, the form to accept it.
 */
export function DataProcessingAgreement({
  organisation,
  current,
  history,
  error,
  tickError,
  lang,
}: {
  organisation: string;
  current: Acceptance | null;
  history: Acceptance[];
  error: FormMessage | null;
  tickError: boolean;
  lang: Lang;
}) {
  const { t } = useTranslation();
  const earlier = history.filter((a) => a.version !== DPA_VERSION);
  return (
    <section className="card mb-4 dpa" id="dpa" aria-labelledby="dpa-title">
      <div className="card-body">
        <h2 id="dpa-title" className="h4 card-title">
          {t("organisations.dpa.title")}
        </h2>
        <p>{t("organisations.dpa.lead")}</p>
        <p className="small text-body-secondary">
          {t("organisations.dpa.version", { version: DPA_VERSION, date: formatDate(Date.parse(DPA_DATE), lang) })}
        </p>
        <details className="mb-3" open={current === null}>
          <summary>{t("organisations.dpa.show")}</summary>
          <div className="dpa-text mt-2">
            {DPA_SECTIONS.map((s) => (
              <section key={s} aria-labelledby={`dpa-${s}`}>
                <h3 id={`dpa-${s}`} className="h6 mt-3 mb-1">
                  {t(`organisations.dpa.sections.${s}.title`)}
                </h3>
                <p className="mb-2">{t(`organisations.dpa.sections.${s}.text`)}</p>
              </section>
            ))}
          </div>
        </details>
        {current ? (
          <p className="alert alert-success mb-0 text-break" data-dpa="accepted">
            {t("organisations.dpa.accepted", {
              version: current.version,
              name: current.name,
              email: current.email,
              date: formatDate(current.acceptedAt, lang),
            })}
          </p>
        ) : (
          <>
            <p className="alert alert-warning" data-dpa="pending">
              {earlier.length > 0 ? t("organisations.dpa.newVersion") : t("organisations.dpa.notAccepted")}
            </p>
            <FormAlert message={error} />
            <Form method="post" noValidate>
              <input type="hidden" name="intent" value="acceptDpa" />
              <input type="hidden" name="version" value={DPA_VERSION} />
              <div className="form-check mb-3">
                <input
                  className={`form-check-input${tickError ? " is-invalid" : ""}`}
                  type="checkbox"
                  id="dpa-accept"
                  name="accept"
                  value="yes"
                  required
                  aria-invalid={tickError || undefined}
                />
                <label className="form-check-label" htmlFor="dpa-accept">
                  {t("organisations.dpa.tick", { organisation })}
                </label>
              </div>
              <button type="submit" className="btn btn-primary">
                {t("organisations.dpa.accept")}
              </button>
            </Form>
          </>
        )}
        {earlier.length > 0 ? (
          <>
            <h3 className="h6 mt-3">{t("organisations.dpa.history")}</h3>
            <ul className="small mb-0">
              {earlier.map((a) => (
                <li key={a.version} className="text-break">
                  {t("organisations.dpa.historyRow", {
                    version: a.version,
                    name: a.name,
                    email: a.email,
                    date: formatDate(a.acceptedAt, lang),
                  })}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </section>
  );
}
