import { Trans, useTranslation } from "~/i18n/react";
import type { Lang } from "~/i18n/config";
import { formatPrice, minimumTermCommitment, type Period } from "~/lib/domain/pricing";
import type { SellerView } from "~/lib/domain/seller";
import { LiveText } from "./LiveText";
import { SellerDetails } from "./SellerDetails";

/**
 * What the owner agrees to, said before payment (decision 018): automatic renewal every
 * period until cancelled, the total, for a monthly plan the 6-month minimum term and what
 * it commits to (a year paid up front is not bound by it), and a link to the terms.
 * `lang` is the language of the amount's currency. The seller's details are beside them.
 */
export function CheckoutTerms({
  period,
  total,
  lang,
  seller,
  once = false,
}: {
  period: Period;
  total: number;
  lang: Lang;
  seller: SellerView;
  /** A year paid at once (decision 056): paid once, no renewal, a reminder instead. */
  once?: boolean;
}) {
  const { t } = useTranslation();
  const amount = formatPrice(total, lang);
  const committed = minimumTermCommitment(period, total);
  return (
    <section className="checkout-terms mb-3" aria-labelledby="checkout-terms-title" aria-live="polite">
      <h2 id="checkout-terms-title" className="h6 mb-1">
        {t(once ? "swish.terms.title" : "common.checkoutTerms.title")}
      </h2>
      <p className="mb-1" data-testid="checkout-terms">
        {/* Each sentence apart, its figures untranslatable: the terms follow the period and
            total after a page translator too (decision 057). */}
        {once ? (
          <>
            <LiveText text={`${t("swish.terms.once")} `} values={[]} />
            <LiveText text={t("swish.terms.total", { total: amount })} values={[amount]} />
          </>
        ) : (
          <>
            <LiveText text={`${t(`common.checkoutTerms.renews.${period}`)} `} values={[]} />
            <LiveText text={t(`common.checkoutTerms.total.${period}`, { total: amount })} values={[amount, amount]} />
          </>
        )}
        {/* The minimum term binds only a monthly plan: say what it commits to. */}
        {committed === null || once ? null : (
          <LiveText
            text={` ${t("common.checkoutTerms.minimumMonth", { total: amount, committed: formatPrice(committed, lang) })}`}
            values={[amount, formatPrice(committed, lang)]}
          />
        )}
      </p>
      <p className="mb-0">
        <Trans
          i18nKey="common.checkoutTerms.terms"
          components={{ a: <a href="/terms" target="_blank" rel="noopener" /> }}
        />
      </p>
      {/* Who sells, in full before the purchase (distansavtalslagen 2 kap. 2 §, decision 057):
          name, address, organisation number, VAT number and email, not folded away. */}
      <div className="checkout-seller small mt-2" data-testid="checkout-seller">
        <h3 className="h6 small fw-semibold mb-0">{t("seller.title")}</h3>
        <SellerDetails seller={seller} />
      </div>
    </section>
  );
}
