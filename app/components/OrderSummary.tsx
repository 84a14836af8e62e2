import { useTranslation } from "~/i18n/react";
import type { Lang } from "~/i18n/config";
import type { Currency } from "~/lib/domain/currency";
import { formatPrice, type Period } from "~/lib/domain/pricing";
import { LiveText } from "./LiveText";

export interface OrderSummaryData {
  period: Period;
  currency: Currency;
  count: number;
  packagePrice: number;
  discount: number;
  total: number;
  items: Array<{ id: string; name: string }>;
}

/** An order's items and amounts (test checkout, confirmation), in the order's currency. */
export function OrderSummary({ order }: { order: OrderSummaryData }) {
  const { t } = useTranslation();
  const priceLang = order.currency === "SEK" ? "sv" : "en";
  const unit = order.count > 0 ? order.packagePrice / order.count : 0;
  return (
    <div className="card order-summary">
      <div className="card-body">
        <h2 className="h5">{t("orders.summary.title")}</h2>
        <ul className="mb-2">
          {order.items.map((i) => (
            <li key={i.id} className="text-break">
              {i.name}
            </li>
          ))}
        </ul>
        <OrderAmounts
          period={order.period}
          count={order.count}
          unitPrice={unit}
          packagePrice={order.packagePrice}
          discount={order.discount}
          total={order.total}
          lang={priceLang}
        />
      </div>
    </div>
  );
}

export interface OrderAmountsProps {
  period: Period;
  count: number;
  unitPrice: number;
  packagePrice: number;
  discount: number;
  total: number;
  /** The language whose currency the amounts are in. */
  lang: Lang;
  /** The order page recomputes as the owner picks: announce the new figures. */
  live?: boolean;
}

/** Package line with quantity, discount and total: the order page, test checkout and confirmation. */
export function OrderAmounts(props: OrderAmountsProps) {
  const { t } = useTranslation();
  const { lang } = props;
  return (
    // Figures in elements translators leave alone, words keyed by their text: the order
    // page's total follows the ticks after a page translator too (decision 057).
    <dl className="row mb-0" aria-live={props.live ? "polite" : undefined}>
      <dt className="col-8 fw-normal" id="order-package-label">
        <LiveText
          text={t("orders.summary.package", { count: props.count, price: formatPrice(props.unitPrice, lang) })}
          values={[String(props.count), formatPrice(props.unitPrice, lang)]}
        />
      </dt>
      <dd className="col-4 text-end mb-1" id="order-package" translate="no">
        {formatPrice(props.packagePrice, lang)}
      </dd>
      <dt className="col-8 fw-normal">{t("orders.summary.discount")}</dt>
      <dd className="col-4 text-end mb-1" id="order-discount" translate="no">
        {formatPrice(-props.discount, lang)}
      </dd>
      <dt className="col-8">
        <LiveText
          text={t(props.period === "month" ? "orders.summary.totalMonth" : "orders.summary.totalYear")}
          values={[]}
        />
      </dt>
      <dd className="col-4 text-end fw-bold mb-0" id="order-total" translate="no">
        {formatPrice(props.total, lang)}
      </dd>
    </dl>
  );
}
