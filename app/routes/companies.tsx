import { leanWhenAnonymous, type LeanHandle } from "~/lean/lean-page";
import { useTranslation } from "~/i18n/react";
import { Link, useRouteLoaderData } from "react-router";
import type { SessionUser } from "~/lib/domain/session-user";
import { pageMeta } from "~/lib/domain/meta";
import type { Route } from "./+types/companies";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
/** Anonymous visitors get the page without framework JavaScript (decisions 042 and 020). */
export const handle: { i18n: string[] } & LeanHandle = { i18n: ["companies"], lean: leanWhenAnonymous };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "companies");
}

const FEATURES = ["volume", "devices", "contact"] as const;

/**
 * The call to action (decision 022): a signed-in user goes on to create the organisation; anyone
 * else signs up first (/organisations/new sends them to registration and back afterwards).
 */
function CreateCompanyAccount({ className }: { className: string }) {
  const { t } = useTranslation();
  const root = useRouteLoaderData("root") as { user: SessionUser | null } | undefined;
  return (
    <Link className={className} to="/organisations/new">
      {root?.user ? t("companies.cta.create") : t("companies.cta.signUp")}
    </Link>
  );
}

/** `/companies`: the pitch for companies whose employees lose things. */
export default function Companies() {
  const { t } = useTranslation();
  return (
    <>
      <section className="py-5" aria-labelledby="companies-title">
        <h1 id="companies-title" className="display-5 fw-bold">
          {t("companies.title")}
        </h1>
        <p className="lead col-lg-8">{t("companies.lead")}</p>
        <p className="mb-0 d-flex flex-wrap gap-2">
          <CreateCompanyAccount className="btn btn-primary btn-lg" />
          <Link className="btn btn-outline-primary btn-lg" to="/contact">
            {t("companies.cta.link")}
          </Link>
        </p>
      </section>

      <section className="py-4" aria-labelledby="companies-features">
        <h2 id="companies-features">{t("companies.features.title")}</h2>
        <div className="row row-cols-1 row-cols-md-3 g-4 mt-1">
          {FEATURES.map((feature) => (
            <div key={feature} className="col">
              <h3 className="h5">{t(`companies.features.${feature}.title`)}</h3>
              <p className="mb-0">{t(`companies.features.${feature}.text`)}</p>
            </div>
          ))}
        </div>
      </section>

      <section className="py-4" aria-labelledby="companies-worth">
        <h2 id="companies-worth">{t("companies.worth.title")}</h2>
        <p className="col-lg-8">{t("companies.worth.text")}</p>
      </section>

      <section className="py-4" aria-labelledby="companies-cta">
        <h2 id="companies-cta">{t("companies.cta.title")}</h2>
        <p>{t("companies.cta.text")}</p>
        <p className="mb-0 d-flex flex-wrap gap-2">
          <CreateCompanyAccount className="btn btn-primary" />
          <Link className="btn btn-outline-primary" to="/contact">
            {t("companies.cta.link")}
          </Link>
        </p>
      </section>
    </>
  );
}
