/**
 * Spec section 4, save flow: save → /dashboard; pay now → remember the item as the one
 * being bought ('buy'), then /order when an address with an email is kept, else the
 * address form (which continues to /order). Pay now only for an item not paid yet.
 */
import type { Lang } from "~/i18n/config";
import type { ProductInput } from "~/lib/product-form";
import type { Deps } from "../service-deps.server";
import { hasOrderAddressWithEmail, rememberBuy } from "../order-draft/order-draft.service.server";
import { createItem, updateOwnedItem } from "./items.service.server";

async function afterSave(deps: Pick<Deps, "db" | "clock">, userId: string, productId: string, payNow: boolean) {
  if (!payNow) return "/dashboard";
  await rememberBuy(deps, userId, productId);
  return (await hasOrderAddressWithEmail(deps, userId)) ? "/order" : "/user/register-adress";
}

/** Registers a new item; returns where the owner goes next. */
export async function registerItem(
  deps: Pick<Deps, "db" | "clock">,
  input: {
    userId: string;
    item: ProductInput;
    lang: Lang;
    organisationId?: string | null;
    /** An admin's choice of member (decision 026); undefined: the field was not sent. */
    assignTo?: string | null;
  },
): Promise<string> {
  const id = await createItem(deps, input.userId, input.item, input.lang, input.organisationId ?? null, input.assignTo);
  return afterSave(deps, input.userId, id, input.item.intent === "payNow");
}

/** Saves an item the user manages (ItemError notFound otherwise); returns where they go next. */
export async function saveItem(
  deps: Pick<Deps, "db" | "clock">,
  input: { userId: string; id: string; item: ProductInput; assignTo?: string | null },
): Promise<string> {
  const before = await updateOwnedItem(deps, input.userId, input.id, input.item, input.assignTo);
  // A paid item has no pay-now button; a forged one only saves.
  return afterSave(deps, input.userId, input.id, input.item.intent === "payNow" && !before.paid);
}
