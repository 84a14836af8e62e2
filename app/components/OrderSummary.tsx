import { useTranslation } from "react-i18next";
import { formatPrice } from "~/lib/pricing";

export interface OrderSummaryData {
  period: "month" | "year";
  currency: "SEK" | "EUR";
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
        <dl className="row mb-0">
          <dt className="col-8 fw-normal">
            {t("orders.summary.package", { count: order.count, price: formatPrice(unit, priceLang) })}
          </dt>
          <dd className="col-4 text-end mb-1" id="order-package">
            {formatPrice(order.packagePrice, priceLang)}
          </dd>
          <dt className="col-8 fw-normal">{t("orders.summary.discount")}</dt>
          <dd className="col-4 text-end mb-1" id="order-discount">
            {formatPrice(-order.discount, priceLang)}
          </dd>
          <dt className="col-8">
            {t(order.period === "month" ? "orders.summary.totalMonth" : "orders.summary.totalYear")}
          </dt>
          <dd className="col-4 text-end fw-bold mb-0" id="order-total">
            {formatPrice(order.total, priceLang)}
          </dd>
        </dl>
      </div>
    </div>
  );
}
