/**
 * A credit note (kreditfaktura, decision 051) as a one-page PDF, beside the receipt it
 * corrects and written the same way (receipt-pdf.server.ts: placed text, escaped, no
 * dependency). Amounts are shown as credited: negative, VAT included and apart.
 */
import type { Currency } from "~/lib/domain/currency";
import type { SellerView } from "~/lib/domain/seller";
import { partiesBlock, renderPdf, type PdfLine } from "./receipt-pdf.server";

export interface CreditNoteView {
  orderId: string;
  number: number;
  receiptNumber: number | null;
  createdAt: number;
  currency: Currency;
  /** Minor units, positive: what went back. */
  totalAmount: number;
  vatAmount: number;
  reverseCharge: boolean;
  items: string[];
  seller: SellerView;
  buyer: { name: string; lines: string[] };
}

export function creditNotePdf(
  view: CreditNoteView,
  t: (key: string, params?: Record<string, unknown>) => string,
  format: { money(minor: number): string; date(ms: number): string },
): Buffer {
  const lines: PdfLine[] = [];
  let y = 60;
  const title = t("orders.withdrawal.creditNote.title", { number: view.number });
  lines.push({ text: title, x: 56, y, size: 18, bold: true });
  y += 34;
  y = partiesBlock(lines, view, t, y);
  const row = (label: string, value: string, bold = false) => {
    lines.push({ text: label, x: 56, y, bold });
    lines.push({ text: value, x: 320, y, bold });
    y += 16;
  };
  row(t("orders.withdrawal.creditNote.number"), String(view.number));
  row(t("orders.withdrawal.creditNote.date"), format.date(view.createdAt));
  if (view.receiptNumber != null) row(t("orders.withdrawal.creditNote.corrects"), String(view.receiptNumber));
  y += 12;
  row(t("orders.withdrawal.creditNote.reason"), "", true);
  for (const name of view.items) {
    lines.push({ text: `• ${name.slice(0, 80)}`, x: 68, y });
    y += 14;
  }
  y += 6;
  // As on the receipt: VAT only from a seller with a VAT number (decision 057).
  const vat = view.seller.vatOnReceipts;
  if (vat) row(t("orders.withdrawal.creditNote.net"), format.money(-(view.totalAmount - view.vatAmount)));
  if (vat)
    row(
      t(view.reverseCharge ? "invoices.vatNone" : "orders.withdrawal.creditNote.vat"),
      format.money(view.vatAmount === 0 ? 0 : -view.vatAmount),
    );
  row(t("orders.withdrawal.creditNote.total"), format.money(-view.totalAmount), true);
  if (vat && view.reverseCharge) row(t("invoices.reverseCharge"), "", true);
  if (!vat) row(t("billing.receipt.noVat"), "");
  return renderPdf(lines, { title });
}
