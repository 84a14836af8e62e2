import { useTranslation } from "~/i18n/react";
import { FindCodeForm } from "~/components/FindCodeForm";
import { data, Link } from "react-router";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { formatPrice, PACKAGES, priceFor } from "~/lib/domain/pricing";
import type { LeanHandle } from "~/lean/lean-page";
import { getSessionUser } from "~/server/auth/session.server";
import { takeFlash } from "~/server/flash.server";
import type { Route } from "./+types/home";

/**
 * Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020).
 * `lean`: a visitor who is not signed in gets the page without React Router's JavaScript
 * (docs/decisions/020): everything on it is links and one GET form, so it needs
 * none, and the first page most people see paints from the HTML alone. Signed-in users
 * keep the full app (their user menu is React).
 */
export const handle: { i18n: string[] } & LeanHandle = {
  i18n: ["common", "flash", "home"],
  lean: (data) => (data as { anonymous?: boolean } | undefined)?.anonymous === true,
};

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "home");
}

/** A one-shot message after a redirect here (e.g. "Your account is deleted"). */
export async function loader({ request }: Route.LoaderArgs) {
  const anonymous = (await getSessionUser(request)) === null;
  const flash = takeFlash(request);
  if (!flash.clear) return { flash: null, anonymous };
  // Set here, not left to noStoreWhenSignedIn: the one-shot message after deleting an
  // account goes to a visitor whose session is gone.
  return data(
    { flash: flash.message, anonymous },
    { headers: { "Set-Cookie": flash.clear, "Cache-Control": "private, no-store" } },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

const STEPS = ["step1", "step2", "step3", "step4"] as const;
const REASONS = ["noApp", "reward", "anything"] as const;

/** `/`: the pitch, how it works and the spec's pricing cards (prices from app/lib/domain/pricing). */
export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const prices = priceFor(lang);

  return (
    <>
      {loaderData.flash ? (
        <div className="alert alert-success mt-4" role="status">
          {t(loaderData.flash)}
        </div>
      ) : null}
      <section className="home-hero py-5" aria-labelledby="home-title">
        <h1 id="home-title" className="display-5 fw-bold">
          {t("home.title")}
        </h1>
        <p className="lead">{t("home.lead")}</p>
        <p className="col-lg-8">{t("home.intro")}</p>
        <p className="d-flex flex-wrap gap-2 mb-0">
          <Link className="btn btn-primary btn-lg" to="/user/register">
            {t("home.cta")}
          </Link>
          <a className="btn btn-outline-primary btn-lg" href="#how-it-works">
            {t("home.how.link")}
          </a>
        </p>
      </section>

      <div className="py-4 home-find">
        <FindCodeForm id="home-find-code" />
        <p className="mt-3 mb-0">
          <Link to="/claim">{t("home.claimLink")}</Link>
        </p>
      </div>

      <section className="py-4" aria-labelledby="how-it-works">
        <h2 id="how-it-works">{t("home.how.title")}</h2>
        <ol className="home-steps row row-cols-1 row-cols-md-2 row-cols-lg-4 g-4 list-unstyled mt-1">
          {STEPS.map((step, index) => (
            <li key={step} className="col">
              <span className="home-step-number" aria-hidden="true">
                {index + 1}
              </span>
              <h3 className="h5">{t(`home.how.${step}.title`)}</h3>
              <p className="mb-0">{t(`home.how.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="py-4" aria-labelledby="pricing">
        <h2 id="pricing">{t("home.pricing.title")}</h2>
        <p>{t("home.pricing.intro")}</p>
        <div className="row row-cols-1 row-cols-md-2 g-4">
          {PACKAGES.map((pkg) => (
            <div key={pkg} className="col">
              <article className="card h-100 text-center" aria-labelledby={`package-${pkg}`}>
                <div className="card-body d-flex flex-column">
                  <h3 id={`package-${pkg}`} className="card-title">
                    {t(`home.pricing.${pkg}.name`)}
                  </h3>
                  <p className="fw-semibold">{t(`home.pricing.${pkg}.codes`)}</p>
                  <p className="mb-1">
                    <span className="price-amount">{formatPrice(prices[pkg].year, lang)}</span>{" "}
                    {t("home.pricing.perYear")}
                  </p>
                  <p className="text-body-secondary">
                    {t("home.pricing.perMonth", { price: formatPrice(prices[pkg].month, lang) })}
                  </p>
                  <p className="fw-semibold text-success">
                    {t("home.pricing.perDay", { price: formatPrice(prices.perDayUnder[pkg], lang) })}
                  </p>
                  <p>{t(`home.pricing.${pkg}.use`)}</p>
                  <p className="mt-auto mb-0">
                    <Link className="btn btn-primary w-100" to={`/user/register?package=${pkg}`}>
                      {t(`home.pricing.${pkg}.choose`)}
                    </Link>
                  </p>
                </div>
              </article>
            </div>
          ))}
        </div>
        <p className="small mt-3 mb-1">{t("home.pricing.discount")}</p>
        <p className="small text-body-secondary">{t("home.pricing.minimum")}</p>
      </section>

      <section className="py-4" aria-labelledby="why-hittad">
        <h2 id="why-hittad">{t("home.why.title")}</h2>
        <div className="row row-cols-1 row-cols-md-3 g-4 mt-1">
          {REASONS.map((reason) => (
            <div key={reason} className="col">
              <h3 className="h5">{t(`home.why.${reason}.title`)}</h3>
              <p className="mb-0">{t(`home.why.${reason}.text`)}</p>
            </div>
          ))}
        </div>
      </section>
    </>
  );
}
