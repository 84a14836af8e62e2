import { pdfResponse } from "~/server/fulfil/pdf.http.server";
import { stickerSheet } from "~/server/fulfil/sheets.server";
import type { Route } from "./+types/admin.shipments.stickers-pdf";

/** GET /admin/shipments/stickers.pdf?shipments=…&orders=…: the sticker sheet (admins only, 404 otherwise). */
export function loader({ request }: Route.LoaderArgs) {
  return pdfResponse(request, "hittad-stickers.pdf", stickerSheet);
}
