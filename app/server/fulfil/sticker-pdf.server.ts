/**
 * Print-ready PDFs for staff (decision 015): the sticker sheet and the address labels, both
 * on one A4 label layout, 24 labels of 70 × 37 mm in 3 columns and 8 rows without gaps
 * (Avery 3474 / Herma 4453 and their equivalents; docs/decisions/015-sticker-fulfilment.md).
 *
 * Each sticker: the QR code of the short URL {BASE_URL}/{id} as vector rectangles (error
 * correction M, a quiet zone of 4 modules, 30 mm square with it), the typeable code
 * under it, and beside it the brand and "Found me? Scan or visit …" in the owner's
 * language. Fonts are embedded. Owners' names and addresses are drawn as text (never
 * interpreted), control characters removed and long lines cut with an ellipsis.
 */
import type PDFDocumentClass from "pdfkit";
import type QRCodeModule from "qrcode";
import { getT } from "~/i18n/i18n";
import type { Lang } from "~/i18n/config";
import type { Address } from "~/lib/domain/address";
import { BRAND } from "~/lib/domain/brand";
import { addressLines } from "~/lib/forms/order-form";
import { nationalSmsNumber } from "~/lib/domain/sms-number";
import { formatStickerCode } from "~/lib/domain/sticker-code";

const MM = 72 / 25.4;
export const PAGE = { width: 210 * MM, height: 297 * MM };
export const LABEL = { width: 70 * MM, height: 37 * MM, columns: 3, rows: 8 };
export const LABELS_PER_PAGE = LABEL.columns * LABEL.rows;
/** Sheet margins: the 8 rows leave 1 mm of the page's 297, split top and bottom. */
const TOP = (PAGE.height - LABEL.rows * LABEL.height) / 2;
const LEFT = (PAGE.width - LABEL.columns * LABEL.width) / 2;
/** The QR code's square, its quiet zone included, from the label's top-left corner. */
export const QR_BOX = { x: 1.5 * MM, y: 1 * MM, size: 30 * MM };
export const QR_QUIET_MODULES = 4;

/** Top-left corner (points, from the page's top-left) of label `index` on its page. */
export function labelOrigin(index: number): { page: number; x: number; y: number } {
  const page = Math.floor(index / LABELS_PER_PAGE);
  const slot = index % LABELS_PER_PAGE;
  return {
    page,
    x: LEFT + (slot % LABEL.columns) * LABEL.width,
    y: TOP + Math.floor(slot / LABEL.columns) * LABEL.height,
  };
}

function fontBytes(dataUrl: string): Buffer {
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
}

/**
 * pdfkit, qrcode and the fonts (1.4 MB) load on the first PDF, not at server start: every
 * instance starts (and a finder's first page answers) without paying for them.
 */
let libs:
  | Promise<{ PDFDocument: typeof PDFDocumentClass; QRCode: typeof QRCodeModule; regular: Buffer; bold: Buffer }>
  | undefined;
function loadLibs() {
  libs ??= Promise.all([
    import("pdfkit"),
    import("qrcode"),
    import("./fonts/DejaVuSans.ttf?inline"),
    import("./fonts/DejaVuSans-Bold.ttf?inline"),
  ]).then(([pdfkit, qrcode, regular, bold]) => ({
    PDFDocument: pdfkit.default,
    QRCode: (qrcode as { default?: typeof QRCodeModule }).default ?? (qrcode as typeof QRCodeModule),
    regular: fontBytes(regular.default),
    bold: fontBytes(bold.default),
  }));
  return libs;
}

async function newDocument(title: string) {
  const lib = await loadLibs();
  const doc = new lib.PDFDocument({
    size: "A4",
    margin: 0,
    autoFirstPage: false,
    info: { Title: title, Author: BRAND, Creator: BRAND },
  });
  doc.registerFont("regular", lib.regular);
  doc.registerFont("bold", lib.bold);
  return { doc, QRCode: lib.QRCode };
}

function finish(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.end();
  });
}

/** Untrusted text for a single PDF line: no control characters, collapsed spaces. */
export function pdfText(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}

/** Draws the QR code of `value` into the square (x, y, size): quiet zone included. */
function drawQr(
  doc: PDFKit.PDFDocument,
  QRCode: typeof QRCodeModule,
  value: string,
  x: number,
  y: number,
  size: number,
) {
  const qr = QRCode.create(value, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const m = size / (n + 2 * QR_QUIET_MODULES);
  const ox = x + QR_QUIET_MODULES * m;
  const oy = y + QR_QUIET_MODULES * m;
  doc.save();
  doc.rect(x, y, size, size).fill("#ffffff");
  for (let row = 0; row < n; row++) {
    let col = 0;
    while (col < n) {
      if (!qr.modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && qr.modules.get(row, col)) col++;
      // A hair of overlap so renderers leave no white seams between modules.
      doc.rect(ox + start * m, oy + row * m, (col - start) * m + 0.01, m + 0.01);
    }
  }
  doc.fill("#000000");
  doc.restore();
}

export interface StickerSpec {
  id: string;
  code: string;
  lang: Lang;
}

/**
 * Where one shipment's stickers start on a sheet shared by several (decision 032):
 * a label-sized card naming whose stickers follow, so they are cut and packed apart.
 */
export interface SheetSeparator {
  separator: true;
  /** The owner's name (else email), drawn as text. */
  owner: string;
  count: number;
}

export type SheetCell = StickerSpec | SheetSeparator;

function drawSeparator(doc: PDFKit.PDFDocument, cell: SheetSeparator, at: { x: number; y: number }) {
  // Staff cut and pack in Sweden (decision 038): the card is in Swedish.
  const t = getT("sv");
  const inset = 2 * MM;
  doc.save();
  doc
    .dash(3, { space: 2 })
    .lineWidth(0.8)
    .rect(at.x + inset, at.y + inset, LABEL.width - 2 * inset, LABEL.height - 2 * inset)
    .stroke("#000000");
  doc.undash().restore();
  const x = at.x + 5 * MM;
  const width = LABEL.width - 10 * MM;
  doc
    .font("bold")
    .fontSize(11)
    .fillColor("#000000")
    .text(t("fulfil.sheet.next"), x, at.y + 6 * MM, { width, lineBreak: false });
  doc
    .font("regular")
    .fontSize(9.5)
    .text(pdfText(cell.owner), x, doc.y + 1 * MM, { width, height: 10 * MM, ellipsis: true });
  doc.text(t("fulfil.sheet.count", { count: cell.count }), x, doc.y + 0.5 * MM, { width, lineBreak: false });
}

/** The short URL a sticker's QR code holds. */
export function stickerUrl(baseUrl: URL, id: string): string {
  return `${baseUrl.origin}/${id}`;
}

/**
 * `smsNumber`: SMS_NUMBER (decision 055): "or text the code to 0766-86 10 00" is printed
 * under the code when set.
 */
export async function stickerSheetPdf(baseUrl: URL, stickers: SheetCell[], smsNumber?: string): Promise<Buffer> {
  const { doc, QRCode } = await newDocument(`${BRAND} stickers`);
  const host = baseUrl.host;
  stickers.forEach((s, index) => {
    const at = labelOrigin(index);
    if (index % LABELS_PER_PAGE === 0) doc.addPage({ size: "A4", margin: 0 });
    if ("separator" in s) {
      drawSeparator(doc, s, at);
      return;
    }
    const t = getT(s.lang);
    drawQr(doc, QRCode, stickerUrl(baseUrl, s.id), at.x + QR_BOX.x, at.y + QR_BOX.y, QR_BOX.size);
    // The typeable code under the QR code, centred on it. Positioned by hand, not with
    // `width` + `align`: pdfkit's line wrapper treats the dashes as break points and draws
    // the groups as separate runs, which text extraction may read without a dash.
    const code = formatStickerCode(s.code);
    doc.font("bold").fontSize(10).fillColor("#000000");
    doc.text(
      code,
      at.x + QR_BOX.x + (QR_BOX.size - doc.widthOfString(code)) / 2,
      at.y + QR_BOX.y + QR_BOX.size + 0.6 * MM,
      { lineBreak: false },
    );
    if (smsNumber) {
      // Under the code, centred on the QR code as far as the label allows: its last 2 mm.
      const line = t("fulfil.sticker.textCode", { number: nationalSmsNumber(smsNumber) });
      doc.font("regular").fontSize(5.5);
      const lx = Math.max(at.x + 1 * MM, at.x + QR_BOX.x + (QR_BOX.size - doc.widthOfString(line)) / 2);
      doc.text(line, lx, at.y + 34.9 * MM, { lineBreak: false });
    }
    const tx = at.x + QR_BOX.x + QR_BOX.size + 1.5 * MM;
    const tw = LABEL.width - (tx - at.x) - 2 * MM;
    doc
      .font("bold")
      .fontSize(14)
      .text(BRAND, tx, at.y + 4 * MM, { width: tw, lineBreak: false });
    doc
      .font("regular")
      .fontSize(7.5)
      .text(t("fulfil.sticker.found"), tx, at.y + 11 * MM, { width: tw });
    doc
      .font("bold")
      .fontSize(8)
      .text(`${host}/find`, tx, doc.y + 0.5 * MM, { width: tw, lineBreak: false, ellipsis: true });
    doc
      .font("regular")
      .fontSize(7.5)
      .text(t("fulfil.sticker.typeCode"), tx, doc.y + 0.5 * MM, { width: tw });
  });
  return finish(doc);
}

export interface LabelSpec {
  address: Address | null;
  /** Shown when the order has no address (never expected; the order form requires one). */
  fallbackName: string;
}

export async function addressLabelsPdf(labels: LabelSpec[]): Promise<Buffer> {
  const { doc } = await newDocument(`${BRAND} address labels`);
  labels.forEach((label, index) => {
    const at = labelOrigin(index);
    if (index % LABELS_PER_PAGE === 0) doc.addPage({ size: "A4", margin: 0 });
    const lines = (label.address ? addressLines(label.address, { label: true }) : [label.fallbackName])
      .map(pdfText)
      .filter(Boolean)
      .slice(0, 7);
    const x = at.x + 5 * MM;
    const width = LABEL.width - 10 * MM;
    const bottom = at.y + LABEL.height - 3 * MM;
    let y = at.y + 4 * MM;
    lines.forEach((line, i) => {
      if (y >= bottom - 3 * MM) return;
      // Long lines wrap within the label; what does not fit ends with an ellipsis.
      doc
        .font(i === 0 ? "bold" : "regular")
        .fontSize(9.5)
        .fillColor("#000000")
        .text(line, x, y, { width, height: bottom - y, ellipsis: true });
      y = doc.y;
    });
  });
  return finish(doc);
}
