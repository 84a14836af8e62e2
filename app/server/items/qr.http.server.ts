/**
 * GET /product/{id}/qr.svg and /qr.png (decision 052): the item's QR code of the short
 * {origin}/{id}, as printed on its sticker. Images, not pages: an anonymous request gets
 * 401 and someone else's item (or no item) 404, never a sign-in page with 200. Owner only:
 * it is not a secret, but we are not a QR service for ids that are not yours.
 * `?download` saves it as a file named after the sticker code. `qr.png?screen` is the small
 * PNG the dashboard and /order show: one pixel per module, scaled up by the page.
 */
import { isItemId } from "~/lib/domain/ids";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { getSessionUser } from "../auth/session.server";
import { getDeps } from "../deps.server";
import { ItemError } from "./items.service.server";
import { getItemQr } from "./qr.service.server";

const TYPES = { svg: "image/svg+xml; charset=utf-8", png: "image/png" } as const;

/** The small PNG for the page's own <img>; a download is always the print-size PNG. */
const screenPng = (format: "svg" | "png", url: URL) =>
  format === "png" && url.searchParams.has("screen") && !url.searchParams.has("download");

export async function qrResponse(request: Request, id: string | undefined, format: "svg" | "png"): Promise<Response> {
  const user = await getSessionUser(request);
  const noStore = { "Cache-Control": "private, no-store" };
  if (!user) return new Response(null, { status: 401, headers: noStore });
  if (!id || !isItemId(id)) return new Response(null, { status: 404, headers: noStore });
  const url = new URL(request.url);
  let qr;
  try {
    qr = await getItemQr(await getDeps(), user.ref, id, screenPng(format, url) ? "screen" : format);
  } catch (err) {
    if (err instanceof ItemError && err.code === "notFound")
      return new Response(null, { status: 404, headers: noStore });
    throw err;
  }
  const headers: Record<string, string> = {
    "Content-Type": TYPES[format],
    // Same id, same picture: the browser may keep it; shared caches may not.
    "Cache-Control": "private, max-age=86400",
    "X-QR-Value": qr.target,
  };
  if (url.searchParams.has("download")) {
    headers["Content-Disposition"] = `attachment; filename="hittad-qr-${formatStickerCode(qr.code)}.${format}"`;
  }
  return new Response(typeof qr.body === "string" ? qr.body : new Uint8Array(qr.body), { headers });
}
