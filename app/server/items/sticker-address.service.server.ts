/**
 * The item page's answer for any sticker address, beside the item's own view
 * (items.service.server.ts getItemPageView). No HTTP here (decision 011).
 */
import { formatStickerCode } from "~/lib/domain/sticker-code";
import type { Deps } from "../service-deps.server";
import { isRetiredStickerId } from "../fulfil/fulfil.repository.server";
import { findUnclaimedStickerState } from "../stickers/stickers.repository.server";
import { getItemPageView, ItemError, type ItemPageView } from "./items.service.server";

/**
 * What a sticker's address (`/{id}`, `/product/{id}`) shows: the item's page; "replaced"
 * for the old address of a sticker replaced with a new code (the route answers 410); or a
 * printed sticker nobody registered yet, or one voided (decision 036). Other ids: notFound.
 */
export type StickerAddressView =
  ItemPageView | { kind: "replaced" } | { kind: "sticker"; state: "unclaimed" | "voided"; code: string };

export async function getStickerAddressView(
  deps: Pick<Deps, "db" | "clock" | "config">,
  id: string,
  viewerId: string | null,
): Promise<StickerAddressView> {
  try {
    return await getItemPageView(deps, id, viewerId);
  } catch (err) {
    if (!(err instanceof ItemError) || err.code !== "notFound") throw err;
    if (await isRetiredStickerId(deps.db, id)) return { kind: "replaced" };
    const sticker = await findUnclaimedStickerState(deps.db, id);
    // The code as printed (K7M-29Q-XHR), for the finder to quote when handing it in.
    if (sticker) return { kind: "sticker", state: sticker.state, code: formatStickerCode(sticker.code) };
    throw err;
  }
}
