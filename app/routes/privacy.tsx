import { leanWhenAnonymous, type LeanHandle } from "~/lean/lean-page";
import { Trans, useTranslation } from "~/i18n/react";
import { Link, useLoaderData } from "react-router";
import { SellerDetails } from "~/components/SellerDetails";
import { pageMeta } from "~/lib/domain/meta";
import { RETENTION_KINDS, RETENTION_MS, retentionPeriod } from "~/lib/domain/retention";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/privacy";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
/** Anonymous visitors get the page without framework JavaScript (decisions 042 and 020). */
export const handle: { i18n: string[] } & LeanHandle = { i18n: ["privacy", "seller"], lean: leanWhenAnonymous };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "privacy");
}

/** The date of this notice's current text. */
export const PRIVACY_UPDATED = "2026-11-26";

const GROUPS = {
  owners: ["account", "address", "items", "orders", "scans", "sessions"],
  finders: ["message", "contact", "sms", "location", "language", "link"],
  members: ["data", "processor"],
  staff: ["data"],
  visitors: ["contact", "limits", "cookies", "never"],
} as const;

const PURPOSES = [
  ["service", "contract"],
  ["bookkeeping", "legal"],
  ["finders", "interest"],
  ["lookup", "interest"],
  ["support", "interest"],
  ["security", "interest"],
  ["cookies", "consent"],
] as const;

const RECIPIENTS = ["payments", "mail", "hosting", "sms", "push", "social"] as const;
const RIGHTS = ["access", "rectification", "erasure", "objection", "withdraw"] as const;

export async function loader() {
  return { seller: (await getDeps()).site.seller };
}

/**
 * `/privacy`: the privacy notice. The retention periods of the data the
 * housekeeping job deletes are printed from app/lib/domain/retention.ts, the numbers it deletes by.
 */
export default function Privacy() {
  const { t } = useTranslation();
  const { seller } = useLoaderData<typeof loader>();
  return (
    <article className="legal py-5" aria-labelledby="privacy-title">
      <h1 id="privacy-title">{t("privacy.title")}</h1>
      <p className="text-body-secondary">
        {t("privacy.updated")} <time dateTime={PRIVACY_UPDATED}>{PRIVACY_UPDATED}</time>
      </p>
      <p className="lead">{t("privacy.intro")}</p>

      <section id="controller" aria-labelledby="privacy-controller">
        <h2 id="privacy-controller" className="h4 mt-4">
          {t("privacy.controller.title")}
        </h2>
        <p>{t("privacy.controller.text")}</p>
        <SellerDetails seller={seller} className="mb-3" />
        <p>
          <Trans
            i18nKey="privacy.controller.contact"
            values={{ email: seller.email }}
            components={{ a: <Link to="/contact" /> }}
          />
        </p>
      </section>

      <section id="collect" aria-labelledby="privacy-collect">
        <h2 id="privacy-collect" className="h4 mt-4">
          {t("privacy.collect.title")}
        </h2>
        <p>{t("privacy.collect.intro")}</p>
        {Object.entries(GROUPS).map(([group, keys]) => (
          <section key={group} id={group} aria-labelledby={`privacy-${group}`}>
            <h3 id={`privacy-${group}`} className="h5 mt-3">
              {t(`privacy.collect.${group}.title`)}
            </h3>
            <p className="mb-1">{t(`privacy.collect.${group}.intro`)}</p>
            <ul>
              {keys.map((key) => (
                <li key={key}>
                  {group === "visitors" && key === "cookies" ? (
                    <Trans
                      i18nKey="privacy.collect.visitors.items.cookies"
                      components={{ a: <Link to="/cookies" /> }}
                    />
                  ) : (
                    t(`privacy.collect.${group}.items.${key}`)
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </section>

      <section id="purposes" aria-labelledby="privacy-purposes">
        <h2 id="privacy-purposes" className="h4 mt-4">
          {t("privacy.purposes.title")}
        </h2>
        <div className="table-responsive">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("privacy.purposes.headers.purpose")}</th>
                <th scope="col">{t("privacy.purposes.headers.basis")}</th>
              </tr>
            </thead>
            <tbody>
              {PURPOSES.map(([purpose, basis]) => (
                <tr key={purpose}>
                  <td>{t(`privacy.purposes.rows.${purpose}`)}</td>
                  <td>{t(`privacy.purposes.basis.${basis}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section id="retention" aria-labelledby="privacy-retention">
        <h2 id="privacy-retention" className="h4 mt-4">
          {t("privacy.retention.title")}
        </h2>
        <p>{t("privacy.retention.intro")}</p>
        <div className="table-responsive">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("privacy.retention.headers.kind")}</th>
                <th scope="col">{t("privacy.retention.headers.period")}</th>
              </tr>
            </thead>
            <tbody>
              {RETENTION_KINDS.map((kind) => {
                const p = retentionPeriod(RETENTION_MS[kind]);
                return (
                  <tr key={kind} data-retention={kind} data-days={Math.round(RETENTION_MS[kind] / 86_400_000)}>
                    <td>{t(`privacy.retention.kinds.${kind}`)}</td>
                    <td>{t(`privacy.retention.${p.unit}`, { count: p.count })}</td>
                  </tr>
                );
              })}
              {(["account", "support", "never"] as const).map((kind) => (
                <tr key={kind}>
                  <td>{t(`privacy.retention.fixed.${kind}`)}</td>
                  <td>{t(`privacy.retention.fixed.${kind}Period`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section id="recipients" aria-labelledby="privacy-recipients">
        <h2 id="privacy-recipients" className="h4 mt-4">
          {t("privacy.recipients.title")}
        </h2>
        <p className="mb-1">{t("privacy.recipients.intro")}</p>
        <ul>
          {RECIPIENTS.map((key) => (
            <li key={key}>{t(`privacy.recipients.items.${key}`)}</li>
          ))}
        </ul>
        <p>{t("privacy.recipients.transfers")}</p>
      </section>

      <section id="rights" aria-labelledby="privacy-rights">
        <h2 id="privacy-rights" className="h4 mt-4">
          {t("privacy.rights.title")}
        </h2>
        <ul>
          {RIGHTS.map((key) => (
            <li key={key}>{t(`privacy.rights.items.${key}`)}</li>
          ))}
        </ul>
        <p>
          <Trans
            i18nKey="privacy.rights.how"
            values={{ email: seller.email }}
            components={{ a: <Link to="/account" /> }}
          />
        </p>
      </section>

      <section id="complain" aria-labelledby="privacy-complain">
        <h2 id="privacy-complain" className="h4 mt-4">
          {t("privacy.complain.title")}
        </h2>
        <p>
          <Trans i18nKey="privacy.complain.text" components={{ a: <a href="https://www.imy.se/" rel="noopener" /> }} />
        </p>
      </section>

      <section id="changes" aria-labelledby="privacy-changes">
        <h2 id="privacy-changes" className="h4 mt-4">
          {t("privacy.changes.title")}
        </h2>
        <p>{t("privacy.changes.text")}</p>
      </section>
    </article>
  );
}
