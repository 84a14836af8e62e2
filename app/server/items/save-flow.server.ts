/**
 * Spec section 4, save flow: save → /dashboard; pay now → remember the item as the one
 * being bought ('buy'), then /order when an address with an email is kept, else the
 * address form (which continues to /order). Pay now only for an item not paid yet.
 */
import type { Lang } from "~/i18n/config";
import type { ProductFormValues, ProductInput } from "~/lib/forms/product-form";
import type { Deps } from "../service-deps.server";
import { hasOrderAddressWithEmail, rememberBuy } from "../order-draft/order-draft.service.server";
import { attachPhotos, PhotoError, type PreparedPhoto } from "../photos/photos.service.server";
import { createItem, updateOwnedItem } from "./items.service.server";
import { createItems, type CreateItemsResult } from "./create-items.service.server";
import { claimSticker, prepaidRecordOfItem } from "../stickers/stickers.service.server";

/**
 * `focus`: the order page opens on this one item, with the period chosen on its form
 * (decision 051: /order had ticked every unpaid item at the yearly price). The
 * Triple's three items are chosen by the remembered package instead.
 */
async function afterSave(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  itemId: string,
  payNow: boolean,
  organisationId: string | null = null,
  focus = true,
) {
  if (!payNow) return "/dashboard";
  await rememberBuy(deps, userId, itemId);
  const query = focus ? `?item=${encodeURIComponent(itemId)}` : "";
  const page = (await hasOrderAddressWithEmail(deps, userId, organisationId)) ? "/order" : "/user/register-adress";
  return `${page}${query}`;
}

/** Registers a new item; returns where the owner goes next. */
export async function registerItem(
  deps: Pick<Deps, "db" | "clock" | "config" | "events" | "photos">,
  input: {
    userId: string;
    item: ProductInput;
    lang: Lang;
    organisationId?: string | null;
    /** An admin's choice of member (decision 026); undefined: the field was not sent. */
    assignTo?: string | null;
    /** Photos checked and processed before (decision 035: a refused photo saves nothing). */
    photos?: PreparedPhoto[];
    /** A printed sticker being claimed (decision 036): the item takes its id and code. */
    sticker?: { id: string; ip: string };
  },
): Promise<string> {
  const { sticker } = input;
  const organisationId = input.organisationId ?? null;
  const id = sticker
    ? await claimSticker(
        // The claim makes the item with the items' own createItem (decision 053).
        { ...deps, createItem },
        { userId: input.userId, ip: sticker.ip },
        { id: sticker.id },
        input.item,
        input.lang,
        organisationId,
        input.assignTo,
      )
    : await createItem(deps, input.userId, input.item, input.lang, organisationId, input.assignTo);
  if (input.photos?.length) {
    try {
      await attachPhotos(deps, input.userId, id, input.photos);
    } catch (err) {
      // Only a race (another upload filled the account's storage meanwhile): the item is
      // saved, so the owner goes to its photos, which say what happened.
      if (err instanceof PhotoError) return `/product/${id}/photos?error=${err.code}`;
      throw err;
    }
  }
  // A prepaid sticker's item is paid already: nothing to buy.
  const payNow = input.item.intent === "payNow" && !(sticker && (await prepaidRecordOfItem(deps, id)));
  return afterSave(deps, input.userId, id, payNow, organisationId);
}

/**
 * Registers the Triple's three items from one form (decision 038), all or none; saved, they
 * go on to payment like a pay-now item: the first is remembered, and /order preselects it
 * and the next two (the newest), with the package remembered by the caller.
 */
export async function registerItems(
  deps: Pick<Deps, "db" | "clock">,
  input: { userId: string; blocks: readonly ProductFormValues[]; lang: Lang; organisationId: string | null },
): Promise<{ ok: true; next: string } | Extract<CreateItemsResult, { ok: false }>> {
  const created = await createItems(deps, input.userId, input.blocks, input.lang, input.organisationId);
  if (!created.ok) return created;
  return { ok: true, next: await afterSave(deps, input.userId, created.ids[0]!, true, input.organisationId, false) };
}

/** Saves an item the user manages (ItemError notFound otherwise); returns where they go next. */
export async function saveItem(
  deps: Pick<Deps, "db" | "clock" | "config" | "events" | "photos">,
  input: { userId: string; id: string; item: ProductInput; assignTo?: string | null; photos?: PreparedPhoto[] },
): Promise<string> {
  const before = await updateOwnedItem(deps, input.userId, input.id, input.item, input.assignTo);
  // PhotoError (tooMany, storageFull) after the save: the form says so and keeps what was typed.
  if (input.photos?.length) await attachPhotos(deps, input.userId, input.id, input.photos);
  // A paid item has no pay-now button; a forged one only saves.
  return afterSave(deps, input.userId, input.id, input.item.intent === "payNow" && !before.paid);
}
