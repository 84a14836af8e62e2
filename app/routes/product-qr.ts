import { data } from "react-router";
import { isProductId } from "~/lib/ids";
import { requireUser } from "~/server/auth/session.server";
import { getOwnedItem } from "~/server/items/items.service.server";
import { qrSvg } from "~/server/items/qr.server";
import { getRuntime } from "~/server/runtime.server";
import type { Route } from "./+types/product-qr";

/**
 * GET /product/{id}/qr.svg — the QR code of {origin}/product/{id} (or of the short
 * {origin}/{id} with ?short, for the order page and stickers). Owner only: it is not a
 * secret, but we are not a QR service for ids that are not yours.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { database, config } = await getRuntime();
  const item = isProductId(params.id) ? await getOwnedItem(database.db, user.ref, params.id) : null;
  if (!item) throw data(null, { status: 404 });
  const short = new URL(request.url).searchParams.has("short");
  const target = `${config.baseUrl.origin}${short ? "" : "/product"}/${item.id}`;
  return new Response(qrSvg(target), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      // Same id, same picture: the browser may keep it; shared caches may not.
      "Cache-Control": "private, max-age=86400",
      "X-QR-Value": target,
    },
  });
}
