/**
 * Rules for items (spec "Product form", "Dashboard", "Item page", sections 4 and 6).
 * No HTTP here: routes call these after their guards and map the results.
 */
import type { Lang } from "~/i18n/config";
import { currencyForLang, type Currency } from "~/lib/fee";
import { newProductId } from "~/lib/ids";
import type { ProductInput } from "~/lib/product-form";
import type { DB } from "../db/db.server";
import { forgetItemPages } from "./item-page-cache.server";
import {
  findProductById,
  findProductOfOwner,
  insertProduct,
  listProductsOfOwner,
  updateProductOfOwner,
  type ProductRow,
} from "./items.repository.server";

/**
 * The one rule for "paid": payed is set and the paid period has not ended. The orders
 * workstream sets payed/paidUntil; everything that asks "is it active?" calls this.
 */
export function isItemPaid(item: Pick<ProductRow, "payed" | "paidUntil">, now: number = Date.now()): boolean {
  return Number(item.payed) === 1 && (item.paidUntil == null || item.paidUntil > now);
}

/** What the owner sees of an item (dashboard, form). */
export interface OwnedItem {
  id: string;
  name: string;
  findFee: number;
  currency: Currency;
  prodType: string;
  contactInfo: string;
  payment: string;
  paid: boolean;
}

function toOwnedItem(row: ProductRow, now: number): OwnedItem {
  return {
    id: row.id,
    name: row.name,
    findFee: Number(row.findFee),
    currency: row.currency === "SEK" ? "SEK" : "EUR",
    prodType: row.prodType,
    contactInfo: row.contactInfo,
    payment: row.payment,
    paid: isItemPaid(row, now),
  };
}

export async function createItem(db: DB, owner: string, input: ProductInput, lang: Lang): Promise<string> {
  const now = Date.now();
  for (let attempt = 0; ; attempt++) {
    const id = newProductId();
    try {
      await insertProduct(db, {
        id,
        owner,
        name: input.name,
        findFee: input.findFee,
        currency: currencyForLang(lang),
        prodType: input.prodType,
        contactInfo: input.contactInfo,
        payment: input.payment,
        payed: 0,
        paidUntil: null,
        createdAt: now,
        updatedAt: now,
      });
      return id;
    } catch (err) {
      // 62^10 ids make a collision practically impossible; retry once or twice if it happens.
      if (attempt >= 2 || (await findProductById(db, id)) === undefined) throw err;
    }
  }
}

/** The owner's item, or null when it does not exist or belongs to someone else (no difference shown). */
export async function getOwnedItem(db: DB, owner: string, id: string): Promise<OwnedItem | null> {
  const row = await findProductOfOwner(db, owner, id);
  return row ? toOwnedItem(row, Date.now()) : null;
}

export async function listOwnedItems(db: DB, owner: string): Promise<OwnedItem[]> {
  const now = Date.now();
  return (await listProductsOfOwner(db, owner)).map((r) => toOwnedItem(r, now));
}

/**
 * Saves the owner's changes. A paid item's payment choice is hidden on the form and kept
 * as it is. Returns false (and changes nothing) when the id is not the owner's.
 */
export async function updateOwnedItem(db: DB, owner: string, id: string, input: ProductInput): Promise<boolean> {
  const row = await findProductOfOwner(db, owner, id);
  if (!row) return false;
  const updated = await updateProductOfOwner(db, owner, id, {
    name: input.name,
    findFee: input.findFee,
    prodType: input.prodType,
    contactInfo: input.contactInfo,
    payment: isItemPaid(row) ? row.payment : input.payment,
    updatedAt: Date.now(),
  });
  if (updated) forgetItemPages(id);
  return updated;
}

/** The public item page's view: decided here so unpaid details never leave the server. */
export type ItemPageView =
  | { kind: "notFound" }
  | { kind: "notPaid" }
  | {
      kind: "item";
      id: string;
      name: string;
      prodType: string;
      findFee: number;
      currency: Currency;
      contactInfo: string;
      /** Owner viewing an unpaid item: show the 'not activated' warning. */
      ownerMustActivate: boolean;
    };

export async function getItemPageView(db: DB, id: string, viewerId: string | null): Promise<ItemPageView> {
  const row = await findProductById(db, id);
  if (!row) return { kind: "notFound" };
  const paid = isItemPaid(row);
  const isOwner = viewerId !== null && viewerId === row.owner;
  if (!paid && !isOwner) return { kind: "notPaid" };
  return {
    kind: "item",
    id: row.id,
    name: row.name,
    prodType: row.prodType,
    findFee: Number(row.findFee),
    currency: row.currency === "SEK" ? "SEK" : "EUR",
    contactInfo: row.contactInfo,
    ownerMustActivate: !paid,
  };
}
