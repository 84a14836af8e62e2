import { useTranslation } from "~/i18n/react";
import { Link } from "react-router";
import type { Lang } from "~/i18n/config";
import { formatDate, formatDateTime } from "~/lib/domain/dates";
import type { Currency } from "~/lib/domain/currency";
import { formatFee } from "~/lib/domain/fee";
import { prepaidOfferHref } from "~/lib/domain/prepaid";
import { renewHref } from "~/lib/domain/one-time-payment";
import type { PhotoVariantView } from "~/lib/domain/photos";

/** A paid item's subscription (orders): renews at paidUntil, or ends at endsAt once cancelled. */
export interface ItemSubscriptionData {
  orderId: string;
  renewing: boolean;
  paidUntil: number | null;
  endsAt: number | null;
  paymentFailed?: boolean;
  /** A year paid at once (decision 056): "Paid until" and "Renew". */
  paidOnce?: boolean;
}

export interface ItemCardData {
  id: string;
  name: string;
  findFee: number;
  currency: Currency;
  prodType: string;
  contactInfo: string;
  contactVisibility?: "public" | "private";
  paid: boolean;
  /** The typeable sticker code (dashboard only). */
  code?: string;
  /** False once the owner switched the sticker off (decision 017). */
  active?: boolean;
  subscription?: ItemSubscriptionData | null;
  /** Lost mode (decision 014). */
  lost?: boolean;
  /** The latest scan by anyone but the owner (decision 014). */
  lastScannedAt?: number | null;
  /** An organisation item: whom it is assigned to, by name; null = nobody (decision 026). */
  organisationId?: string | null;
  assignee?: string | null;
  /** Paid without an order, by a prepaid sticker (decision 036): active until then. */
  prepaidUntil?: number | null;
  /** The prepaid period's last 30 days: the card offers a subscription. */
  prepaidOffer?: boolean;
  /** The first photo's 160 px variant (decision 035), loaded lazily; null: no photo. */
  thumb?: PhotoVariantView | null;
}

/**
 * One dashboard card: the QR code of the short {origin}/{id} printed on the stickers (the
 * screen PNG, one pixel per module scaled up by the page: decisions 052 and 045) and the
 * item's facts.
 */
export function ItemCard({
  item,
  origin,
  lang,
  first = false,
}: {
  item: ItemCardData;
  origin: string;
  lang: Lang;
  /** The first card's QR is the page's largest image above the fold: fetched at once (decision 045). */
  first?: boolean;
}) {
  const { t } = useTranslation();
  const sub = item.subscription;
  const url = `${origin}/${item.id}`;
  return (
    <article className="card h-100 item-card" aria-labelledby={`item-${item.id}-name`}>
      <div className="card-body d-flex gap-3">
        <img
          src={`/product/${item.id}/qr.png?screen`}
          width={128}
          height={128}
          loading={first ? "eager" : "lazy"}
          fetchPriority={first ? "high" : "auto"}
          decoding="async"
          alt={t("dashboard.page.qrLabel", { url })}
          className="item-qr flex-shrink-0"
          data-url={url}
        />
        <div className="min-w-0 flex-grow-1">
          {item.thumb ? (
            <img
              src={item.thumb.url}
              width={item.thumb.width}
              height={item.thumb.height}
              loading="lazy"
              decoding="async"
              alt={t("dashboard.thumbAlt", { name: item.name })}
              className="item-thumb float-end ms-2 mb-1 rounded border"
            />
          ) : null}
          <h2 id={`item-${item.id}-name`} className="h5 card-title text-break">
            {item.name}
          </h2>
          {/* The item's states as a wrapping row (decision 057): flex gaps rather than a
              margin on each badge, so a badge that wraps starts at the card's edge, and a
              space between them, so read as text they are words, not "AktivKontakt…". */}
          <p className="mb-1 d-flex flex-wrap align-items-center item-states">
            <span className={`badge ${item.paid ? "text-bg-success" : "text-bg-warning"}`}>
              {t(item.paid ? "dashboard.page.status.active" : "dashboard.page.status.notActivated")}
            </span>{" "}
            {item.active === false ? (
              <>
                <span className="badge text-bg-secondary">{t("dashboard.items.inactive")}</span>{" "}
              </>
            ) : null}
            {item.lost ? (
              <>
                <span className="badge text-bg-danger">{t("dashboard.scans.lostBadge")}</span>{" "}
              </>
            ) : null}
            {item.contactVisibility ? (
              <>
                <span
                  className={`badge ${item.contactVisibility === "private" ? "text-bg-secondary" : "text-bg-light border"}`}
                >
                  {t(
                    item.contactVisibility === "private"
                      ? "dashboard.relay.badgePrivate"
                      : "dashboard.relay.badgePublic",
                  )}
                </span>{" "}
              </>
            ) : null}
            {sub?.renewing && sub.paidUntil ? (
              <span className="item-renewal">
                {t("dashboard.orderStatus.renews", { date: formatDate(sub.paidUntil, lang) })}
              </span>
            ) : null}
            {sub?.paidOnce && sub.paidUntil ? (
              <span className="item-paid-once">
                {t("swish.card.paidUntil", { date: formatDate(sub.paidUntil, lang) })}
              </span>
            ) : null}
            {sub && !sub.paidOnce && !sub.renewing && (sub.endsAt ?? sub.paidUntil) ? (
              // Said once: the badge already says "Active" (decision 016).
              <span className="item-renewal">
                {t("dashboard.card.ends", { date: formatDate((sub.endsAt ?? sub.paidUntil)!, lang) })}
              </span>
            ) : null}
            {!sub && item.prepaidUntil ? (
              <span className="item-prepaid">
                {t("dashboard.card.prepaid", { date: formatDate(item.prepaidUntil, lang) })}
              </span>
            ) : null}
          </p>
          {!sub && item.prepaidUntil && item.prepaidOffer ? (
            <p className="mb-1 small item-prepaid-offer">
              <Link to={prepaidOfferHref()}>{t("dashboard.card.subscribe")}</Link>
            </p>
          ) : null}
          {sub?.paidOnce ? (
            <p className="mb-1 small item-renew">
              <Link to={renewHref(sub.orderId)} aria-label={t("swish.card.renewLabel", { name: item.name })}>
                {t("swish.card.renew")}
              </Link>
            </p>
          ) : null}
          {sub?.paymentFailed ? (
            <p className="mb-1 small fw-semibold text-danger-emphasis item-payment-failed">
              {t("dashboard.card.paymentFailed")}
            </p>
          ) : null}
          {/* The spec's type, fee and contact info, one line each at most (decision 032):
              every field in full, the sticker code and the rarer actions are on the owner's
              view of the item, the one place to manage it. */}
          <p className="small mb-1 item-summary">
            {t(`itemTypes.${item.prodType}`, { defaultValue: item.prodType })} ·{" "}
            {formatFee(item.findFee, item.currency)}
            {item.organisationId ? (
              <>
                {" · "}
                {t("dashboard.page.assignedTo")}{" "}
                <span className="item-assignee">{item.assignee ?? t("dashboard.page.assignedToNobody")}</span>
              </>
            ) : null}
          </p>
          <p className="small mb-1 text-truncate contact-info" title={item.contactInfo}>
            {item.contactInfo}
          </p>
          {/* A status too: whether someone scanned the sticker lately. */}
          <p className="small text-body-secondary mb-2 item-last-scan">
            {item.lastScannedAt
              ? t("dashboard.scans.lastScanned", { time: formatDateTime(item.lastScannedAt, lang) })
              : t("dashboard.scans.neverScanned")}
          </p>
          <div className="d-flex flex-wrap gap-2">
            <Link
              to={`/product/${item.id}`}
              className="btn btn-sm btn-outline-primary"
              aria-label={t("dashboard.page.viewLabel", { name: item.name })}
            >
              {t("dashboard.page.view")}
            </Link>
            <Link
              to={`/product/edit/${item.id}`}
              className="btn btn-sm btn-outline-secondary"
              aria-label={t("dashboard.page.editLabel", { name: item.name })}
            >
              {t("dashboard.page.edit")}
            </Link>
            {item.paid || item.lost ? (
              // A plain POST form (no JavaScript needed); the action redirects back here.
              <form method="post" action={`/product/${item.id}/lost`} className="d-inline">
                <input type="hidden" name="lost" value={item.lost ? "0" : "1"} />
                <input type="hidden" name="back" value="dashboard" />
                <button
                  type="submit"
                  className={`btn btn-sm ${item.lost ? "btn-success" : "btn-outline-danger"}`}
                  aria-label={t(item.lost ? "dashboard.scans.foundLabel" : "dashboard.scans.markLostLabel", {
                    name: item.name,
                  })}
                >
                  {t(item.lost ? "dashboard.scans.found" : "dashboard.scans.markLost")}
                </button>
              </form>
            ) : null}
          </div>
        </div>
      </div>
    </article>
  );
}
