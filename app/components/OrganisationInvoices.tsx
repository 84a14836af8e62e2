import { useTranslation } from "~/i18n/react";
import { formatDate } from "~/lib/domain/dates";
import { formatPrice } from "~/lib/domain/pricing";
import { useLang } from "~/lib/hooks/use-lang";
import { CardSection } from "./CardSection";

/** One row as the organisation page's loader gives it (listOrganisationBilling). */
export interface InvoiceRow {
  orderId: string;
  method: "card" | "invoice";
  invoiceNumber: string | null;
  state: "open" | "overdue" | "paid" | "void" | "lapsed";
  createdAt: number;
  dueAt: number | null;
  currency: "SEK" | "EUR";
  totalAmount: number;
  reverseCharge: boolean;
  itemCount: number;
  receipts: Array<{ number: number; paidAt: number; totalAmount: number }>;
}

const BADGE: Record<InvoiceRow["state"], string> = {
  open: "text-bg-info",
  overdue: "text-bg-danger",
  paid: "text-bg-success",
  void: "text-bg-secondary",
  lapsed: "text-bg-danger",
};

/**
 * The organisation's invoices and receipts (decision 027), for its admins: one card per
 * order (a list, not a table, so it stays inside a 390 px phone), with status, amount,
 * due date and links to the invoice and each receipt.
 */
export function OrganisationInvoices({ rows }: { rows: InvoiceRow[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <CardSection id="org-invoices" title={t("invoices.list.title")}>
      {rows.length === 0 ? (
        <p className="mb-0">{t("invoices.list.none")}</p>
      ) : (
        <ul className="list-group org-invoices">
          {rows.map((r) => {
            const money = formatPrice(r.totalAmount / 100, r.currency === "SEK" ? "sv" : "en");
            return (
              <li key={r.orderId} className="list-group-item org-invoice" data-order={r.orderId}>
                <div className="d-flex flex-wrap justify-content-between gap-2">
                  <strong className="text-break">
                    {r.method === "invoice" && r.invoiceNumber
                      ? t("invoices.list.invoice", { number: r.invoiceNumber })
                      : t("invoices.list.card")}
                  </strong>
                  <span className={`badge align-self-start ${BADGE[r.state]}`}>{t(`invoices.state.${r.state}`)}</span>
                </div>
                <p className="mb-1 small">
                  {t("invoices.list.summary", {
                    count: r.itemCount,
                    amount: money,
                    date: formatDate(r.createdAt, lang),
                  })}
                  {r.reverseCharge ? ` · ${t("invoices.reverseCharge")}` : null}
                </p>
                {r.method === "invoice" && r.dueAt != null ? (
                  <p className="mb-1 small">{t("invoices.list.due", { date: formatDate(r.dueAt, lang) })}</p>
                ) : null}
                <div className="d-flex flex-wrap gap-2">
                  {r.method === "invoice" ? (
                    <a
                      href={`/order/${r.orderId}/invoice`}
                      className="btn btn-sm btn-outline-primary"
                      aria-label={t("invoices.list.openInvoiceLabel", { number: r.invoiceNumber ?? "" })}
                    >
                      {t("invoices.list.openInvoice")}
                    </a>
                  ) : null}
                  {r.receipts.map((rc) => (
                    <a
                      key={rc.number}
                      href={`/order/${r.orderId}/receipt?number=${rc.number}`}
                      className="btn btn-sm btn-outline-secondary"
                    >
                      {t("invoices.list.receipt", { number: rc.number })}
                    </a>
                  ))}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </CardSection>
  );
}
