import { qrResponse } from "~/server/items/qr.http.server";
import type { Route } from "./+types/item-qr-png";

/** GET /product/{id}/qr.png: the QR code as a PNG to download and print (app/server/items/qr.http.server.ts). */
export function loader({ request, params }: Route.LoaderArgs) {
  return qrResponse(request, params.id, "png");
}
