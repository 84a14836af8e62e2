import { Link } from "react-router";
import { useTranslation } from "~/i18n/react";
import { formatDate } from "~/lib/domain/dates";
import { formatPrice } from "~/lib/domain/pricing";
import { useLang } from "~/lib/hooks/use-lang";

/** A purchase still inside its 14 days, as the delete page shows it (decision 051). */
export interface OpenWithdrawalView {
  orderId: string;
  receiptNumber: number | null;
  paidAt: number;
  deadline: number;
  currency: "SEK" | "EUR";
  paid: number;
  refund: number;
  paidUntil: number | null;
  count: number;
}

export interface OrganisationOnDeletionView {
  id: string;
  name: string;
  fate: "handOver" | "deleted";
  items: Array<{ id: string; name: string; code: string; active: boolean }>;
  itemCount: number;
}

const money = (minor: number, currency: "SEK" | "EUR") => formatPrice(minor / 100, currency === "SEK" ? "sv" : "en");

/**
 * Before the account goes (decision 051): the withdrawal each purchase still allows, with
 * its refund, and what deleting without it loses; then each organisation the person alone
 * administers and what becomes of it (handed over first, or deleted with its stickers).
 */
export function DeletionPreview({
  withdrawals,
  organisations,
}: {
  withdrawals: OpenWithdrawalView[];
  organisations: OrganisationOnDeletionView[];
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const refunds = withdrawals.filter((w) => w.refund > 0);
  return (
    <>
      {refunds.length > 0 ? (
        <section className="alert alert-warning delete-withdraw" aria-labelledby="delete-withdraw-title">
          <h2 id="delete-withdraw-title" className="h5">
            {t("account.delete.withdraw.title")}
          </h2>
          <p>{t("account.delete.withdraw.intro")}</p>
          <ul className="list-unstyled mb-0">
            {refunds.map((w) => (
              <li key={w.orderId} className="mb-3">
                <p className="mb-1">
                  {t(
                    w.receiptNumber != null
                      ? "account.delete.withdraw.order"
                      : "account.delete.withdraw.orderNoReceipt",
                    {
                      number: w.receiptNumber,
                      date: formatDate(w.paidAt, lang),
                      deadline: formatDate(w.deadline, lang),
                      refund: money(w.refund, w.currency),
                      count: w.count,
                    },
                  )}
                </p>
                <p className="mb-2 delete-withdraw-lost">
                  {w.paidUntil != null
                    ? t("account.delete.withdraw.lost", {
                        paid: money(w.paid, w.currency),
                        date: formatDate(w.paidUntil, lang),
                      })
                    : t("account.delete.withdraw.lostNoEnd", { paid: money(w.paid, w.currency) })}
                </p>
                <Link to={`/order/${w.orderId}/withdraw`} className="btn btn-primary">
                  {t("account.delete.withdraw.link", { refund: money(w.refund, w.currency) })}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {organisations.length > 0 ? (
        <section className="mb-3 delete-organisations" aria-labelledby="delete-organisations-title">
          <h2 id="delete-organisations-title" className="h5 mt-4">
            {t("account.delete.organisations.title")}
          </h2>
          {organisations.map((o) =>
            o.fate === "handOver" ? (
              <div key={o.id} className="alert alert-danger" data-organisation={o.id}>
                <p className="mb-2 text-break">{t("account.delete.organisations.handOver", { name: o.name })}</p>
                <Link to={`/organisations/${o.id}`}>{t("account.delete.organisations.members", { name: o.name })}</Link>
              </div>
            ) : (
              <div key={o.id} className="card card-body mb-3" data-organisation={o.id}>
                <p className="text-break">
                  {o.itemCount === 0
                    ? t("account.delete.organisations.deletedEmpty", { name: o.name })
                    : t("account.delete.organisations.deleted", { name: o.name, count: o.itemCount })}
                </p>
                {o.items.length > 0 ? (
                  <ul className="text-break mb-2">
                    {o.items.map((i) => (
                      <li key={i.id}>
                        {t(i.active ? "account.delete.organisations.itemActive" : "account.delete.organisations.item", {
                          name: i.name,
                          code: i.code,
                        })}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {o.itemCount > o.items.length ? (
                  <p className="mb-2">
                    {t("account.delete.organisations.more", { count: o.itemCount - o.items.length })}
                  </p>
                ) : null}
                <Link to={`/organisations/${o.id}`}>{t("account.delete.organisations.invite", { name: o.name })}</Link>
              </div>
            ),
          )}
        </section>
      ) : null}
    </>
  );
}
