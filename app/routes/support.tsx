import { leanWhenAnonymous, type LeanHandle } from "~/lean/lean-page";
import { Trans, useTranslation } from "~/i18n/react";
import { Link } from "react-router";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { formatPrice, priceFor } from "~/lib/domain/pricing";
import type { Route } from "./+types/support";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
/** Anonymous visitors get the page without framework JavaScript (decisions 042 and 020). */
export const handle: { i18n: string[] } & LeanHandle = { i18n: ["support"], lean: leanWhenAnonymous };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "support");
}

/** The spec's FAQ topics, in its order. */
const TOPICS = ["whyReturn", "howItWorks", "ownNumber", "scan", "findMy", "applecare"] as const;

/**
 * `/support`: FAQ as native <details> disclosures (keyboard and screen-reader friendly,
 * no JavaScript needed) and the 'Want to help?' section at `/support#help`.
 */
export default function Support() {
  const { t } = useTranslation();
  const lang = useLang();
  const perDay = formatPrice(priceFor(lang).perDayUnder.single, lang);
  // Links in the copy are tagged <a>, not <link>: <link> is a void HTML element, so
  // Trans would render it empty (react-i18next-gitbook#87).
  return (
    <>
      <section className="pt-5 pb-3" aria-labelledby="support-title">
        <h1 id="support-title">{t("support.title")}</h1>
        <p className="lead">
          <Trans i18nKey="support.lead" components={{ a: <Link to="/contact" /> }} />
        </p>
      </section>

      <section className="faq py-3 legal" aria-labelledby="faq-title">
        <h2 id="faq-title">{t("support.faq.title")}</h2>
        {TOPICS.map((topic) => (
          <details key={topic} id={`faq-${topic}`}>
            <summary>{t(`support.faq.${topic}.question`)}</summary>
            <p>{t(`support.faq.${topic}.answer`, { price: perDay })}</p>
          </details>
        ))}
      </section>

      <section id="help" className="py-4 legal" aria-labelledby="help-title" tabIndex={-1}>
        <h2 id="help-title">{t("support.help.title")}</h2>
        <p>{t("support.help.intro")}</p>
        <ul>
          <li>{t("support.help.tell")}</li>
          <li>{t("support.help.return")}</li>
          <li>
            <Trans i18nKey="support.help.contact" components={{ a: <Link to="/contact" /> }} />
          </li>
        </ul>
      </section>
    </>
  );
}
