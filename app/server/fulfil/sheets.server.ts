/**
 * The admin's PDF downloads (decision 015): the selected shipments' sticker sheet and address
 * labels. The service decides what is on them; sticker-pdf.server.ts draws.
 */
import type { Deps } from "../service-deps.server";
import { selectedShipments, type Selection } from "./fulfil.service.server";
import { addressLabelsPdf, stickerSheetPdf, type SheetCell } from "./sticker-pdf.server";

export async function stickerSheet(deps: Pick<Deps, "db" | "config">, sel: Selection): Promise<Buffer> {
  const shipments = await selectedShipments(deps, sel);
  // Several shipments on one sheet: a separator card before each one's stickers
  // (decision 032), so nobody packs one owner's sticker into another's envelope.
  const shared = shipments.length > 1;
  const cells: SheetCell[] = shipments.flatMap((s) => [
    ...(shared ? [{ separator: true as const, owner: s.ownerName || s.ownerEmail, count: s.items.length }] : []),
    ...s.items.map((i) => ({ id: i.id, code: i.code, lang: s.lang })),
  ]);
  return stickerSheetPdf(deps.config.baseUrl, cells, deps.config.sms.number);
}

export async function addressLabels(deps: Pick<Deps, "db">, sel: Selection): Promise<Buffer> {
  const shipments = await selectedShipments(deps, sel);
  return addressLabelsPdf(shipments.map((s) => ({ address: s.address, fallbackName: s.ownerName || s.ownerEmail })));
}
