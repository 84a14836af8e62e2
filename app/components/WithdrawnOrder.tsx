import { Link } from "react-router";
import { useTranslation } from "~/i18n/react";
import { formatDate } from "~/lib/domain/dates";
import { formatPrice } from "~/lib/domain/pricing";
import { useLang } from "~/lib/hooks/use-lang";

export interface WithdrawnOrderView {
  orderId: string;
  withdrawnAt: number;
  refundedAt: number | null;
  refund: number;
  paid: number;
  currency: "SEK" | "EUR";
  receiptNumber: number | null;
  creditNoteNumber: number | null;
  items: Array<{ id: string; name: string }>;
}

/**
 * /order/{id}/withdraw on a later visit (decision 051): the withdrawal as it happened, the
 * refund, the credit note and the receipt to download; nothing left to confirm or keep.
 */
export function WithdrawnOrder({ withdrawn: w }: { withdrawn: WithdrawnOrderView }) {
  const { t } = useTranslation();
  const lang = useLang();
  const money = (minor: number) => formatPrice(minor / 100, w.currency === "SEK" ? "sv" : "en");
  const date = formatDate(w.withdrawnAt, lang);
  return (
    <section className="py-4 col-lg-8" aria-labelledby="withdraw-title">
      <h1 id="withdraw-title">{t("orders.withdrawal.page.withdrawnTitle")}</h1>
      <p className="lead" role="status">
        {w.receiptNumber != null
          ? t("orders.withdrawal.page.withdrawnReceipt", { number: w.receiptNumber, date })
          : t("orders.withdrawal.page.withdrawn", { date })}
      </p>
      <p className="fw-semibold withdraw-refund" data-refund={w.refund}>
        {w.paid === 0
          ? t("orders.withdrawal.page.nothingRefunded")
          : w.refundedAt == null
            ? t("orders.withdrawal.page.refundPending")
            : w.refund === w.paid
              ? t("orders.withdrawal.page.refundedAll", { refund: money(w.refund) })
              : t("orders.withdrawal.page.refunded", { refund: money(w.refund), total: money(w.paid) })}
      </p>
      <p>{t("orders.withdrawal.page.ended", { count: w.items.length })}</p>
      <ul className="text-break withdraw-items">
        {w.items.map((i) => (
          <li key={i.id}>{i.name}</li>
        ))}
      </ul>
      <ul className="list-unstyled withdraw-documents">
        {w.creditNoteNumber != null ? (
          <li className="mb-2">
            <a href={`/order/${w.orderId}/credit-note.pdf`} download>
              {t("orders.withdrawal.page.creditNote", { number: w.creditNoteNumber })}
            </a>
          </li>
        ) : null}
        {w.receiptNumber != null ? (
          <li className="mb-2">
            <Link to={`/order/${w.orderId}/receipt?number=${w.receiptNumber}`}>
              {t("orders.withdrawal.page.receipt", { number: w.receiptNumber })}
            </Link>
          </li>
        ) : null}
      </ul>
      <Link to="/dashboard" className="btn btn-primary">
        {t("orders.withdrawal.page.dashboard")}
      </Link>
    </section>
  );
}
