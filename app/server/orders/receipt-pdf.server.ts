/**
 * The receipt as a PDF (decision 016): one A4 page written directly (no dependency): the
 * standard Helvetica fonts in WinAnsiEncoding, which has every letter Swedish and English
 * receipts use (å ä ö é €). Text is placed, never interpreted: the owner's item names and
 * address go through `pdfString`, which escapes PDF's string syntax, so typed text cannot
 * become PDF operators.
 */
import type { SellerView } from "~/lib/domain/seller";
import type { Currency } from "~/lib/domain/currency";
import type { Period } from "~/lib/domain/pricing";

/** A receipt as the owner sees it (page, PDF, dashboard list). */
export interface ReceiptView {
  orderId: string;
  number: number;
  paidAt: number;
  period: Period;
  currency: Currency;
  count: number;
  items: string[];
  periodStart: number;
  periodEnd: number;
  /** Minor units. */
  packageAmount: number;
  discountAmount: number;
  totalAmount: number;
  vatAmount: number;
  netAmount: number;
  /** No VAT: "Reverse charge" on the receipt (decision 027). */
  reverseCharge: boolean;
  seller: SellerView;
  buyer: { name: string; lines: string[] };
}

/** Unicode → WinAnsi (cp1252) for the characters outside Latin-1 that receipts use. */
const CP1252: Record<string, number> = {
  "€": 0x80,
  "‚": 0x82,
  "„": 0x84,
  "…": 0x85,
  "‘": 0x91,
  "’": 0x92,
  "“": 0x93,
  "”": 0x94,
  "•": 0x95,
  "–": 0x96,
  "—": 0x97,
  "−": 0x2d,
  "\u2009": 0x20,
  "\u202f": 0x20,
  "\u00a0": 0x20,
};

/** A PDF literal string of `text`: cp1252 bytes, ( ) \ escaped, everything non-ASCII as octal. */
export function pdfString(text: string): string {
  let out = "(";
  for (const ch of text.normalize("NFC")) {
    const cp = ch.codePointAt(0)!;
    let byte: number;
    if (CP1252[ch] !== undefined) byte = CP1252[ch];
    else if (cp >= 0x20 && cp <= 0x7e) byte = cp;
    else if (cp >= 0xa0 && cp <= 0xff) byte = cp;
    else if (ch === "\t") byte = 0x20;
    else byte = 0x3f; // '?': not in the font's encoding (and no control characters)
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += "\\" + String.fromCharCode(byte);
    else if (byte < 0x20 || byte > 0x7e) out += "\\" + byte.toString(8).padStart(3, "0");
    else out += String.fromCharCode(byte);
  }
  return out + ")";
}

export interface PdfLine {
  text: string;
  x: number;
  /** From the top of the page, in points. */
  y: number;
  size?: number;
  bold?: boolean;
}

const PAGE_W = 595;
const PAGE_H = 842;

/** A one-page PDF with the given text lines; returns the file's bytes. */
export function renderPdf(lines: PdfLine[], info: { title: string }): Buffer {
  const content = lines
    .map(
      (l) =>
        `BT /${l.bold ? "F2" : "F1"} ${l.size ?? 10} Tf ${l.x.toFixed(1)} ${(PAGE_H - l.y).toFixed(1)} Td ${pdfString(l.text)} Tj ET`,
    )
    .join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    `<< /Title ${pdfString(info.title)} /Producer (Hittad) >>`,
  ];
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/**
 * The seller (left) and the buyer (right) from `top`, as the receipt and the credit note
 * print them; answers where the next line goes.
 */
export function partiesBlock(
  lines: PdfLine[],
  view: { seller: SellerView; buyer: { name: string; lines: string[] } },
  t: (key: string, params?: Record<string, unknown>) => string,
  top: number,
): number {
  let y = top;
  lines.push({ text: t("billing.receipt.seller"), x: 56, y, bold: true });
  for (const l of [
    view.seller.name,
    ...view.seller.address,
    `${t("seller.orgNr")} ${view.seller.orgNr}`,
    view.seller.vatNr ? `${t("seller.vatNr")} ${view.seller.vatNr}` : "",
    `${t("seller.email")} ${view.seller.email}`,
    view.seller.example ? t("seller.exampleShort") : "",
  ].filter(Boolean)) {
    y += 14;
    lines.push({ text: l, x: 56, y });
  }
  let y2 = top;
  lines.push({ text: t("billing.receipt.buyer"), x: 320, y: y2, bold: true });
  for (const l of [view.buyer.name, ...view.buyer.lines].filter(Boolean)) {
    y2 += 14;
    lines.push({ text: l.slice(0, 60), x: 320, y: y2 });
  }
  return Math.max(y, y2) + 30;
}

/** The receipt page as PDF lines, in the owner's language and the order's currency. */
export function receiptPdf(
  view: ReceiptView,
  t: (key: string, params?: Record<string, unknown>) => string,
  format: { money(minor: number): string; date(ms: number): string },
): Buffer {
  const lines: PdfLine[] = [];
  let y = 60;
  const add = (text: string, opts: Partial<PdfLine> = {}) => {
    lines.push({ text, x: 56, y, ...opts });
  };
  add(t("dashboard.billing.receiptTitle", { number: view.number }), { size: 18, bold: true });
  y += 34;
  // Seller, left; buyer, right.
  y = partiesBlock(lines, view, t, y);
  const row = (label: string, value: string, bold = false) => {
    lines.push({ text: label, x: 56, y, bold });
    lines.push({ text: value, x: 320, y, bold });
    y += 16;
  };
  row(t("billing.receipt.number"), String(view.number));
  row(t("billing.receipt.date"), format.date(view.paidAt));
  row(t("billing.receipt.period"), `${format.date(view.periodStart)} – ${format.date(view.periodEnd)}`);
  y += 12;
  row(t("billing.receipt.line", { count: view.count, period: t(`billing.receipt.periods.${view.period}`) }), "", true);
  for (const name of view.items) {
    lines.push({ text: `• ${name.slice(0, 80)}`, x: 68, y });
    y += 14;
  }
  y += 6;
  row(t("billing.receipt.package"), format.money(view.packageAmount));
  if (view.discountAmount) row(t("billing.receipt.discount"), format.money(-view.discountAmount));
  // VAT only from a seller with a VAT number (decision 057); else a line saying none is charged.
  const vat = view.seller.vatOnReceipts;
  if (vat) row(t("billing.receipt.net"), format.money(view.netAmount));
  if (vat) row(t(view.reverseCharge ? "invoices.vatNone" : "billing.receipt.vat"), format.money(view.vatAmount));
  row(t("billing.receipt.total"), format.money(view.totalAmount), true);
  // Decision 027: no VAT charged, the buyer accounts for it; the legal note says so.
  if (vat && view.reverseCharge) row(t("invoices.reverseCharge"), "", true);
  if (!vat) row(t("billing.receipt.noVat"), "");
  y += 8;
  row(t("billing.receipt.paid"), format.date(view.paidAt));
  return renderPdf(lines, { title: t("dashboard.billing.receiptTitle", { number: view.number }) });
}
