import { leanWhenAnonymous, type LeanHandle } from "~/lean/lean-page";
import { Trans, useTranslation } from "~/i18n/react";
import { Link, useLoaderData } from "react-router";
import { SellerDetails } from "~/components/SellerDetails";
import { pageMeta } from "~/lib/domain/meta";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/terms";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
/** Anonymous visitors get the page without framework JavaScript (decisions 042 and 020). */
export const handle: { i18n: string[] } & LeanHandle = { i18n: ["seller", "terms"], lean: leanWhenAnonymous };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "terms");
}

/** The spec's date of the current terms. */
export const TERMS_UPDATED = "2022-04-15";

const SECTIONS = [
  "age",
  "account",
  "subscriptions",
  "content",
  "finders",
  "liability",
  "changes",
  "law",
  "language",
] as const;
const CONTENT_RULES = ["offensive", "personalData", "rights", "advertising", "impersonation"] as const;

export async function loader() {
  return { seller: (await getDeps()).site.seller };
}

/**
 * `/terms`: terms and conditions, numbered sections so they can be referred to. The spec's
 * terms (dated 2022-04-15) stay as they are; "About the seller" follows them.
 */
export default function Terms() {
  const { t } = useTranslation();
  const { seller } = useLoaderData<typeof loader>();
  return (
    <article className="legal py-5" aria-labelledby="terms-title">
      <h1 id="terms-title">{t("terms.title")}</h1>
      <p className="text-body-secondary">
        {t("terms.updated")} <time dateTime={TERMS_UPDATED}>{TERMS_UPDATED}</time>
      </p>
      <p className="lead">{t("terms.intro")}</p>
      {SECTIONS.map((section, index) => (
        <section key={section} id={section} aria-labelledby={`terms-${section}`}>
          <h2 id={`terms-${section}`} className="h4 mt-4">
            {index + 1}. {t(`terms.${section}.title`)}
          </h2>
          {section === "content" ? (
            <>
              <p>{t("terms.content.intro")}</p>
              <ul>
                {CONTENT_RULES.map((rule) => (
                  <li key={rule}>{t(`terms.content.${rule}`)}</li>
                ))}
              </ul>
              <p>{t("terms.content.removal")}</p>
            </>
          ) : (
            <p>{t(`terms.${section}.text`)}</p>
          )}
        </section>
      ))}
      <section aria-labelledby="terms-contact">
        <h2 id="terms-contact" className="h4 mt-4">
          {SECTIONS.length + 1}. {t("terms.contact.title")}
        </h2>
        <p>
          <Trans i18nKey="terms.contact.text" components={{ a: <Link to="/contact" /> }} />
        </p>
      </section>
      <section id="seller" aria-labelledby="terms-seller" className="border-top mt-5 pt-3">
        <h2 id="terms-seller" className="h4">
          {t("seller.about.title")}
        </h2>
        <p>{t("seller.about.text")}</p>
        <SellerDetails seller={seller} />
      </section>
    </article>
  );
}
