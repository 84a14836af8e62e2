import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n/react";
import type { Currency } from "~/lib/domain/currency";
import { formatDate, formatDateTime } from "~/lib/domain/dates";
import { formatFee } from "~/lib/domain/fee";
import { prepaidOfferHref } from "~/lib/domain/prepaid";
import { renewHref } from "~/lib/domain/one-time-payment";
import { useLang } from "~/lib/hooks/use-lang";

/** What the owner's view of an item shows to manage it (ItemManageView of the items service). */
export interface ItemManageData {
  id: string;
  name: string;
  /** The printed, typeable sticker code (K7M-29Q-XHR). */
  code: string;
  prodType: string;
  findFee: number;
  currency: Currency;
  paid: boolean;
  lost: boolean;
  contactVisibility: "public" | "private";
  manage: {
    contactInfo: string;
    approxValue: number | null;
    active: boolean;
    subscription: {
      orderId: string;
      renewing: boolean;
      paidUntil: number | null;
      endsAt: number | null;
      paymentFailed: boolean;
      /** A year paid at once (decision 056). */
      paidOnce?: boolean;
    } | null;
    /** Prepaid with its sticker (decision 036): active until then. */
    prepaidUntil: number | null;
    /** The prepaid period's last 30 days: a subscription is offered. */
    prepaidOffer: boolean;
    organisationId: string | null;
    assignee: string | null;
    lastScannedAt: number | null;
  };
}

/**
 * The owner's view of an item is the one place to manage it (decision 032): every
 * field, the sticker code and subscription, and the actions the dashboard card no longer
 * carries (edit, replace the sticker, switch it off, cancel renewal, delete).
 * Plain forms and links: it works before (and without) the page's script.
 */
export function ItemManage({ item }: { item: ItemManageData }) {
  const { t } = useTranslation();
  const lang = useLang();
  const m = item.manage;
  const sub = m.subscription;
  return (
    <section className="card mb-4 item-manage" aria-labelledby="manage-title">
      <div className="card-body">
        <h2 id="manage-title" className="h4">
          {t("items.manage.title")}
        </h2>
        <p className="text-body-secondary small">{t("items.manage.lead")}</p>
        <p className="mb-2">
          <span className={`badge ${item.paid ? "text-bg-success" : "text-bg-warning"}`}>
            {t(item.paid ? "items.manage.active" : "items.manage.notActivated")}
          </span>
          {m.active ? null : <span className="badge text-bg-secondary ms-2">{t("items.manage.switchedOff")}</span>}
          {item.lost ? <span className="badge text-bg-danger ms-2">{t("items.manage.lost")}</span> : null}
        </p>
        {sub?.paymentFailed ? (
          <p className="fw-semibold text-danger-emphasis item-payment-failed">{t("items.manage.paymentFailed")}</p>
        ) : null}
        <dl className="item-facts row mb-3">
          <dt className="col-sm-4">{t("items.manage.code")}</dt>
          <dd className="col-sm-8 sticker-code">{item.code}</dd>
          {sub && (sub.renewing ? sub.paidUntil : (sub.endsAt ?? sub.paidUntil)) ? (
            <>
              <dt className="col-sm-4">{t("items.manage.status")}</dt>
              <dd className="col-sm-8 item-renewal">
                {sub.paidOnce ? (
                  <>
                    {t("swish.card.paidUntil", { date: formatDate(sub.paidUntil!, lang) })}{" "}
                    <Link to={renewHref(sub.orderId)} className="item-renew">
                      {t("swish.card.renew")}
                    </Link>
                  </>
                ) : sub.renewing ? (
                  t("items.manage.renews", { date: formatDate(sub.paidUntil!, lang) })
                ) : (
                  t("items.manage.ends", { date: formatDate((sub.endsAt ?? sub.paidUntil)!, lang) })
                )}
              </dd>
            </>
          ) : null}
          {!sub && m.prepaidUntil ? (
            <>
              <dt className="col-sm-4">{t("items.manage.status")}</dt>
              <dd className="col-sm-8 item-prepaid">
                {t("items.manage.prepaid", { date: formatDate(m.prepaidUntil, lang) })}
                {m.prepaidOffer ? (
                  <>
                    {" "}
                    <Link to={prepaidOfferHref()} className="item-prepaid-offer">
                      {t("items.manage.subscribe")}
                    </Link>
                  </>
                ) : null}
              </dd>
            </>
          ) : null}
          <dt className="col-sm-4">{t("items.manage.type")}</dt>
          <dd className="col-sm-8">{t(`itemTypes.${item.prodType}`, { defaultValue: item.prodType })}</dd>
          <dt className="col-sm-4">{t("items.manage.fee")}</dt>
          <dd className="col-sm-8">{formatFee(item.findFee, item.currency)}</dd>
          {m.approxValue !== null ? (
            <>
              <dt className="col-sm-4">{t("items.manage.value")}</dt>
              <dd className="col-sm-8">{formatFee(m.approxValue, item.currency)}</dd>
            </>
          ) : null}
          {m.organisationId ? (
            // A personal item's text is on the finder's page below; an organisation item's
            // finder sees the desk there, so the item's own text is shown here.
            <>
              <dt className="col-sm-4">{t("items.manage.contactInfo")}</dt>
              <dd className="col-sm-8 text-break manage-contact">{m.contactInfo}</dd>
            </>
          ) : null}
          <dt className="col-sm-4">{t("items.manage.visibility")}</dt>
          <dd className="col-sm-8">
            {t(
              item.contactVisibility === "private" ? "items.manage.visibilityPrivate" : "items.manage.visibilityPublic",
            )}
          </dd>
          {m.organisationId ? (
            <>
              <dt className="col-sm-4">{t("items.manage.assignedTo")}</dt>
              <dd className="col-sm-8 text-break item-assignee">{m.assignee ?? t("items.manage.assignedToNobody")}</dd>
            </>
          ) : null}
          <dt className="col-sm-4">{t("items.manage.lastScan")}</dt>
          <dd className="col-sm-8 item-last-scan">
            {m.lastScannedAt ? formatDateTime(m.lastScannedAt, lang) : t("items.manage.neverScanned")}
          </dd>
        </dl>
        <div className="d-flex flex-wrap gap-2" role="group" aria-label={t("items.manage.actions")}>
          <Link to={`/product/edit/${item.id}`} className="btn btn-primary">
            {t("items.manage.edit")}
          </Link>
          {item.paid ? (
            <Link to={`/product/${item.id}/replacement`} className="btn btn-outline-secondary">
              {t("items.manage.replace")}
            </Link>
          ) : null}
          {/* Posted to the dashboard's action, which sends the owner back here (back=item). */}
          <Form method="post" action="/dashboard" className="d-inline">
            <input type="hidden" name="intent" value={m.active ? "deactivate" : "reactivate"} />
            <input type="hidden" name="itemId" value={item.id} />
            <input type="hidden" name="back" value="item" />
            <button
              type="submit"
              className="btn btn-outline-secondary"
              aria-label={t(m.active ? "items.manage.switchOffLabel" : "items.manage.switchOnLabel", {
                name: item.name,
              })}
            >
              {t(m.active ? "items.manage.switchOff" : "items.manage.switchOn")}
            </button>
          </Form>
          {sub?.renewing ? (
            // Asks first, naming every item the one subscription covers (decision 016).
            <Link to={`/order/${sub.orderId}/cancel`} className="btn btn-outline-danger">
              {t("items.manage.cancelRenewal")}
            </Link>
          ) : null}
          <Link to={`/product/${item.id}/delete`} className="btn btn-outline-danger">
            {t("items.delete.link")}
          </Link>
        </div>
      </div>
    </section>
  );
}
