import { useTranslation } from "~/i18n/react";
import type { SellerView } from "~/lib/domain/seller";

/**
 * Who sells: name, postal address, organisation number, VAT number
 * (when there is one) and email. The demo's example values say so beside them.
 */
export function SellerDetails({ seller, className = "" }: { seller: SellerView; className?: string }) {
  const { t } = useTranslation();
  return (
    <div className={`seller-details ${className}`}>
      <address className="mb-0 text-break">
        <span className="d-block">{seller.name}</span>
        {seller.address.map((l, i) => (
          <span key={i} className="d-block">
            {l}
          </span>
        ))}
        <span className="d-block">{`${t("seller.orgNr")} ${seller.orgNr}`}</span>
        {seller.vatNr ? <span className="d-block">{`${t("seller.vatNr")} ${seller.vatNr}`}</span> : null}
        <span className="d-block">
          {t("seller.email")} <a href={`mailto:${seller.email}`}>{seller.email}</a>
        </span>
      </address>
      {seller.example ? (
        <p
          className="small text-body-secondary border-start border-3 border-warning ps-2 mt-2 mb-0"
          data-testid="seller-example"
        >
          {t("seller.example")}
        </p>
      ) : null}
    </div>
  );
}
