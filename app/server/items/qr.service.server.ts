/**
 * The owner's QR codes (decision 052): as SVG, as the PNG to print, and as the small PNG for
 * screens (decision 045). Drawn by qr.server.ts; served by qr.http.server.ts.
 */
import type { Deps } from "../service-deps.server";
import { ItemError } from "../access/item-error.server";
import { findManagedItem } from "../access/items.repository.server";
import { qrPng, qrSvg } from "./qr.server";

export type QrFormat = "svg" | "png" | "screen";

/**
 * The QR code of the owner's item as SVG, PNG to print, or the small PNG for screens (one
 * pixel per module): the sticker's short {origin}/{id}.
 * Owner only (we are not a QR service for ids that are not yours): ItemError notFound.
 */
export async function getItemQr(
  deps: Pick<Deps, "db" | "config" | "clock">,
  owner: string,
  id: string,
  format: QrFormat,
): Promise<{ body: string | Buffer; target: string; code: string }> {
  const item = await findManagedItem(deps.db, owner, id);
  if (!item) throw new ItemError("notFound");
  // The short {origin}/{id}, as printed on the stickers (decision 052): one code per item.
  const target = `${deps.config.baseUrl.origin}/${item.id}`;
  const body = format === "svg" ? qrSvg(target) : await qrPng(target, format === "screen" ? "modules" : undefined);
  return { body, target, code: item.code };
}
