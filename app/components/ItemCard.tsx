import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import type { Lang } from "~/i18n/config";
import { formatDate } from "~/lib/dates";
import { formatFee, type Currency } from "~/lib/fee";

/** A paid item's subscription (orders): renews at paidUntil, or ends at endsAt once cancelled. */
export interface ItemSubscriptionData {
  orderId: string;
  renewing: boolean;
  paidUntil: number | null;
  endsAt: number | null;
}

export interface ItemCardData {
  id: string;
  name: string;
  findFee: number;
  currency: Currency;
  prodType: string;
  contactInfo: string;
  paid: boolean;
  subscription?: ItemSubscriptionData | null;
}

/**
 * One dashboard card: the QR code of {origin}/product/{id} (an SVG drawn by qrcode.react
 * on the server, see routes/product-qr.ts) and the item's facts.
 */
export function ItemCard({ item, origin, lang }: { item: ItemCardData; origin: string; lang: Lang }) {
  const { t } = useTranslation();
  const sub = item.subscription;
  const url = `${origin}/product/${item.id}`;
  return (
    <article className="card h-100 item-card" aria-labelledby={`item-${item.id}-name`}>
      <div className="card-body d-flex gap-3">
        <img
          src={`/product/${item.id}/qr.svg`}
          width={128}
          height={128}
          loading="lazy"
          decoding="async"
          alt={t("items.dashboard.qrLabel", { url })}
          className="item-qr flex-shrink-0"
          data-url={url}
        />
        <div className="min-w-0">
          <h2 id={`item-${item.id}-name`} className="h5 card-title text-break">
            {item.name}
          </h2>
          <p className="mb-1">
            <span className={`badge ${item.paid ? "text-bg-success" : "text-bg-warning"}`}>
              {t(item.paid ? "items.dashboard.status.active" : "items.dashboard.status.notActivated")}
            </span>
            {sub?.renewing && sub.paidUntil ? (
              <span className="ms-2 item-renewal">
                {t("orders.status.renews", { date: formatDate(sub.paidUntil, lang) })}
              </span>
            ) : null}
            {sub && !sub.renewing && (sub.endsAt ?? sub.paidUntil) ? (
              <span className="ms-2 item-renewal">
                {t("orders.status.endsAt", { date: formatDate((sub.endsAt ?? sub.paidUntil)!, lang) })}
              </span>
            ) : null}
          </p>
          <dl className="item-facts mb-2">
            <dt>{t("items.dashboard.type")}</dt>
            <dd>{t(`items.types.${item.prodType}`, { defaultValue: item.prodType })}</dd>
            <dt>{t("items.fee")}</dt>
            <dd>{formatFee(item.findFee, item.currency)}</dd>
            <dt>{t("items.dashboard.contactInfo")}</dt>
            <dd className="contact-info text-break">{item.contactInfo}</dd>
          </dl>
          <div className="d-flex gap-2">
            <Link
              to={`/product/${item.id}`}
              className="btn btn-sm btn-outline-primary"
              aria-label={t("items.dashboard.viewLabel", { name: item.name })}
            >
              {t("items.dashboard.view")}
            </Link>
            <Link
              to={`/product/edit/${item.id}`}
              className="btn btn-sm btn-outline-secondary"
              aria-label={t("items.dashboard.editLabel", { name: item.name })}
            >
              {t("items.dashboard.edit")}
            </Link>
            {sub?.renewing ? (
              <Form method="post" className="d-inline">
                <input type="hidden" name="intent" value="cancelRenewal" />
                <input type="hidden" name="orderId" value={sub.orderId} />
                <button
                  type="submit"
                  className="btn btn-sm btn-outline-danger"
                  aria-label={t("orders.status.cancelLabel", { name: item.name })}
                >
                  {t("orders.status.cancel")}
                </button>
              </Form>
            ) : null}
          </div>
        </div>
      </div>
    </article>
  );
}
