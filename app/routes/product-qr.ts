import { data } from "react-router";
import { isItemId } from "~/lib/ids";
import { requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { serviceErrorResponse } from "~/server/http/errors.server";
import { itemErrors } from "~/server/items/items.http.server";
import { getItemQr } from "~/server/items/items.service.server";
import type { Route } from "./+types/product-qr";

/**
 * GET /product/{id}/qr.svg — the QR code of {origin}/product/{id} (or of the short
 * {origin}/{id} with ?short, for the order page and stickers). Owner only: it is not a
 * secret, but we are not a QR service for ids that are not yours.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if (!isItemId(params.id)) throw data(null, { status: 404 });
  const short = new URL(request.url).searchParams.has("short");
  let qr;
  try {
    qr = await getItemQr(await getDeps(), user.ref, params.id, short);
  } catch (err) {
    return serviceErrorResponse(itemErrors, err);
  }
  const { svg, target } = qr;
  return new Response(svg, {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      // Same id, same picture: the browser may keep it; shared caches may not.
      "Cache-Control": "private, max-age=86400",
      "X-QR-Value": target,
    },
  });
}
