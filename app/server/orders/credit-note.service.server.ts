/**
 * A withdrawn order's credit note as a PDF (decision 051), for whoever may see the order's
 * receipts (requireOrderViewer), in the reader's saved language, amounts in the order's
 * currency. The seller and buyer are the corrected receipt's. No HTTP here (decision 011).
 */
import { isLang, type Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/domain/dates";
import { formatPrice } from "~/lib/domain/pricing";
import type { Deps } from "../service-deps.server";
import { sellerOf } from "../seller/seller.server";
import { getReceipt } from "./billing.service.server";
import { creditNotePdf } from "./credit-note-pdf.server";
import { findCreditNoteOfOrder } from "./credit-notes.server";
import { requireOrderViewer } from "./order-access.server";
import { OrderError } from "./order-error.server";
import { findUserForReceipt } from "./orders.repository.server";

export async function getCreditNotePdf(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: { userId: string; orderId: string; lang: Lang },
): Promise<{ pdf: Buffer; filename: string; number: number }> {
  const order = await requireOrderViewer(deps, input.userId, input.orderId);
  const note = await findCreditNoteOfOrder(deps.db, order.id);
  if (!note) throw new OrderError("notFound");
  const user = await findUserForReceipt(deps.db, input.userId);
  const lang: Lang = isLang(user?.language) ? user.language : input.lang;
  const receipt =
    note.receiptNumber != null
      ? await getReceipt(deps, { userId: input.userId, orderId: order.id, number: note.receiptNumber, lang })
      : null;
  const t = getT(lang);
  const priceLang = note.currency === "SEK" ? "sv" : "en";
  const pdf = creditNotePdf(
    {
      orderId: order.id,
      number: note.number,
      receiptNumber: note.receiptNumber,
      createdAt: note.createdAt,
      currency: note.currency,
      totalAmount: note.totalAmount,
      vatAmount: note.vatAmount,
      reverseCharge: note.reverseCharge,
      items: note.items.map((i) => i.name),
      seller: receipt?.seller ?? sellerOf(deps.config),
      buyer: receipt?.buyer ?? { name: "", lines: [] },
    },
    (key, params) => t(key, params ?? {}),
    { money: (minor) => formatPrice(minor / 100, priceLang), date: (ms) => formatDate(ms, lang) },
  );
  return { pdf, filename: `hittad-credit-note-${note.number}.pdf`, number: note.number };
}
