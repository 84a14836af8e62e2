import { useTranslation } from "~/i18n/react";
import { Form, Link } from "react-router";
import type { Lang } from "~/i18n/config";
import type { BillingOverview } from "~/lib/domain/billing-overview";
import { formatDate } from "~/lib/domain/dates";
import { formatPrice } from "~/lib/domain/pricing";
import { renewHref } from "~/lib/domain/one-time-payment";

/** What the dashboard's "Orders and receipts" shows: the billing service's overview. */
export type BillingSectionData = BillingOverview;

/**
 * "Orders and receipts" on the dashboard (decision 016): per subscription its state, "Manage
 * payment" (Stripe), "Cancel renewal" (asks first) or "Resume renewal", and a receipt
 * (page and PDF) for every payment. Plain links and a plain form: no JavaScript needed.
 */
export function BillingSection({ billing, lang }: { billing: BillingSectionData; lang: Lang }) {
  const { t } = useTranslation();
  if (billing.orders.length === 0) return null;
  return (
    <section className="mt-4" aria-labelledby="billing-title" id="billing">
      <h2 id="billing-title" className="h4">
        {t("dashboard.billing.title")}
      </h2>
      <p>{t("dashboard.billing.intro")}</p>
      <ul className="list-unstyled d-grid gap-3">
        {billing.orders.map((o) => {
          const money = (minor: number) => formatPrice(minor / 100, o.currency === "SEK" ? "sv" : "en");
          return (
            <li key={o.id} className="card billing-order">
              <div className="card-body">
                <h3 className="h6 card-title text-break">
                  {t(o.paidOnce ? "dashboard.billing.year" : "dashboard.billing.subscription", {
                    items:
                      o.itemCount > o.items.length
                        ? t("dashboard.billing.andMore", {
                            items: o.items.join(", "),
                            count: o.itemCount - o.items.length,
                          })
                        : o.items.join(", "),
                  })}
                </h3>
                {o.withdrawn ? (
                  <p className="mb-2 billing-withdrawn">
                    {t("dashboard.billing.withdrawn", {
                      date: formatDate(o.withdrawn.at, lang),
                      refund: money(o.withdrawn.refund),
                    })}
                  </p>
                ) : o.lapsed ? (
                  <p className="mb-2">
                    {t("dashboard.billing.lapsed")} <Link to="/order">{t("dashboard.billing.reactivate")}</Link>
                  </p>
                ) : o.paidOnce && o.paidUntil ? (
                  <p className="mb-2 billing-paid-once">
                    {t("swish.billing.paidUntil", { date: formatDate(o.paidUntil, lang) })}
                    {o.renewable ? (
                      <>
                        {" "}
                        <Link to={renewHref(o.id)}>{t("swish.card.renew")}</Link>
                      </>
                    ) : null}
                  </p>
                ) : o.renewing && o.paidUntil ? (
                  <p className="mb-2">
                    {t("dashboard.billing.renews", {
                      date: formatDate(o.paidUntil, lang),
                      amount: money(o.totalAmount),
                    })}
                  </p>
                ) : (o.endsAt ?? o.paidUntil) ? (
                  <p className="mb-2">
                    {t("dashboard.billing.ends", { date: formatDate((o.endsAt ?? o.paidUntil)!, lang) })}
                  </p>
                ) : null}
                {o.paymentFailed ? (
                  <div className="alert alert-danger py-2 billing-failed" role="alert">
                    {t(billing.portal ? "dashboard.billing.failed" : "dashboard.billing.failedTest")}
                  </div>
                ) : null}
                <div className="d-flex flex-wrap gap-2 mb-2">
                  {billing.portal && !o.lapsed ? (
                    <a href={`/order/${o.id}/payment`} className="btn btn-sm btn-primary">
                      {t("dashboard.billing.manage")}
                    </a>
                  ) : null}
                  {o.renewing ? (
                    <Link to={`/order/${o.id}/cancel`} className="btn btn-sm btn-outline-danger">
                      {t("dashboard.billing.cancel")}
                    </Link>
                  ) : null}
                  {o.withdrawUntil ? (
                    <Link to={`/order/${o.id}/withdraw`} className="btn btn-sm btn-outline-secondary billing-withdraw">
                      {t("dashboard.billing.withdraw", { date: formatDate(o.withdrawUntil, lang) })}
                    </Link>
                  ) : null}
                  {o.resumable ? (
                    <Form method="post" className="d-inline">
                      <input type="hidden" name="intent" value="resumeRenewal" />
                      <input type="hidden" name="orderId" value={o.id} />
                      <button type="submit" className="btn btn-sm btn-success">
                        {t("dashboard.billing.resume")}
                      </button>
                    </Form>
                  ) : null}
                </div>
                <h4 className="h6 mb-1">{t("dashboard.billing.receipts")}</h4>
                <ul className="list-unstyled mb-0 small">
                  {o.receipts.map((r) => (
                    <li key={r.number} className="d-flex flex-wrap gap-2">
                      <Link to={`/order/${o.id}/receipt?number=${r.number}`}>
                        {t("dashboard.billing.receipt", {
                          number: r.number,
                          date: formatDate(r.paidAt, lang),
                          amount: money(r.totalAmount),
                        })}
                      </Link>
                      <a
                        href={`/order/${o.id}/receipt.pdf?number=${r.number}`}
                        aria-label={`${t("dashboard.billing.pdf")} ${t("dashboard.billing.receiptTitle", { number: r.number })}`}
                      >
                        {t("dashboard.billing.pdf")}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
