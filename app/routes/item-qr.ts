import { qrResponse } from "~/server/items/qr.http.server";
import type { Route } from "./+types/item-qr";

/** GET /product/{id}/qr.svg: the item's QR code of its short URL (app/server/items/qr.http.server.ts). */
export function loader({ request, params }: Route.LoaderArgs) {
  return qrResponse(request, params.id, "svg");
}
